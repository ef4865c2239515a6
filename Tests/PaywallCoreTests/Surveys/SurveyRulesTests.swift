import Foundation
import XCTest

@testable import PaywallCore

final class SurveyRulesTests: XCTestCase {
    private var directory: URL!
    override func setUpWithError() throws { directory = try makeTemporaryDirectory("SurveyRulesTests") }
    override func tearDown() { removeTemporaryDirectory(directory) }

    func state() throws -> RuntimeState {
        try RuntimeState(path: directory.appendingPathComponent("runtime.sqlite").path)
    }

    func survey(_ probability: Double, key: String = "close_v1", trigger: PaywallSurvey.Trigger = .onManualClose) -> PaywallSurvey
    {
        PaywallSurvey(
            id: "close_survey", assignmentKey: key, title: "Why?", trigger: trigger,
            presentationProbability: probability, options: [.init(id: "a", title: "A")])
    }

    func testProbabilityOneAsksEveryDraw() throws {
        let state = try state()
        for (user, draw) in [("u1", 0.0), ("u2", 0.5), ("u3", 0.999_999)] {
            XCTAssertTrue(SurveyRules.shouldAsk(survey(1), after: .onManualClose, user: user, state: state, draw: { draw }))
        }
    }

    func testProbabilityZeroNeverAsks() throws {
        let state = try state()
        for (user, draw) in [("u1", 0.0), ("u2", 0.5), ("u3", 0.999_999)] {
            XCTAssertFalse(SurveyRules.shouldAsk(survey(0), after: .onManualClose, user: user, state: state, draw: { draw }))
        }
    }

    func testTheDrawDecidesBetween() throws {
        let state = try state()
        XCTAssertTrue(SurveyRules.shouldAsk(survey(0.5), after: .onManualClose, user: "u1", state: state, draw: { 0.49 }))
        XCTAssertFalse(SurveyRules.shouldAsk(survey(0.5), after: .onManualClose, user: "u2", state: state, draw: { 0.5 }))
    }

    func testOncePerUserPerAssignmentKeyAcrossProcesses() throws {
        XCTAssertTrue(SurveyRules.shouldAsk(survey(1), after: .onManualClose, user: "u1", state: try state(), draw: { 0 }))
        // A new RuntimeState on the same file: another process, or the app's next start.
        let later = try state()
        XCTAssertFalse(SurveyRules.shouldAsk(survey(1), after: .onManualClose, user: "u1", state: later, draw: { 0 }))
        XCTAssertTrue(
            SurveyRules.shouldAsk(survey(1), after: .onManualClose, user: "u2", state: later, draw: { 0 }),
            "another user is asked")
        XCTAssertTrue(
            SurveyRules.shouldAsk(survey(1, key: "close_v2"), after: .onManualClose, user: "u1", state: later, draw: { 0 }),
            "a new assignment key asks again")
    }

    func testAUserHeldOutIsNotDrawnAgain() throws {
        let state = try state()
        XCTAssertFalse(SurveyRules.shouldAsk(survey(0.5), after: .onManualClose, user: "u1", state: state, draw: { 0.9 }))
        XCTAssertFalse(SurveyRules.shouldAsk(survey(0.5), after: .onManualClose, user: "u1", state: state, draw: { 0 }))
    }

    func testOnlyItsTriggerAsksAndOtherClosesDoNotUseTheAssignment() throws {
        let state = try state()
        let purchaseSurvey = survey(1, trigger: .onPurchase)
        XCTAssertFalse(SurveyRules.shouldAsk(purchaseSurvey, after: .onManualClose, user: "u1", state: state, draw: { 0 }))
        XCTAssertFalse(SurveyRules.shouldAsk(purchaseSurvey, after: nil, user: "u1", state: state, draw: { 0 }))
        XCTAssertTrue(SurveyRules.shouldAsk(purchaseSurvey, after: .onPurchase, user: "u1", state: state, draw: { 0 }))
        XCTAssertFalse(SurveyRules.shouldAsk(survey(1), after: .onPurchase, user: "u2", state: state, draw: { 0 }))
    }

    func testWithoutAStateNobodyIsAsked() {
        XCTAssertFalse(SurveyRules.shouldAsk(survey(1), after: .onManualClose, user: "u1", state: nil, draw: { 0 }))
    }

    func testWhatAnEndCountsAs() {
        XCTAssertEqual(SurveyRules.trigger(for: .purchased(productId: "p"), closedByUser: true), .onPurchase)
        XCTAssertEqual(SurveyRules.trigger(for: .purchased(productId: "p"), closedByUser: false), .onPurchase)
        XCTAssertEqual(SurveyRules.trigger(for: .declined, closedByUser: true), .onManualClose)
        XCTAssertNil(SurveyRules.trigger(for: .declined, closedByUser: false))
        XCTAssertNil(SurveyRules.trigger(for: .restored, closedByUser: true))
        XCTAssertNil(SurveyRules.trigger(for: .timeout, closedByUser: false))
    }
}
