import Foundation
import XCTest

@testable import PaywallCore

/// How the report counts: users without `user_id`, holdouts, restores, trials, duplicates and
/// the sentence's thresholds.
final class ConversionReportTests: XCTestCase {
    private func lines(_ text: String) throws -> [ReportLine] {
        try text.split(separator: "\n").flatMap { try ReportLine.parse(String($0)) }
    }

    func testPresentationsCountAsUsersWithoutUserIdAndRestoresAreNoConversions() throws {
        var report = ConversionReport()
        let tags = #""experiment_id":"e","variant_id":"a","audience_id":"all""#
        for line in try lines(
            """
            {"name":"trigger_fire","params":{"placement_name":"p","result":"paywall",\(tags)},"timestamp":"2026-01-01T10:00:00.000Z"}
            {"name":"paywallPresentationRequest","params":{"paywall_identifier":"pw","status":"presentation",\(tags)},"timestamp":"2026-01-01T10:00:00.100Z"}
            {"name":"paywall_open","params":{"paywall_identifier":"pw",\(tags)},"timestamp":"2026-01-01T10:00:01.000Z"}
            {"name":"transaction_start","params":{"paywall_identifier":"pw","product_identifier":"x",\(tags)},"timestamp":"2026-01-01T10:00:02.000Z"}
            {"name":"transaction_restore","params":{"paywall_identifier":"pw","product_identifier":"x",\(tags)},"timestamp":"2026-01-01T10:00:03.000Z"}
            {"name":"trigger_fire","params":{"placement_name":"p","result":"paywall",\(tags)},"timestamp":"2026-01-01T11:00:00.000Z"}
            {"name":"paywallPresentationRequest","params":{"paywall_identifier":"pw","status":"presentation",\(tags)},"timestamp":"2026-01-01T11:00:00.100Z"}
            {"name":"paywall_open","params":{"paywall_identifier":"pw",\(tags)},"timestamp":"2026-01-01T11:00:01.000Z"}
            {"name":"transaction_start","params":{"paywall_identifier":"pw","product_identifier":"x",\(tags)},"timestamp":"2026-01-01T11:00:02.000Z"}
            {"name":"transaction_complete","params":{"paywall_identifier":"pw","product_identifier":"x","transaction_id":"t1",\(tags)},"price":"39.99","currency":"USD","timestamp":"2026-01-01T11:00:03.000Z"}
            """)
        {
            report.add(line, source: "log")
        }
        let variant = try XCTUnwrap(report.result.experiments.first?.variants.first)
        XCTAssertEqual(variant.presentationRequests, 2, "a trigger_fire and its request are one request")
        XCTAssertEqual(variant.impressions, 2)
        XCTAssertEqual(variant.users, 2, "each presentation counts as a user")
        XCTAssertEqual(variant.purchaseStarts, 2)
        XCTAssertEqual(variant.conversions, 1, "the restore is not a conversion")
        XCTAssertEqual(variant.revenuePerImpression, ["USD": 39.99 / 2])
        XCTAssertEqual(variant.conversionTimes.count, 1)
    }

    func testHoldoutUsersConvertThroughTheirAssignmentsAndTrialsEarnNothingYet() throws {
        var report = ConversionReport()
        for line in try lines(
            """
            {"name":"trigger_fire","params":{"placement_name":"p","result":"holdout","experiment_id":"e","variant_id":"hold"},"user_id":"h1","uuid":"1"}
            {"name":"trigger_fire","params":{"placement_name":"p","result":"holdout","experiment_id":"e","variant_id":"hold"},"user_id":"h2","uuid":"2"}
            {"name":"transaction_complete","params":{"product_identifier":"x","transaction_id":"t9"},"assignments":{"e":"hold"},"price":"5","currency":"EUR","user_id":"h1","uuid":"3"}
            {"name":"transaction_complete","params":{"product_identifier":"x","transaction_id":"t9"},"assignments":{"e":"hold"},"price":"5","currency":"EUR","user_id":"h1","uuid":"3"}
            {"name":"trigger_fire","params":{"placement_name":"p","result":"paywall","experiment_id":"e","variant_id":"a"},"user_id":"u1","uuid":"4"}
            {"name":"paywall_open","params":{"paywall_identifier":"pw","experiment_id":"e","variant_id":"a"},"user_id":"u1","uuid":"5"}
            {"name":"transaction_complete","params":{"paywall_identifier":"pw","experiment_id":"e","variant_id":"a","transaction_id":"t1"},"price":"39.99","currency":"USD","user_id":"u1","uuid":"6"}
            {"name":"freeTrial_start","params":{"paywall_identifier":"pw","experiment_id":"e","variant_id":"a","transaction_id":"t1"},"user_id":"u1","uuid":"7"}
            """)
        {
            report.add(line, source: "log")
        }
        let variants = try XCTUnwrap(report.result.experiments.first?.variants)
        XCTAssertEqual(variants.map(\.id), ["a", "hold"], "treatments first, the holdout last")
        let hold = variants[1]
        XCTAssertTrue(hold.holdout)
        XCTAssertEqual(hold.users, 2)
        XCTAssertEqual(hold.conversions, 1, "the repeated uuid counts once")
        XCTAssertEqual(hold.revenue, ["EUR": 5])
        XCTAssertEqual(variants[0].trialStarts, 1)
        XCTAssertEqual(variants[0].revenue, [:], "a free trial charges nothing yet")
        XCTAssertNil(variants[0].probabilityBetter, "the first variant is the baseline")
        XCTAssertNotNil(variants[0].probabilityBetterThanHoldout)
        XCTAssertEqual(variants[0].verdictVersusHoldout, "not enough data yet")
    }

    func testTheSentenceNeedsAHundredImpressionsAndNinetyFivePercent() {
        func stats(_ id: String, impressions: Int, conversions: Int) -> VariantStats {
            VariantStats(id: id, impressions: impressions, users: impressions, conversions: conversions)
        }
        let a = stats("a", impressions: 2_000, conversions: 200)
        let b = stats("b", impressions: 2_210, conversions: 270)
        let p = BetaComparison.probabilityBetter((270, 2_210), than: (200, 2_000))
        XCTAssertGreaterThan(p, 0.95)
        XCTAssertEqual(
            ConversionReport.verdict(b, a, probability: p),
            "b converts better than a with \(Int((p * 100).rounded(.down)))% probability (4,210 users)")
        let few = stats("b", impressions: 99, conversions: 60)
        XCTAssertEqual(ConversionReport.verdict(few, a, probability: 0.999), "not enough data yet")
        XCTAssertEqual(ConversionReport.verdict(b, a, probability: 0.94), "not enough data yet")
    }

    func testLinesThatAreNotEventsSayWhy() {
        XCTAssertThrowsError(try ReportLine.parse("not json")) { XCTAssertTrue("\($0)".hasPrefix("not JSON")) }
        XCTAssertThrowsError(try ReportLine.parse("[1]")) { XCTAssertEqual($0 as? ReportLine.Problem, .notAnEvent) }
        XCTAssertEqual(try ReportLine.parse(#"{"name":"some_future_event","params":{}}"#).count, 0)
        XCTAssertEqual(
            try ReportLine.parse(#"{"events":[{"name":"paywall_open","params":{}},{"name":"ping","params":{}}]}"#)
                .map(\.name), [.paywallOpen, .ping])
    }
}
