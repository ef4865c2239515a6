import Foundation
import XCTest

@testable import PaywallCore

/// A paywall's survey at its close, through a session on a recording page: when it is asked,
/// the order of its events around `paywall_close`, and that the result stays the user's.
final class PaywallSessionSurveyTests: XCTestCase {
    private var dir: URL!
    override func setUpWithError() throws { dir = try makeTemporaryDirectory("PaywallSessionSurveyTests") }
    override func tearDown() { removeTemporaryDirectory(dir) }

    @MainActor
    final class Answers: PaywallDelegate {
        var responses: [SurveyResponse] = []
        func handleSurveyResponse(_ response: SurveyResponse) { responses.append(response) }
    }

    @MainActor
    final class Rig {
        let page = RecordingPageSurface()
        let session: PaywallSession
        let purchases: Purchases
        let delegate = Answers()
        var events: [PaywallEvent] = []
        var finished: [PresentationResult] = []

        init(dir: URL, survey: PaywallSurvey?, dialogs: DialogPolicy = .show, user: String = "u1") throws {
            let dispatcher = EventDispatcher()
            session = PaywallSession(paywallId: "pw", events: dispatcher)
            purchases = try Purchases(
                controller: ScriptedController(), catalog: testCatalog,
                cache: EntitlementCache(path: dir.appendingPathComponent("c.sqlite").path),
                transactionSource: nil, events: dispatcher)
            let strings = try StringTable(directory: TestPaths.locales, locale: "en")
            session.enablePurchases(purchases, strings: strings)
            session.strings = strings
            let context = TemplateContext(locale: Locale(identifier: "en"))
            context.state = try RuntimeState(path: dir.appendingPathComponent("runtime.sqlite").path)
            context.userId = user
            session.templateContext = context
            session.survey = survey
            session.surveyDraw = { 0.5 }
            session.dialogs = dialogs
            session.delegate = delegate
            session.page = page
            session.channel.loadFinished(url: "paywall://bundle/index.html")
            send(#"{"event_name": "ping"}"#)
            dispatcher.observe { [unowned self] in self.events.append($0) }
            session.onFinish = { [unowned self] in self.finished.append($0) }
        }

        var names: [EventName] { events.map(\.name) }

        func send(_ event: String) { session.channel.receive(envelope([event])) }

        func event(_ name: EventName) -> PaywallEvent? { events.first { $0.name == name } }

        func settle() async {
            for _ in 0..<20 { await Task.yield() }
        }
    }

    static func survey(_ trigger: PaywallSurvey.Trigger = .onManualClose, probability: Double = 1) -> PaywallSurvey {
        PaywallSurvey(
            id: "close_survey", assignmentKey: "close_v1", title: "Why not today?", message: "One tap helps us",
            trigger: trigger, presentationProbability: probability,
            options: [.init(id: "too_expensive", title: "Too expensive"), .init(id: "later", title: "Maybe later")],
            includeOther: true, includeClose: true)
    }

    @MainActor
    func testAManualCloseAsksThenClosesWithTheAnswer() async throws {
        let rig = try Rig(dir: dir, survey: Self.survey())
        rig.send(#"{"event_name": "close"}"#)
        XCTAssertEqual(rig.names, [.paywallDecline], "the paywall waits for the survey")
        XCTAssertEqual(rig.finished, [])
        let asked = try XCTUnwrap(rig.page.surveys.first)
        XCTAssertEqual(asked.prompt.title, "Why not today?")
        XCTAssertEqual(asked.prompt.message, "One tap helps us")
        XCTAssertEqual(asked.prompt.options.map(\.id), ["too_expensive", "later"])
        XCTAssertEqual(asked.prompt.other, SurveyPrompt.Other(title: "Other", placeholder: "Tell us more", submit: "Submit"))
        XCTAssertEqual(asked.prompt.close, "Close")

        rig.send(#"{"event_name": "close"}"#)
        XCTAssertEqual(rig.page.surveys.count, 1, "the page's messages are ignored while the survey is up")
        asked.answer(.option(id: "too_expensive"))
        XCTAssertEqual(rig.names, [.paywallDecline, .surveyResponse, .paywallClose])
        let response = try XCTUnwrap(rig.event(.surveyResponse))
        XCTAssertEqual(
            response.params,
            [
                "paywall_identifier": "pw", "survey_id": "close_survey", "assignment_key": "close_v1",
                "trigger": "on_manual_close",
                "option_id": "too_expensive", "option_title": "Too expensive", "custom_text": .null,
            ])
        XCTAssertEqual(rig.finished, [.declined])
        XCTAssertEqual(rig.event(.paywallClose)?.params["result"], "declined")
        XCTAssertEqual(
            rig.delegate.responses,
            [
                SurveyResponse(
                    paywallId: "pw", surveyId: "close_survey", assignmentKey: "close_v1", optionId: "too_expensive",
                    optionTitle: "Too expensive", customText: nil)
            ])
        asked.answer(.dismissed)
        XCTAssertEqual(rig.names.count, 3, "a late answer from the host is ignored")
    }

    @MainActor
    func testTheWindowsCloseAsksAndOtherCarriesItsText() async throws {
        let rig = try Rig(dir: dir, survey: Self.survey())
        rig.session.windowClosedByUser()
        try XCTUnwrap(rig.page.surveys.first).answer(.other(text: "  no dark mode \n"))
        let response = try XCTUnwrap(rig.event(.surveyResponse))
        XCTAssertEqual(response.params["option_id"], "other")
        XCTAssertEqual(response.params["option_title"], "Other")
        XCTAssertEqual(response.params["custom_text"], "no dark mode")
        XCTAssertEqual(rig.delegate.responses.first?.customText, "no dark mode")
        XCTAssertEqual(rig.finished, [.declined])
    }

    @MainActor
    func testADismissedSurveyIsASurveyClose() async throws {
        let rig = try Rig(dir: dir, survey: Self.survey())
        rig.send(#"{"event_name": "close"}"#)
        try XCTUnwrap(rig.page.surveys.first).answer(.dismissed)
        XCTAssertEqual(rig.names, [.paywallDecline, .surveyClose, .paywallClose])
        XCTAssertEqual(rig.event(.surveyClose)?.params["auto_answered"], false)
        XCTAssertEqual(rig.delegate.responses, [], "only answers reach the delegate")
        XCTAssertEqual(rig.finished, [.declined])
    }

    @MainActor
    func testDialogsAutoClosesItUnansweredWithoutShowingIt() async throws {
        let rig = try Rig(dir: dir, survey: Self.survey(), dialogs: .auto)
        rig.send(#"{"event_name": "close"}"#)
        XCTAssertEqual(rig.page.surveys.count, 0)
        XCTAssertEqual(rig.names, [.paywallDecline, .surveyClose, .paywallClose])
        XCTAssertEqual(rig.event(.surveyClose)?.params["auto_answered"], true)
        XCTAssertEqual(rig.finished, [.declined])
    }

    @MainActor
    func testProbabilityZeroNeverAsksAndTheAssignmentHoldsForTheNextPresentation() async throws {
        let never = try Rig(dir: dir, survey: Self.survey(probability: 0))
        never.send(#"{"event_name": "close"}"#)
        XCTAssertEqual(never.names, [.paywallDecline, .paywallClose])
        XCTAssertEqual(never.page.surveys.count, 0)

        let asked = try Rig(dir: dir, survey: Self.survey(), user: "u2")
        asked.send(#"{"event_name": "close"}"#)
        try XCTUnwrap(asked.page.surveys.first).answer(.dismissed)
        // The same user, the same data directory, a new session: not asked again.
        let again = try Rig(dir: dir, survey: Self.survey(), user: "u2")
        again.send(#"{"event_name": "close"}"#)
        XCTAssertEqual(again.names, [.paywallDecline, .paywallClose])
        XCTAssertEqual(again.page.surveys.count, 0)
    }

    @MainActor
    func testAPurchaseAsksAnOnPurchaseSurveyAndStaysAPurchase() async throws {
        let rig = try Rig(dir: dir, survey: Self.survey(.onPurchase))
        rig.send(#"{"event_name": "purchase", "product_identifier": "pro.monthly"}"#)
        await rig.settle()
        XCTAssertEqual(rig.finished, [])
        XCTAssertEqual(rig.page.progress, [true, false], "the purchase's overlay is gone under the survey")
        try XCTUnwrap(rig.page.surveys.first).answer(.option(id: "later"))
        XCTAssertEqual(Array(rig.names.suffix(2)), [.surveyResponse, .paywallClose])
        XCTAssertEqual(rig.event(.surveyResponse)?.params["trigger"], "on_purchase")
        XCTAssertEqual(rig.finished, [.purchased(productId: "pro.monthly")])
    }

    @MainActor
    func testAClosedPaywallAfterAKeptOpenPurchaseAsksTheOnPurchaseSurvey() async throws {
        let rig = try Rig(dir: dir, survey: Self.survey(.onPurchase))
        rig.send(#"{"event_name": "purchase", "product_identifier": "pro.monthly", "should_dismiss": false}"#)
        await rig.settle()
        XCTAssertEqual(rig.page.surveys.count, 0, "asked when the paywall closes")
        rig.send(#"{"event_name": "close"}"#)
        try XCTUnwrap(rig.page.surveys.first).answer(.dismissed)
        XCTAssertEqual(Array(rig.names.suffix(2)), [.surveyClose, .paywallClose])
        XCTAssertEqual(rig.finished, [.purchased(productId: "pro.monthly")])
    }

    @MainActor
    func testEachTriggerAsksOnlyItsOwnSurvey() async throws {
        let manual = try Rig(dir: dir, survey: Self.survey(.onPurchase))
        manual.send(#"{"event_name": "close"}"#)
        XCTAssertEqual(manual.names, [.paywallDecline, .paywallClose])

        let bought = try Rig(dir: dir, survey: Self.survey(.onManualClose), user: "u2")
        bought.send(#"{"event_name": "purchase", "product_identifier": "pro.monthly"}"#)
        await bought.settle()
        XCTAssertEqual(bought.page.surveys.count, 0)
        XCTAssertEqual(bought.finished, [.purchased(productId: "pro.monthly")])
    }

    @MainActor
    func testTheAppsDismissAsksNothing() async throws {
        let rig = try Rig(dir: dir, survey: Self.survey())
        rig.session.finish(.declined)
        XCTAssertEqual(rig.names, [.paywallClose])
        XCTAssertEqual(rig.page.surveys.count, 0)
    }

    @MainActor
    func testTakenDownWhileTheSurveyIsUpEndsItUnansweredAndKeepsTheResult() async throws {
        let rig = try Rig(dir: dir, survey: Self.survey())
        rig.send(#"{"event_name": "close"}"#)
        let asked = try XCTUnwrap(rig.page.surveys.first)
        rig.session.finish(.timeout)
        XCTAssertEqual(rig.names, [.paywallDecline, .surveyClose, .paywallClose])
        XCTAssertEqual(rig.finished, [.declined], "the user's close stands")
        asked.answer(.option(id: "later"))
        XCTAssertEqual(rig.names.count, 3)
        XCTAssertEqual(rig.page.dismissCount, 1)
    }
}
