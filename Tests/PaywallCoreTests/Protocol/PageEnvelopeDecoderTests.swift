import XCTest

@testable import PaywallCore

final class PageEnvelopeDecoderTests: XCTestCase {
    typealias EnvelopeError = PageEnvelopeDecoder.EnvelopeError
    typealias Problem = PageEnvelopeDecoder.Problem

    // MARK: Batches

    func testValidBatchDecodesEveryEventInOrder() throws {
        let batch = try PageEnvelopeDecoder().decode(
            envelope([
                #"{"event_name": "ping", "version": "1.2.0"}"#,
                #"{"event_name": "custom", "data": "hello"}"#,
                #"{"event_name": "open_url_external", "url": "https://example.com/terms"}"#,
                #"{"event_name": "close"}"#,
            ]))
        XCTAssertEqual(
            batch.messages,
            [
                .ping(version: "1.2.0"),
                .custom(data: "hello"),
                .openURLExternal(url: "https://example.com/terms"),
                .close,
            ])
        XCTAssertEqual(batch.problems, [])
    }

    /// `JSON.stringify` writes a lone surrogate as `"\ud800"`; refusing it dropped the whole batch.
    func testALoneSurrogateDoesNotDropItsBatch() throws {
        let batch = try PageEnvelopeDecoder().decode(
            envelope([
                #"{"event_name": "custom", "data": "before"}"#,
                #"{"event_name": "custom", "data": "half \ud83d of an emoji"}"#,
                #"{"event_name": "custom_placement", "name": "x", "params": {"k": "\udc00"}}"#,
                #"{"event_name": "close"}"#,
            ]))
        XCTAssertEqual(
            batch.messages,
            [
                .custom(data: "before"), .custom(data: "half \u{FFFD} of an emoji"),
                .customPlacement(name: "x", params: ["k": "\u{FFFD}"]), .close,
            ])
    }

    func testEmptyEventsArrayDecodesToEmptyBatch() throws {
        let batch = try PageEnvelopeDecoder().decode(envelope([]))
        XCTAssertEqual(batch, PageEnvelopeDecoder.Batch(items: []))
    }

    func testUnknownEventInTheMiddleIsAProblemAndTheOthersStillDecode() throws {
        let batch = try PageEnvelopeDecoder().decode(
            envelope([
                #"{"event_name": "custom", "data": "before"}"#,
                #"{"event_name": "teleport", "where": "moon"}"#,
                #"{"event_name": "custom", "data": "after"}"#,
            ]))
        XCTAssertEqual(batch.messages, [.custom(data: "before"), .custom(data: "after")])
        XCTAssertEqual(
            batch.problems,
            [
                Problem(
                    index: 1, eventName: "teleport",
                    reason: #"unknown event_name "teleport"; see PROTOCOL.md for the known events"#)
            ])
    }

    func testDirectionKeyIsAccepted() throws {
        let text = #"{"version": 1, "direction": "from_paywall", "payload": {"events": [{"event_name": "close"}]}}"#
        let batch = try PageEnvelopeDecoder().decode(text)
        XCTAssertEqual(batch.messages, [.close])
        XCTAssertEqual(batch.problems, [])
    }

    // MARK: Every known event

    func testPing() throws {
        XCTAssertEqual(try decodeOne(#"{"event_name": "ping", "version": "3.0.1"}"#), .ping(version: "3.0.1"))
        XCTAssertEqual(try decodeOne(#"{"event_name": "ping"}"#), .ping(version: nil))
    }

    func testCloseAndRestore() throws {
        XCTAssertEqual(try decodeOne(#"{"event_name": "close"}"#), .close)
        XCTAssertEqual(try decodeOne(#"{"event_name": "restore"}"#), .restore)
    }

    func testPurchaseShouldDismissDefaultsToTrue() throws {
        XCTAssertEqual(
            try decodeOne(#"{"event_name": "purchase", "product_identifier": "com.app.annual"}"#),
            .purchase(productId: "com.app.annual", shouldDismiss: true, slot: nil))
    }

    func testPurchaseWithExplicitFalseAndProductSlot() throws {
        XCTAssertEqual(
            try decodeOne(
                #"{"event_name": "purchase", "product_identifier": "com.app.weekly", "should_dismiss": false, "product": "secondary"}"#
            ),
            .purchase(productId: "com.app.weekly", shouldDismiss: false, slot: "secondary"))
    }

    func testOpenURLWithBrowserType() throws {
        XCTAssertEqual(
            try decodeOne(#"{"event_name": "open_url", "url": "https://pay.example.com", "browser_type": "payment_sheet"}"#),
            .openURL(url: "https://pay.example.com", browserType: "payment_sheet"))
        XCTAssertEqual(
            try decodeOne(#"{"event_name": "open_url", "url": "https://example.com"}"#),
            .openURL(url: "https://example.com", browserType: nil))
    }

    func testOpenURLExternal() throws {
        XCTAssertEqual(
            try decodeOne(#"{"event_name": "open_url_external", "url": "https://example.com/privacy"}"#),
            .openURLExternal(url: "https://example.com/privacy"))
    }

    func testOpenDeepLink() throws {
        XCTAssertEqual(
            try decodeOne(#"{"event_name": "open_deep_link", "link": "myapp://settings"}"#),
            .openDeepLink(link: "myapp://settings"))
    }

    func testCustom() throws {
        XCTAssertEqual(try decodeOne(#"{"event_name": "custom", "data": "show_survey"}"#), .custom(data: "show_survey"))
    }

    func testCustomPlacementWithParams() throws {
        XCTAssertEqual(
            try decodeOne(
                #"{"event_name": "custom_placement", "name": "upsell", "params": {"tier": "gold", "count": 3, "nested": {"ok": true}}}"#
            ),
            .customPlacement(
                name: "upsell",
                params: [
                    "tier": "gold", "count": 3, "nested": ["ok": true],
                ]))
    }

    func testCustomPlacementWithoutParamsHasEmptyParams() throws {
        XCTAssertEqual(
            try decodeOne(#"{"event_name": "custom_placement", "name": "upsell"}"#),
            .customPlacement(name: "upsell", params: [:]))
    }

    func testUserAttributeUpdatedKeepsOrder() throws {
        XCTAssertEqual(
            try decodeOne(
                #"{"event_name": "user_attribute_updated", "attributes": [{"key": "name", "value": "Ada"}, {"key": "age", "value": 36}, {"key": "pro", "value": true}, {"key": "gone"}]}"#
            ),
            .userAttributesUpdated([
                .init(key: "name", value: "Ada"),
                .init(key: "age", value: 36),
                .init(key: "pro", value: true),
                .init(key: "gone", value: .null),
            ]))
    }

    func testRequestStoreReview() throws {
        XCTAssertEqual(
            try decodeOne(#"{"event_name": "request_store_review", "review_type": "in-app"}"#),
            .requestStoreReview(reviewType: "in-app"))
        XCTAssertEqual(
            try decodeOne(#"{"event_name": "request_store_review", "review_type": "external"}"#),
            .requestStoreReview(reviewType: "external"))
    }

    func testScheduleNotification() throws {
        XCTAssertEqual(
            try decodeOne(
                #"{"event_name": "schedule_notification", "type": "trial_started", "title": "Trial", "subtitle": "Day 1", "body": "Welcome", "delay": 86400000}"#
            ),
            .scheduleNotification(
                .init(
                    type: "trial_started", title: "Trial", subtitle: "Day 1", body: "Welcome", delay: 86_400_000)))
        XCTAssertEqual(
            try decodeOne(
                #"{"event_name": "schedule_notification", "type": "t", "title": "T", "body": "B", "delay": 1.5}"#),
            .scheduleNotification(.init(type: "t", title: "T", subtitle: nil, body: "B", delay: 1.5)))
    }

    func testRequestPermission() throws {
        XCTAssertEqual(
            try decodeOne(#"{"event_name": "request_permission", "permission_type": "notification", "request_id": "r-1"}"#),
            .requestPermission(permissionType: "notification", requestId: "r-1"))
    }

    func testRequestCallbackWithAndWithoutVariables() throws {
        XCTAssertEqual(
            try decodeOne(
                #"{"event_name": "request_callback", "request_id": "r-2", "name": "validate", "behavior": "blocking", "variables": {"email": "a@b.c", "n": 2}}"#
            ),
            .requestCallback(requestId: "r-2", name: "validate", behavior: "blocking", variables: ["email": "a@b.c", "n": 2]))
        XCTAssertEqual(
            try decodeOne(#"{"event_name": "request_callback", "request_id": "r-3", "name": "log", "behavior": "non-blocking"}"#),
            .requestCallback(requestId: "r-3", name: "log", behavior: "non-blocking", variables: nil))
    }

    func testHapticFeedback() throws {
        XCTAssertEqual(
            try decodeOne(#"{"event_name": "haptic_feedback", "haptic_type": "light"}"#),
            .hapticFeedback(hapticType: "light"))
    }

    func testPageViewWithAllFields() throws {
        XCTAssertEqual(
            try decodeOne(
                #"{"event_name": "page_view", "page_node_id": "p2", "flow_position": 2, "page_name": "Plans", "navigation_node_id": "n1", "previous_page_node_id": "p1", "previous_flow_position": 1, "type": "forward", "time_on_previous_page_ms": 1250}"#
            ),
            .pageView(
                .init(
                    pageNodeId: "p2", flowPosition: 2, pageName: "Plans", navigationNodeId: "n1",
                    previousPageNodeId: "p1", previousFlowPosition: 1, type: "forward", timeOnPreviousPageMs: 1250)))
    }

    func testPageViewWithoutOptionalFields() throws {
        XCTAssertEqual(
            try decodeOne(
                #"{"event_name": "page_view", "page_node_id": "p1", "flow_position": 0, "page_name": "Intro", "navigation_node_id": "n0", "type": "entry"}"#
            ),
            .pageView(
                .init(
                    pageNodeId: "p1", flowPosition: 0, pageName: "Intro", navigationNodeId: "n0",
                    previousPageNodeId: nil, previousFlowPosition: nil, type: "entry", timeOnPreviousPageMs: nil)))
    }

    func testWebCheckoutFamily() throws {
        let kinds: [EventName] = [
            .initiateWebCheckout, .stripeCheckoutStart, .stripeCheckoutComplete,
            .stripeCheckoutSubmit, .stripeCheckoutFail, .stripeCheckoutAbandon,
        ]
        for kind in kinds {
            let name = kind.rawValue
            XCTAssertEqual(
                try decodeOne(#"{"event_name": "\#(name)", "checkout_context_id": "ctx-\#(name)", "product_identifier": "pro"}"#),
                .webCheckout(kind: kind, checkoutContextId: "ctx-\(name)", productId: "pro"), name)
            XCTAssertEqual(
                try decodeOne(#"{"event_name": "\#(name)", "checkout_context_id": "c"}"#),
                .webCheckout(kind: kind, checkoutContextId: "c", productId: nil), name)
        }
    }

    func testEventNameOfEachMessageIsTheWireName() throws {
        let names = [
            "ping", "close", "restore", "custom", "open_url_external", "stripe_checkout_fail",
        ]
        let batch = try PageEnvelopeDecoder().decode(
            envelope([
                #"{"event_name": "ping"}"#, #"{"event_name": "close"}"#, #"{"event_name": "restore"}"#,
                #"{"event_name": "custom", "data": ""}"#, #"{"event_name": "openUrlExternal", "url": "u"}"#,
                #"{"event_name": "stripe_checkout_fail", "checkout_context_id": "c"}"#,
            ]))
        XCTAssertEqual(batch.messages.map(\.eventName), names)
    }

    // MARK: Malformed events

    func testEventThatIsNotAnObject() throws {
        let batch = try PageEnvelopeDecoder().decode(envelope([#"{"event_name": "close"}"#, #""close""#, "42"]))
        XCTAssertEqual(batch.messages, [.close])
        XCTAssertEqual(
            batch.problems,
            [
                Problem(index: 1, eventName: nil, reason: "event is not an object"),
                Problem(index: 2, eventName: nil, reason: "event is not an object"),
            ])
    }

    func testEventWithoutEventName() throws {
        let problem = try decodeProblem(#"{"data": "x"}"#)
        XCTAssertEqual(problem, Problem(index: 0, eventName: nil, reason: #"missing "event_name""#))
    }

    func testEventNameThatIsNotAString() throws {
        let problem = try decodeProblem(#"{"event_name": 7}"#)
        XCTAssertEqual(problem?.eventName, nil)
        XCTAssertEqual(problem?.reason, #""event_name" must be a string"#)
    }

    func testMissingRequiredFieldIsNamed() throws {
        let problem = try decodeProblem(#"{"event_name": "purchase"}"#)
        XCTAssertEqual(
            problem,
            Problem(
                index: 0, eventName: "purchase", reason: #"missing string field "product_identifier""#))
    }

    func testWrongFieldTypeIsNamed() throws {
        XCTAssertEqual(
            try decodeProblem(#"{"event_name": "purchase", "product_identifier": 12}"#),
            Problem(index: 0, eventName: "purchase", reason: #"field "product_identifier" must be a string"#))
        XCTAssertEqual(
            try decodeProblem(#"{"event_name": "purchase", "product_identifier": "p", "should_dismiss": "no"}"#),
            Problem(index: 0, eventName: "purchase", reason: #"field "should_dismiss" must be a boolean"#))
        XCTAssertEqual(
            try decodeProblem(#"{"event_name": "custom_placement", "name": "n", "params": [1]}"#),
            Problem(index: 0, eventName: "custom_placement", reason: #"field "params" must be an object"#))
        XCTAssertEqual(
            try decodeProblem(
                #"{"event_name": "schedule_notification", "type": "t", "title": "T", "body": "B", "delay": "soon"}"#),
            Problem(index: 0, eventName: "schedule_notification", reason: #"field "delay" must be a number"#))
    }

    func testMalformedUserAttributesAreNamed() throws {
        XCTAssertEqual(
            try decodeProblem(#"{"event_name": "user_attribute_updated"}"#),
            Problem(index: 0, eventName: "user_attribute_updated", reason: #"missing array field "attributes""#))
        XCTAssertEqual(
            try decodeProblem(#"{"event_name": "user_attribute_updated", "attributes": [{"value": 1}]}"#),
            Problem(
                index: 0, eventName: "user_attribute_updated",
                reason: #"field "attributes" must be a list of {key, value} objects"#))
    }

    func testProblemDescriptionNamesIndexAndEvent() {
        XCTAssertEqual(
            Problem(index: 3, eventName: "purchase", reason: "boom").description, "event #3 (purchase): boom")
        XCTAssertEqual(Problem(index: 0, eventName: nil, reason: "boom").description, "event #0: boom")
    }

    // MARK: Rejected envelopes

    func testTextThatIsNotJSON() {
        XCTAssertEqual(envelopeError("hello {"), .notJSON)
        XCTAssertEqual(envelopeError(""), .notJSON)
    }

    func testTopLevelArrayIsNotAnEnvelope() {
        XCTAssertEqual(
            envelopeError(#"[{"event_name": "close"}]"#),
            .notAnEnvelope("top level is not an object"))
    }

    func testMissingPayloadIsNotAnEnvelope() {
        XCTAssertEqual(
            envelopeError(#"{"version": 1, "events": []}"#),
            .notAnEnvelope(#"no "payload" object"#))
    }

    func testMissingEventsIsNotAnEnvelope() {
        XCTAssertEqual(
            envelopeError(#"{"version": 1, "payload": {}}"#),
            .notAnEnvelope(#"no "payload.events" array"#))
        XCTAssertEqual(
            envelopeError(#"{"version": 1, "payload": {"events": {}}}"#),
            .notAnEnvelope(#"no "payload.events" array"#))
    }

    func testMessageOverASmallLimitIsTooLarge() throws {
        let text = envelope([#"{"event_name": "close"}"#])
        let size = text.utf8.count
        XCTAssertEqual(
            envelopeError(text, maximumBytes: size - 1),
            .tooLarge(bytes: size, limit: size - 1))
        // Exactly at the limit is still accepted.
        XCTAssertEqual(try PageEnvelopeDecoder(maximumBytes: size).decode(text).messages, [.close])
    }

    func testTooLargeCountsUTF8Bytes() {
        // "é" is two bytes in UTF-8: 5 characters, 10 bytes.
        XCTAssertEqual(
            envelopeError("ééééé", maximumBytes: 9),
            .tooLarge(bytes: 10, limit: 9))
    }

    func testDefaultLimitIsOneMebibyte() {
        XCTAssertEqual(PageEnvelopeDecoder.defaultMaximumBytes, 1_048_576)
        let text = String(repeating: "a", count: 1_048_577)
        XCTAssertEqual(
            envelopeError(text),
            .tooLarge(bytes: 1_048_577, limit: 1_048_576))
    }

    func testDefaultLimitAcceptsAMessageOfExactlyOneMebibyte() throws {
        // A valid envelope padded with whitespace up to exactly 1 MiB is parsed, not rejected.
        let core = envelope([#"{"event_name": "close"}"#])
        let text = core + String(repeating: " ", count: 1_048_576 - core.utf8.count)
        XCTAssertEqual(text.utf8.count, 1_048_576)
        XCTAssertEqual(try PageEnvelopeDecoder().decode(text).messages, [.close])
    }

    func testEnvelopeErrorDescriptions() {
        XCTAssertEqual(
            EnvelopeError.tooLarge(bytes: 10, limit: 5).description,
            "page message of 10 bytes is over the 5-byte limit; send smaller batches")
        XCTAssertTrue(EnvelopeError.notJSON.description.contains("not JSON"))
        XCTAssertTrue(EnvelopeError.notAnEnvelope("why").description.contains("(why)"))
    }

    // MARK: camelCase

    func testCamelCaseKeysDecodeTheSameAsSnakeCase() throws {
        let pairs: [(camel: String, snake: String)] = [
            (
                #"{"eventName": "purchase", "productIdentifier": "p", "shouldDismiss": false, "product": "primary"}"#,
                #"{"event_name": "purchase", "product_identifier": "p", "should_dismiss": false, "product": "primary"}"#
            ),
            (
                #"{"eventName": "request_permission", "permissionType": "camera", "requestId": "r"}"#,
                #"{"event_name": "request_permission", "permission_type": "camera", "request_id": "r"}"#
            ),
            (
                #"{"eventName": "open_url", "url": "https://x.y", "browserType": "payment_sheet"}"#,
                #"{"event_name": "open_url", "url": "https://x.y", "browser_type": "payment_sheet"}"#
            ),
            (
                #"{"eventName": "page_view", "pageNodeId": "a", "flowPosition": 1, "pageName": "P", "navigationNodeId": "n", "previousPageNodeId": "z", "previousFlowPosition": 0, "type": "t", "timeOnPreviousPageMs": 9}"#,
                #"{"event_name": "page_view", "page_node_id": "a", "flow_position": 1, "page_name": "P", "navigation_node_id": "n", "previous_page_node_id": "z", "previous_flow_position": 0, "type": "t", "time_on_previous_page_ms": 9}"#
            ),
            (
                #"{"eventName": "stripe_checkout_start", "checkoutContextId": "c", "productIdentifier": "p"}"#,
                #"{"event_name": "stripe_checkout_start", "checkout_context_id": "c", "product_identifier": "p"}"#
            ),
            (
                #"{"eventName": "haptic_feedback", "hapticType": "heavy"}"#,
                #"{"event_name": "haptic_feedback", "haptic_type": "heavy"}"#
            ),
            (
                #"{"eventName": "request_store_review", "reviewType": "in-app"}"#,
                #"{"event_name": "request_store_review", "review_type": "in-app"}"#
            ),
        ]
        for (camel, snake) in pairs {
            let fromCamel = try decodeOne(camel)
            XCTAssertNotNil(fromCamel, camel)
            XCTAssertEqual(fromCamel, try decodeOne(snake), camel)
        }
        XCTAssertEqual(
            try decodeOne(#"{"eventName": "purchase", "productIdentifier": "p", "shouldDismiss": false}"#),
            .purchase(productId: "p", shouldDismiss: false, slot: nil))
    }

    func testCamelCaseEnvelopeKeys() throws {
        // The envelope's own keys are normalized too (here they are already lowercase words).
        let batch = try PageEnvelopeDecoder().decode(#"{"Version": 1, "Payload": {"Events": [{"eventName": "close"}]}}"#)
        XCTAssertEqual(batch.messages, [.close])
    }

    func testCamelCaseEventNameValuesDecode() throws {
        XCTAssertEqual(
            try decodeOne(#"{"eventName": "openUrlExternal", "url": "https://e.x"}"#),
            .openURLExternal(url: "https://e.x"))
        XCTAssertEqual(
            try decodeOne(#"{"eventName": "openURL", "url": "https://e.x"}"#),
            .openURL(url: "https://e.x", browserType: nil))
        XCTAssertEqual(
            try decodeOne(#"{"eventName": "customPlacement", "name": "n"}"#),
            .customPlacement(name: "n", params: [:]))
        XCTAssertEqual(
            try decodeOne(#"{"eventName": "userAttributeUpdated", "attributes": []}"#),
            .userAttributesUpdated([]))
        XCTAssertEqual(
            try decodeOne(#"{"eventName": "stripeCheckoutAbandon", "checkoutContextId": "c"}"#),
            .webCheckout(kind: .stripeCheckoutAbandon, checkoutContextId: "c", productId: nil))
    }

    func testSnakeCaseKeyWinsOverItsCamelCaseTwin() throws {
        // Both spellings present: the documented snake_case key is used, whatever the dictionary order.
        for _ in 0..<20 {
            XCTAssertEqual(
                try decodeOne(#"{"event_name": "custom", "data": "snake", "Data": "camel"}"#),
                .custom(data: "snake"))
            XCTAssertEqual(
                try decodeOne(
                    #"{"event_name": "purchase", "productIdentifier": "camel", "product_identifier": "snake"}"#),
                .purchase(productId: "snake", shouldDismiss: true, slot: nil))
        }
    }

    func testUserDataKeysInsideParamsAreNotRewritten() throws {
        XCTAssertEqual(
            try decodeOne(
                #"{"eventName": "customPlacement", "name": "n", "params": {"userTier": "gold", "nestedObj": {"innerKey": 1}}}"#
            ),
            .customPlacement(name: "n", params: ["userTier": "gold", "nestedObj": ["innerKey": 1]]))
    }

    func testUserDataKeysInsideVariablesAreNotRewritten() throws {
        XCTAssertEqual(
            try decodeOne(
                #"{"eventName": "requestCallback", "requestId": "r", "name": "n", "behavior": "blocking", "variables": {"firstName": "Ada"}}"#
            ),
            .requestCallback(requestId: "r", name: "n", behavior: "blocking", variables: ["firstName": "Ada"]))
    }

    func testUserAttributeKeysAreNotRewritten() throws {
        XCTAssertEqual(
            try decodeOne(#"{"eventName": "userAttributeUpdated", "attributes": [{"key": "favoriteColor", "value": "blue"}]}"#),
            .userAttributesUpdated([.init(key: "favoriteColor", value: "blue")]))
    }
}
