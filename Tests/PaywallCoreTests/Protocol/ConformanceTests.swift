import Foundation
import XCTest

@testable import PaywallCore

/// The conformance corpus: `Fixtures/Conformance/*.json` holds the exact text pages post to
/// `paywallMessageHandler` (one envelope per file), and `expected` below says what each file
/// decodes to. Adding a file without an entry (or an entry without a file) fails
/// `testCorpusAndTableAreInStep`, so the corpus and the table cannot drift apart.
final class ConformanceTests: XCTestCase {
    typealias Batch = PageEnvelopeDecoder.Batch
    typealias Problem = PageEnvelopeDecoder.Problem
    typealias EnvelopeError = PageEnvelopeDecoder.EnvelopeError

    /// What decoding one corpus file must give.
    enum Expected: Equatable, Sendable {
        case batch(Batch)
        case error(EnvelopeError)
    }

    static let corpusDirectory = TestPaths.fixtures
        .appendingPathComponent("Conformance", isDirectory: true)

    /// Every `event_name` of `PageMessage`: each must have a `<name>.json` file in the corpus.
    static let messageTypes = [
        "ping", "close", "restore", "purchase", "open_url", "open_url_external", "open_deep_link", "custom",
        "custom_placement", "user_attribute_updated", "request_store_review", "schedule_notification",
        "request_permission", "request_callback", "haptic_feedback", "page_view", "initiate_web_checkout",
        "stripe_checkout_start", "stripe_checkout_complete", "stripe_checkout_submit", "stripe_checkout_fail",
        "stripe_checkout_abandon", "template_variable_unknown",
    ]

    private static func messages(_ messages: PageMessage...) -> Expected {
        .batch(Batch(items: messages.map { .success($0) }))
    }

    private static func ok(_ message: PageMessage) -> Result<PageMessage, Problem> { .success(message) }

    private static func problem(_ index: Int, _ eventName: String?, _ reason: String) -> Result<PageMessage, Problem> {
        .failure(Problem(index: index, eventName: eventName, reason: reason))
    }

    private static let unknownReason = "; see PROTOCOL.md for the known events"

    /// Corpus file name -> what it decodes to.
    static let expected: [String: Expected] = [
        // MARK: One file per message type

        "ping.json": messages(.ping(version: "2.1.0")),
        "close.json": messages(.close),
        "restore.json": messages(.restore),
        "purchase.json": messages(
            .purchase(productId: "com.lumen.pro.annual", shouldDismiss: true, slot: "primary")),
        "open_url.json": messages(
            .openURL(url: "https://checkout.stripe.com/c/pay/cs_live_a1B2c3D4e5F6", browserType: "payment_sheet")),
        "open_url_external.json": messages(.openURLExternal(url: "https://lumen.app/legal/terms")),
        "open_deep_link.json": messages(.openDeepLink(link: "lumen://settings/subscription?source=paywall")),
        "custom.json": messages(.custom(data: "show_onboarding_tips")),
        "custom_placement.json": messages(
            .customPlacement(
                name: "upsell_lifetime",
                params: [
                    "source": "annual_plan_card", "discount_percent": 40, "is_returning": true, "highlight": .null,
                ])),
        "user_attribute_updated.json": messages(
            .userAttributesUpdated([
                .init(key: "selected_plan", value: "annual"),
                .init(key: "quiz_score", value: .number(7.5)),
                .init(key: "marketing_opt_in", value: false),
                .init(key: "goals", value: ["focus", "sleep"]),
                .init(key: "referrer", value: .null),
            ])),
        "request_store_review.json": messages(.requestStoreReview(reviewType: "in-app")),
        "schedule_notification.json": messages(
            .scheduleNotification(
                .init(
                    type: "TRIAL_STARTED", title: "Your free trial ends tomorrow", subtitle: "Lumen Pro",
                    body: "Cancel anytime in Settings before Friday to avoid being charged.", delay: 518_400_000))),
        "request_permission.json": messages(
            .requestPermission(permissionType: "notification", requestId: "perm_8f3a1c2e")),
        "request_callback.json": messages(
            .requestCallback(
                requestId: "cb_2d9e7b41", name: "validate_promo_code", behavior: "blocking",
                variables: ["code": "SPRING40", "plan": "annual"])),
        "haptic_feedback.json": messages(.hapticFeedback(hapticType: "medium")),
        "page_view.json": messages(
            .pageView(
                .init(
                    pageNodeId: "node_plans", flowPosition: 2, pageName: "Choose your plan", navigationNodeId: "nav_3f1a",
                    previousPageNodeId: "node_features", previousFlowPosition: 1, type: "forward",
                    timeOnPreviousPageMs: 5230))),
        "initiate_web_checkout.json": messages(
            .webCheckout(
                kind: .initiateWebCheckout, checkoutContextId: "wcc_7Hq2LmN9", productId: "com.lumen.pro.annual")),
        "stripe_checkout_start.json": messages(
            .webCheckout(
                kind: .stripeCheckoutStart, checkoutContextId: "wcc_7Hq2LmN9", productId: "com.lumen.pro.annual")),
        "stripe_checkout_complete.json": messages(
            .webCheckout(
                kind: .stripeCheckoutComplete, checkoutContextId: "wcc_7Hq2LmN9", productId: "com.lumen.pro.annual")),
        "stripe_checkout_submit.json": messages(
            .webCheckout(
                kind: .stripeCheckoutSubmit, checkoutContextId: "wcc_7Hq2LmN9", productId: nil)),
        "stripe_checkout_fail.json": messages(
            .webCheckout(
                kind: .stripeCheckoutFail, checkoutContextId: "wcc_7Hq2LmN9", productId: "com.lumen.pro.monthly")),
        // An explicit `"product_identifier": null` reads as absent.
        "stripe_checkout_abandon.json": messages(
            .webCheckout(
                kind: .stripeCheckoutAbandon, checkoutContextId: "wcc_7Hq2LmN9", productId: nil)),
        "template_variable_unknown.json": messages(.templateVariableUnknown(name: "primary.trialPeriodPrices")),

        // MARK: Whole envelopes rejected

        // `postMessage(String(obj))` instead of `JSON.stringify(obj)`.
        "invalid-not-json.json": .error(.notJSON),
        // A bare event posted without its envelope.
        "invalid-not-envelope.json": .error(.notAnEnvelope(#"no "payload" object"#)),
        "invalid-top-level-array.json": .error(.notAnEnvelope("top level is not an object")),
        "invalid-events-not-array.json": .error(.notAnEnvelope(#"no "payload.events" array"#)),

        // MARK: Events rejected one by one

        "invalid-missing-field.json": .batch(
            Batch(items: [
                problem(0, "purchase", #"missing string field "product_identifier""#)
            ])),
        "unknown-event.json": .batch(
            Batch(items: [
                problem(0, "present_survey", #"unknown event_name "present_survey""# + unknownReason)
            ])),
        // Valid, unknown and malformed events in one batch: each is decoded on its own, in order.
        "mixed-batch.json": .batch(
            Batch(items: [
                ok(.ping(version: "2.1.0")),
                // The problem names the event as the page spelled it; the reason uses the normalized name.
                problem(1, "presentSurvey", #"unknown event_name "presentSurvey""# + unknownReason),
                problem(2, nil, "event is not an object"),
                problem(3, nil, #"missing "event_name""#),
                problem(4, "purchase", #"field "should_dismiss" must be a boolean"#),
                problem(5, "page_view", #"field "flow_position" must be a number"#),
                // NOTE: "a array" is the decoder's wording (EventFields.wrongType prefixes every type with "a").
                problem(6, "user_attribute_updated", #"field "attributes" must be a list of {key, value} objects"#),
                ok(.custom(data: "after_the_bad_ones")),
                ok(.close),
            ])),

        // MARK: camelCase keys (and camelCase event names)

        "camelcase-purchase.json": messages(
            .purchase(productId: "com.lumen.pro.monthly", shouldDismiss: false, slot: "secondary")),
        // The keys inside `variables` are the app's data and keep their spelling.
        "camelcase-request_callback.json": messages(
            .requestCallback(
                requestId: "cb_71f0aa", name: "check_eligibility", behavior: "non-blocking",
                variables: ["userId": "u_4821", "planTier": "pro"])),
        "camelcase-page_view.json": messages(
            .pageView(
                .init(
                    pageNodeId: "node_checkout", flowPosition: 3, pageName: "Checkout", navigationNodeId: "nav_9c2d",
                    previousPageNodeId: "node_plans", previousFlowPosition: 2, type: "forward",
                    timeOnPreviousPageMs: 12_480.5))),
        "camelcase-schedule_notification.json": messages(
            .scheduleNotification(
                .init(
                    type: "TRIAL_STARTED", title: "Trial reminder", subtitle: nil,
                    body: "Your Lumen Pro trial ends in 2 days.", delay: 432_000_000))),
        // `requestID` (an acronym) normalizes to `request_id`.
        "camelcase-request_permission.json": messages(
            .requestPermission(permissionType: "notification", requestId: "perm_c0ffee")),
        "camelcase-custom_placement.json": messages(
            .customPlacement(name: "winback_offer", params: ["offerCode": "WB30", "daysSinceCancel": 12])),
        // Both spellings of one key: the snake_case one wins.
        "camelcase-snake-wins.json": messages(.openURL(url: "https://lumen.app/help", browserType: "in_app")),

        // MARK: Envelope variants

        "direction-from-paywall.json": messages(
            .ping(version: "2.1.0"),
            .pageView(
                .init(
                    pageNodeId: "node_welcome", flowPosition: 0, pageName: "Welcome", navigationNodeId: "nav_0001",
                    type: "entry"))),
    ]

    // MARK: Helpers

    /// The corpus file names (`*.json`), sorted.
    static func corpusFileNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: corpusDirectory.path)
            .filter { $0.hasSuffix(".json") }
            .sorted()
    }

    static func corpusText(_ fileName: String) throws -> String {
        try String(contentsOf: corpusDirectory.appendingPathComponent(fileName), encoding: .utf8)
    }

    static func decode(_ text: String) -> Expected {
        do {
            return .batch(try PageEnvelopeDecoder().decode(text))
        } catch {
            return .error(error)
        }
    }

    // MARK: Tests

    func testEveryCorpusFileDecodesAsExpected() throws {
        let files = try Self.corpusFileNames()
        XCTAssertFalse(files.isEmpty, "no corpus files found in \(Self.corpusDirectory.path)")
        for file in files {
            guard let expected = Self.expected[file] else { continue }  // reported by testCorpusAndTableAreInStep
            let actual = Self.decode(try Self.corpusText(file))
            XCTAssertEqual(actual, expected, file)
            // Field by field too, so a failure says which event differs.
            if case .batch(let a) = actual, case .batch(let e) = expected, a != e {
                XCTAssertEqual(a.items.count, e.items.count, "\(file): number of events")
                for (i, (ai, ei)) in zip(a.items, e.items).enumerated() where ai != ei {
                    XCTFail("\(file) event #\(i): got \(ai), expected \(ei)")
                }
            }
        }
    }

    func testCorpusAndTableAreInStep() throws {
        let files = Set(try Self.corpusFileNames())
        let entries = Set(Self.expected.keys)
        for file in files.subtracting(entries).sorted() {
            XCTFail("corpus file \(file) has no expected entry in ConformanceTests.expected")
        }
        for entry in entries.subtracting(files).sorted() {
            XCTFail("expected entry \(entry) has no corpus file in Fixtures/Conformance")
        }
    }

    func testCorpusHasOneFilePerMessageType() throws {
        let files = Set(try Self.corpusFileNames())
        for type in Self.messageTypes {
            let file = "\(type).json"
            guard files.contains(file) else {
                XCTFail("no corpus file for message type \(type)")
                continue
            }
            // The file holds exactly that message type, and it decodes.
            guard case .batch(let batch) = Self.decode(try Self.corpusText(file)) else {
                XCTFail("\(file) does not decode to a batch")
                continue
            }
            XCTAssertEqual(batch.problems, [], file)
            XCTAssertEqual(batch.messages.map(\.eventName), [type], file)
        }
        XCTAssertGreaterThanOrEqual(files.filter { $0.hasPrefix("camelcase-") }.count, 4)
    }

    func testCamelCaseFilesDecodeLikeTheirSnakeCaseSpelling() throws {
        // Each camelCase file decodes to the same message as its text with every key snake_cased.
        for file in try Self.corpusFileNames() where file.hasPrefix("camelcase-") && file != "camelcase-snake-wins.json" {
            let root = try JSONValue(parsing: try Self.corpusText(file))
            let events = try XCTUnwrap(root["payload"]?["events"]?.arrayValue, file)
            let snakeEvents = events.map { event -> String in
                var object: [String: JSONValue] = [:]
                for (key, value) in event.objectValue ?? [:] { object[KeyNormalizer.snakeCase(key)] = value }
                return JSONValue.object(object).jsonText
            }
            let camel = try PageEnvelopeDecoder().decode(try Self.corpusText(file))
            let snake = try PageEnvelopeDecoder().decode(envelope(snakeEvents))
            XCTAssertEqual(camel, snake, file)
            XCTAssertEqual(camel.problems, [], file)
        }
    }
}
