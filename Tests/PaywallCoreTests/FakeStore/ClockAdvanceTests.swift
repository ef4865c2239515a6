import Foundation
import XCTest

@testable import PaywallCore

/// `paywall store advance <amount>` and `paywall store set-outcome <outcome>` arguments.
final class ClockAdvanceTests: XCTestCase {
    private let jan31 = utcDate(2026, 1, 31)

    // MARK: ClockAdvance parsing

    func testParsesEveryUnit() {
        let cases: [(String, Int, ClockAdvance.Unit)] = [
            ("30s", 30, .second), ("90m", 90, .minute), ("36h", 36, .hour), ("7d", 7, .day),
            ("2w", 2, .week), ("1M", 1, .month), ("1y", 1, .year),
        ]
        for (text, value, unit) in cases {
            XCTAssertEqual(ClockAdvance(parsing: text), ClockAdvance(value: value, unit: unit), text)
            XCTAssertEqual(ClockAdvance(parsing: text)?.description, text)
        }
    }

    func testRejectsMalformedAmounts() {
        for text in ["", "1", "d", "0d", "-1d", "1x", "1.5d", "1D", "1Y", "d1", " 1d", "1d "] {
            XCTAssertNil(ClockAdvance(parsing: text), "'\(text)' should not parse")
        }
    }

    // MARK: ClockAdvance.apply

    func testMonthFromJanuary31IsFebruary28() {
        XCTAssertEqual(ClockAdvance(value: 1, unit: .month).apply(to: jan31), utcDate(2026, 2, 28))
        XCTAssertEqual(
            ClockAdvance(value: 1, unit: .month).apply(to: utcDate(2028, 1, 31)), utcDate(2028, 2, 29),
            "a leap year")
        XCTAssertEqual(ClockAdvance(value: 1, unit: .year).apply(to: utcDate(2028, 2, 29)), utcDate(2029, 2, 28))
    }

    func testApplyMovesByEachUnit() {
        XCTAssertEqual(ClockAdvance(parsing: "30s")!.apply(to: jan31), jan31.addingTimeInterval(30))
        XCTAssertEqual(ClockAdvance(parsing: "90m")!.apply(to: jan31), utcDate(2026, 1, 31, 13).addingTimeInterval(30 * 60))
        XCTAssertEqual(ClockAdvance(parsing: "36h")!.apply(to: jan31), utcDate(2026, 2, 2, 0))
        XCTAssertEqual(ClockAdvance(parsing: "7d")!.apply(to: jan31), utcDate(2026, 2, 7))
        XCTAssertEqual(ClockAdvance(parsing: "2w")!.apply(to: jan31), utcDate(2026, 2, 14))
        XCTAssertEqual(ClockAdvance(parsing: "3M")!.apply(to: jan31), utcDate(2026, 4, 30))
        XCTAssertEqual(ClockAdvance(parsing: "1y")!.apply(to: jan31), utcDate(2027, 1, 31))
    }

    // MARK: PurchaseOutcome parsing

    func testParsesEveryOutcome() {
        XCTAssertEqual(PurchaseOutcome(parsing: "success"), .success)
        XCTAssertEqual(PurchaseOutcome(parsing: "cancelled"), .cancelled)
        XCTAssertEqual(PurchaseOutcome(parsing: "pending"), .pending)
        XCTAssertEqual(PurchaseOutcome(parsing: "failed:card_declined"), .failed(reason: "card_declined"))
        XCTAssertEqual(PurchaseOutcome(parsing: "failed:x"), .failed(reason: "x"))
        for outcome: PurchaseOutcome in [.success, .cancelled, .pending, .failed(reason: "card_declined")] {
            XCTAssertEqual(PurchaseOutcome(parsing: outcome.description), outcome, outcome.description)
        }
        XCTAssertEqual(PurchaseOutcome.failed(reason: "x").description, "failed:x")
    }

    func testRejectsMalformedOutcomes() {
        for text in ["failed:", "ok", "", "failed", "Success", "canceled", " success"] {
            XCTAssertNil(PurchaseOutcome(parsing: text), "'\(text)' should not parse")
        }
    }
}
