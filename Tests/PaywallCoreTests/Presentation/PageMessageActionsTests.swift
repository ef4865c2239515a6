import Foundation
import XCTest

@testable import PaywallCore

/// Records every `PaywallDelegate` call, and answers callbacks with `callbackResult`.
@MainActor
private final class RecordingDelegate: PaywallDelegate {
    enum Call: Equatable {
        case deepLink(String)
        case custom(String)
        case customPlacement(name: String, params: [String: JSONValue])
        case callback(name: String, variables: [String: JSONValue]?)
        case storeReview(reviewType: String)
    }

    var calls: [Call] = []
    var callbackResult: CallbackResult = .failure

    func handleDeepLink(_ link: String) { calls.append(.deepLink(link)) }
    func handleCustom(_ data: String) { calls.append(.custom(data)) }
    func handleCustomPlacement(name: String, params: [String: JSONValue]) {
        calls.append(.customPlacement(name: name, params: params))
    }
    func handleCallback(name: String, variables: [String: JSONValue]?) async -> CallbackResult {
        calls.append(.callback(name: name, variables: variables))
        return callbackResult
    }
    func handleStoreReviewRequest(reviewType: String) { calls.append(.storeReview(reviewType: reviewType)) }
}

/// What each page message does at the session level: the events reported to the app, the
/// delegate calls, and the answers delivered to the page.
///
/// The test methods are `async` (see `PaywallSessionTests`): synchronous `@MainActor` test
/// methods abort XCTest on Linux.
@MainActor
final class PageMessageActionsTests: XCTestCase {
    typealias Harness = PaywallSessionTests.Harness

    /// A session whose page has loaded (so answers go straight to it), with the load's own
    /// events cleared.
    private func loadedHarness(paywallId: String = "pw-1") -> Harness {
        let h = Harness(paywallId: paywallId)
        h.session.channel.loadFinished(url: "paywall://bundle/index.html")
        h.events.removeAll()
        return h
    }

    private func send(_ h: Harness, _ events: String...) {
        h.session.channel.receive(envelope(events))
    }

    /// Lets tasks the session started (callback answers) run to their end.
    private func settle() async {
        for _ in 0..<10 { await Task.yield() }
    }

    // MARK: PaywallSession.handle

    func testPingReportsItsVersionAndSendsTheProducts() async throws {
        let h = loadedHarness()
        h.session.productSlots = ProductSlots([("primary", "com.lumen.pro.annual"), ("secondary", "com.lumen.pro.monthly")])
        send(h, #"{"event_name": "ping", "version": "2.1.0"}"#)
        XCTAssertEqual(h.names, [.ping, .pageReady])
        XCTAssertEqual(h.events[0].params, ["version": "2.1.0", "paywall_identifier": "pw-1"])
        XCTAssertEqual(h.events[1].params, ["via": "ping", "paywall_identifier": "pw-1"])
        XCTAssertEqual(h.readyCount, 1)
        XCTAssertEqual(
            h.page.deliveredEvents,
            [
                [
                    "event_name": "products",
                    "products": [
                        ["product": "primary", "productId": "com.lumen.pro.annual"],
                        ["product": "secondary", "productId": "com.lumen.pro.monthly"],
                    ],
                ]
            ])
    }

    func testPingWithoutVersionReportsNull() async throws {
        let h = loadedHarness()
        send(h, #"{"event_name": "ping"}"#)
        XCTAssertEqual(h.events.first?.name, .ping)
        XCTAssertEqual(h.events.first?.params, ["version": .null, "paywall_identifier": "pw-1"])
        XCTAssertEqual(h.page.deliveredEvents, [], "no product slots and no template variables: nothing to send")
    }

    func testCloseDeclinesAndDismisses() async throws {
        let h = loadedHarness()
        send(h, #"{"event_name": "close"}"#)
        XCTAssertEqual(h.names, [.paywallDecline, .paywallClose])
        XCTAssertEqual(h.events[0].params, ["source": "page", "paywall_identifier": "pw-1"])
        XCTAssertEqual(h.events[1].params, ["result": "declined", "paywall_identifier": "pw-1"])
        XCTAssertEqual(h.finished, [.declined])
        XCTAssertEqual(h.page.dismissCount, 1)
    }

    func testRestoreWithoutPurchaseControllerIsUnsupported() async throws {
        let h = loadedHarness()
        send(h, #"{"event_name": "restore"}"#)
        XCTAssertEqual(h.names, [.pageMessageUnsupported])
        XCTAssertEqual(
            h.events[0].params,
            [
                "event_name": "restore", "reason": "no purchase controller is configured", "paywall_identifier": "pw-1",
            ])
        XCTAssertEqual(h.finished, [])
        XCTAssertEqual(h.page.progress, [])
    }

    func testPurchaseWithoutPurchaseControllerIsUnsupported() async throws {
        let h = loadedHarness()
        send(h, #"{"event_name": "purchase", "product": "primary", "product_identifier": "com.lumen.pro.annual"}"#)
        XCTAssertEqual(h.names, [.pageMessageUnsupported])
        XCTAssertEqual(
            h.events[0].params,
            [
                "event_name": "purchase", "reason": "no purchase controller is configured", "paywall_identifier": "pw-1",
            ])
        XCTAssertEqual(h.finished, [])
        XCTAssertEqual(h.page.dismissCount, 0)
    }

    func testOpenURLOpensThePaymentSheetInTheInAppBrowser() async throws {
        let h = loadedHarness()
        send(
            h,
            #"{"event_name": "open_url", "url": "https://checkout.stripe.com/c/pay/cs_live_a1", "browser_type": "payment_sheet"}"#
        )
        XCTAssertEqual(h.names, [.urlOpenInApp])
        XCTAssertEqual(
            h.events[0].params,
            [
                "url": "https://checkout.stripe.com/c/pay/cs_live_a1", "paywall_identifier": "pw-1",
            ])
        XCTAssertEqual(h.page.browsed, [URL(string: "https://checkout.stripe.com/c/pay/cs_live_a1")!])
        XCTAssertEqual(h.page.openedExternally, [])
    }

    func testOpenURLExternalHandsMailtoToTheSystem() async throws {
        let h = loadedHarness()
        h.session.channel.userInput()  // right after the user's click (PageActionLimits)
        send(h, #"{"event_name": "open_url_external", "url": "mailto:support@lumen.app"}"#)
        XCTAssertEqual(h.names, [.urlOpenExternal])
        XCTAssertEqual(
            h.events[0].params,
            [
                "url": "mailto:support@lumen.app", "source": "open_url_external", "paywall_identifier": "pw-1",
            ])
        XCTAssertEqual(h.page.openedExternally, [URL(string: "mailto:support@lumen.app")!])
        XCTAssertEqual(h.page.browsed, [])
    }

    // MARK: PageMessageActions

    func testOpenDeepLinkGoesToTheDelegate() async throws {
        let h = loadedHarness()
        let delegate = RecordingDelegate()
        h.session.delegate = delegate
        send(h, #"{"event_name": "open_deep_link", "link": "lumen://settings/subscription?source=paywall"}"#)
        XCTAssertEqual(h.names, [.deepLinkOpen])
        XCTAssertEqual(
            h.events[0].params,
            [
                "link": "lumen://settings/subscription?source=paywall", "paywall_identifier": "pw-1",
            ])
        XCTAssertEqual(delegate.calls, [.deepLink("lumen://settings/subscription?source=paywall")])
        XCTAssertEqual(h.page.openedExternally, [], "the app routes deep links, not the system")
        XCTAssertEqual(h.page.evaluated, [])
    }

    func testOpenDeepLinkWithoutDelegateIsStillReported() async throws {
        let h = loadedHarness()
        send(h, #"{"event_name": "open_deep_link", "link": "lumen://home"}"#)
        XCTAssertEqual(h.names, [.deepLinkOpen])
        XCTAssertEqual(h.finished, [])
    }

    func testCustomGoesToTheDelegate() async throws {
        let h = loadedHarness()
        let delegate = RecordingDelegate()
        h.session.delegate = delegate
        send(h, #"{"event_name": "custom", "data": "show_onboarding_tips"}"#)
        XCTAssertEqual(h.names, [.custom])
        XCTAssertEqual(h.events[0].params, ["data": "show_onboarding_tips", "paywall_identifier": "pw-1"])
        XCTAssertEqual(delegate.calls, [.custom("show_onboarding_tips")])
        XCTAssertEqual(h.page.evaluated, [])
    }

    func testCustomPlacementGoesToTheDelegateWithItsParams() async throws {
        let h = loadedHarness()
        let delegate = RecordingDelegate()
        h.session.delegate = delegate
        send(
            h,
            #"{"event_name": "custom_placement", "name": "upsell_lifetime", "params": {"source": "annual_plan_card", "discount_percent": 40, "nested": {"a": [1, true]}}}"#
        )
        let params: [String: JSONValue] = ["source": "annual_plan_card", "discount_percent": 40, "nested": ["a": [1, true]]]
        XCTAssertEqual(h.names, [.customPlacement])
        XCTAssertEqual(
            h.events[0].params,
            [
                "name": "upsell_lifetime", "params": .object(params), "paywall_identifier": "pw-1",
            ])
        XCTAssertEqual(delegate.calls, [.customPlacement(name: "upsell_lifetime", params: params)])
    }

    func testCustomPlacementWithoutParamsHasEmptyParams() async throws {
        let h = loadedHarness()
        let delegate = RecordingDelegate()
        h.session.delegate = delegate
        send(h, #"{"event_name": "custom_placement", "name": "winback_offer"}"#)
        XCTAssertEqual(h.events.first?.params, ["name": "winback_offer", "params": [:], "paywall_identifier": "pw-1"])
        XCTAssertEqual(delegate.calls, [.customPlacement(name: "winback_offer", params: [:])])
    }

    func testUserAttributeUpdatedPassesADictionaryAndReportsIt() async throws {
        let h = loadedHarness()
        var received: [[String: JSONValue]] = []
        h.session.onUserAttributes = { received.append($0) }
        send(
            h,
            #"""
            {"event_name": "user_attribute_updated", "attributes": [
              {"key": "selected_plan", "value": "annual"}, {"key": "quiz_score", "value": 7},
              {"key": "marketing_opt_in", "value": false}, {"key": "goals", "value": ["focus", "sleep"]},
              {"key": "referrer", "value": null}, {"key": "no_value"}
            ]}
            """#)
        let attributes: [String: JSONValue] = [
            "selected_plan": "annual", "quiz_score": 7, "marketing_opt_in": false, "goals": ["focus", "sleep"],
            "referrer": .null, "no_value": .null,
        ]
        XCTAssertEqual(received, [attributes])
        XCTAssertEqual(h.names, [.userAttributes])
        XCTAssertEqual(h.events[0].params, ["attributes": .object(attributes), "paywall_identifier": "pw-1"])
        XCTAssertEqual(h.page.evaluated, [])
    }

    func testUserAttributeUpdatedKeepsTheLastValueOfARepeatedKey() async throws {
        let h = loadedHarness()
        var received: [[String: JSONValue]] = []
        h.session.onUserAttributes = { received.append($0) }
        send(
            h,
            #"{"event_name": "user_attribute_updated", "attributes": [{"key": "plan", "value": "monthly"}, {"key": "plan", "value": "annual"}]}"#
        )
        XCTAssertEqual(received, [["plan": "annual"]])
        XCTAssertEqual(h.events.first?.params["attributes"], ["plan": "annual"])
    }

    func testUserAttributeUpdatedWithoutObserverIsStillReported() async throws {
        let h = loadedHarness()
        send(h, #"{"event_name": "user_attribute_updated", "attributes": []}"#)
        XCTAssertEqual(h.names, [.userAttributes])
        XCTAssertEqual(h.events[0].params, ["attributes": [:], "paywall_identifier": "pw-1"])
    }

    func testRequestStoreReviewGoesToTheDelegate() async throws {
        let h = loadedHarness()
        let delegate = RecordingDelegate()
        h.session.delegate = delegate
        send(
            h, #"{"event_name": "request_store_review", "review_type": "in-app"}"#,
            #"{"event_name": "request_store_review", "review_type": "external"}"#)
        XCTAssertEqual(h.names, [.storeReviewRequest, .storeReviewRequest])
        XCTAssertEqual(h.events[0].params, ["review_type": "in-app", "paywall_identifier": "pw-1"])
        XCTAssertEqual(h.events[1].params, ["review_type": "external", "paywall_identifier": "pw-1"])
        XCTAssertEqual(delegate.calls, [.storeReview(reviewType: "in-app"), .storeReview(reviewType: "external")])
    }

    func testScheduleNotificationIsShownAfterTheDelayInSeconds() async throws {
        let h = loadedHarness()
        send(
            h,
            #"{"event_name": "schedule_notification", "type": "TRIAL_STARTED", "title": "Your free trial ends tomorrow", "subtitle": "Lumen Pro", "body": "Cancel anytime before Friday.", "delay": 518400000}"#
        )
        XCTAssertEqual(h.page.notifications.count, 1)
        let shown = try XCTUnwrap(h.page.notifications.first)
        XCTAssertEqual(shown.title, "Your free trial ends tomorrow")
        XCTAssertEqual(shown.body, "Cancel anytime before Friday.")
        XCTAssertEqual(shown.delay, 518_400, "the page's milliseconds become seconds")
        XCTAssertEqual(h.names, [.notificationScheduled])
        XCTAssertEqual(
            h.events[0].params,
            [
                "type": "TRIAL_STARTED", "title": "Your free trial ends tomorrow", "delay_ms": 518_400_000,
                "paywall_identifier": "pw-1",
            ])
    }

    func testScheduleNotificationKeepsFractionsOfASecondAndClampsNegativeDelays() async throws {
        let h = loadedHarness()
        send(
            h, #"{"event_name": "schedule_notification", "type": "TRIAL_STARTED", "title": "Soon", "body": "b", "delay": 1500}"#,
            #"{"event_name": "schedule_notification", "type": "TRIAL_STARTED", "title": "Now", "body": "b", "delay": -2000}"#)
        XCTAssertEqual(h.page.notifications.map(\.delay), [1.5, 0])
        XCTAssertEqual(h.page.notifications.map(\.title), ["Soon", "Now"])
        XCTAssertEqual(h.names, [.notificationScheduled, .notificationScheduled])
        XCTAssertEqual(h.events[1].params["delay_ms"], .number(-2000), "the event reports what the page sent")
    }

    func testScheduleNotificationWithoutNotificationServiceIsReportedUnavailable() async throws {
        let h = loadedHarness()
        h.page.canNotify = false
        send(
            h,
            #"{"event_name": "schedule_notification", "type": "TRIAL_STARTED", "title": "Trial reminder", "body": "Ends in 2 days.", "delay": 172800000}"#
        )
        XCTAssertEqual(h.page.notifications.count, 0)
        XCTAssertEqual(h.names, [.notificationUnavailable])
        XCTAssertEqual(
            h.events[0].params,
            [
                "type": "TRIAL_STARTED", "title": "Trial reminder", "delay_ms": 172_800_000, "paywall_identifier": "pw-1",
            ])
    }

    func testScheduleNotificationWithoutPageIsReportedUnavailable() async throws {
        let h = loadedHarness()
        h.session.page = nil
        send(h, #"{"event_name": "schedule_notification", "type": "TRIAL_STARTED", "title": "t", "body": "b", "delay": 0}"#)
        XCTAssertEqual(h.names, [.notificationUnavailable])
    }

    func testRequestPermissionForNotificationsIsGrantedWhenAvailable() async throws {
        let h = loadedHarness()
        h.session.notificationsAvailable = true
        send(h, #"{"event_name": "request_permission", "permission_type": "notification", "request_id": "perm_8f3a1c2e"}"#)
        XCTAssertEqual(h.names, [.permissionRequest])
        XCTAssertEqual(
            h.events[0].params,
            [
                "permission_type": "notification", "status": "granted", "paywall_identifier": "pw-1",
            ])
        XCTAssertEqual(
            h.page.deliveredEvents,
            [
                [
                    "event_name": "permission_result", "permission_type": "notification", "request_id": "perm_8f3a1c2e",
                    "status": "granted",
                ]
            ])
    }

    func testRequestPermissionForNotificationsIsDeniedWhenUnavailable() async throws {
        let h = loadedHarness()
        h.session.notificationsAvailable = false
        send(h, #"{"event_name": "request_permission", "permission_type": "notification", "request_id": "perm_1"}"#)
        XCTAssertEqual(h.events.first?.params["status"], "denied")
        XCTAssertEqual(
            h.page.deliveredEvents,
            [
                [
                    "event_name": "permission_result", "permission_type": "notification", "request_id": "perm_1",
                    "status": "denied",
                ]
            ])
    }

    func testRequestPermissionPluralNotificationsIsTheSamePermission() async throws {
        let h = loadedHarness()
        h.session.notificationsAvailable = true
        send(h, #"{"event_name": "request_permission", "permission_type": "notifications", "request_id": "perm_2"}"#)
        XCTAssertEqual(h.page.deliveredEvents.first?["status"], "granted")
        XCTAssertEqual(h.page.deliveredEvents.first?["permission_type"], "notifications")
    }

    func testRequestPermissionForCameraAndLocationIsUnsupported() async throws {
        let h = loadedHarness()
        h.session.notificationsAvailable = true
        send(
            h, #"{"event_name": "request_permission", "permission_type": "camera", "request_id": "perm_cam"}"#,
            #"{"event_name": "request_permission", "permission_type": "location", "request_id": "perm_loc"}"#)
        XCTAssertEqual(h.names, [.permissionRequest, .permissionRequest])
        XCTAssertEqual(h.events[0].params, ["permission_type": "camera", "status": "unsupported", "paywall_identifier": "pw-1"])
        XCTAssertEqual(
            h.events[1].params, ["permission_type": "location", "status": "unsupported", "paywall_identifier": "pw-1"])
        XCTAssertEqual(
            h.page.deliveredEvents,
            [
                [
                    "event_name": "permission_result", "permission_type": "camera", "request_id": "perm_cam",
                    "status": "unsupported",
                ],
                [
                    "event_name": "permission_result", "permission_type": "location", "request_id": "perm_loc",
                    "status": "unsupported",
                ],
            ])
    }

    func testPermissionAnswerToAPageStillLoadingWaitsUntilItIsReady() async throws {
        let h = Harness()
        h.session.notificationsAvailable = true
        h.session.channel.loadStarted(url: "paywall://bundle/index.html")
        send(h, #"{"event_name": "request_permission", "permission_type": "notification", "request_id": "perm_early"}"#)
        XCTAssertEqual(h.page.evaluated, [], "a page still loading has no receiver yet")
        h.session.channel.loadFinished(url: "paywall://bundle/index.html")
        h.session.channel.pingGraceElapsed()
        XCTAssertEqual(
            h.page.deliveredEvents,
            [
                [
                    "event_name": "permission_result", "permission_type": "notification", "request_id": "perm_early",
                    "status": "granted",
                ]
            ])
    }

    func testRequestCallbackAnswersSuccessWithTheDelegatesData() async throws {
        let h = loadedHarness()
        let delegate = RecordingDelegate()
        delegate.callbackResult = .success(["valid": true, "discount_percent": 40, "code": "SPRING40"])
        h.session.delegate = delegate
        send(
            h,
            #"{"event_name": "request_callback", "request_id": "cb_2d9e7b41", "name": "validate_promo_code", "behavior": "blocking", "variables": {"code": "SPRING40"}}"#
        )
        XCTAssertEqual(h.names, [.callbackRequest])
        XCTAssertEqual(
            h.events[0].params,
            [
                "name": "validate_promo_code", "behavior": "blocking", "paywall_identifier": "pw-1",
            ])
        await settle()
        XCTAssertEqual(delegate.calls, [.callback(name: "validate_promo_code", variables: ["code": "SPRING40"])])
        XCTAssertEqual(
            h.page.deliveredEvents,
            [
                [
                    "event_name": "callback_result", "request_id": "cb_2d9e7b41", "name": "validate_promo_code",
                    "status": "success", "data": ["valid": true, "discount_percent": 40, "code": "SPRING40"],
                ]
            ])
        XCTAssertEqual(h.names, [.callbackRequest], "the answer goes to the page, not to the app's events")
    }

    func testRequestCallbackAnswersFailureWithoutDelegate() async throws {
        let h = loadedHarness()
        send(
            h,
            #"{"event_name": "request_callback", "request_id": "cb_71f0aa", "name": "check_eligibility", "behavior": "non-blocking"}"#
        )
        XCTAssertEqual(h.names, [.callbackRequest])
        XCTAssertEqual(
            h.events[0].params,
            [
                "name": "check_eligibility", "behavior": "non-blocking", "paywall_identifier": "pw-1",
            ])
        await settle()
        XCTAssertEqual(
            h.page.deliveredEvents,
            [
                [
                    "event_name": "callback_result", "request_id": "cb_71f0aa", "name": "check_eligibility", "status": "failure",
                ]
            ])
    }

    func testRequestCallbackAnswersFailureWhenTheDelegateFails() async throws {
        let h = loadedHarness()
        let delegate = RecordingDelegate()
        delegate.callbackResult = .failure
        h.session.delegate = delegate
        send(h, #"{"event_name": "request_callback", "request_id": "cb_3", "name": "check_eligibility", "behavior": "blocking"}"#)
        await settle()
        XCTAssertEqual(delegate.calls, [.callback(name: "check_eligibility", variables: nil)])
        XCTAssertEqual(
            h.page.deliveredEvents,
            [
                [
                    "event_name": "callback_result", "request_id": "cb_3", "name": "check_eligibility", "status": "failure",
                ]
            ])
    }

    func testRequestCallbackSuccessWithoutDataLeavesDataOut() async throws {
        let h = loadedHarness()
        let delegate = RecordingDelegate()
        delegate.callbackResult = .success(nil)
        h.session.delegate = delegate
        send(h, #"{"event_name": "request_callback", "request_id": "cb_4", "name": "log_step", "behavior": "non-blocking"}"#)
        await settle()
        XCTAssertEqual(
            h.page.deliveredEvents,
            [
                [
                    "event_name": "callback_result", "request_id": "cb_4", "name": "log_step", "status": "success",
                ]
            ])
    }

    func testHapticFeedbackIsOnlyReported() async throws {
        let h = loadedHarness()
        send(h, #"{"event_name": "haptic_feedback", "haptic_type": "medium"}"#)
        XCTAssertEqual(h.names, [.hapticFeedback])
        XCTAssertEqual(h.events[0].params, ["haptic_type": "medium", "paywall_identifier": "pw-1"])
        XCTAssertEqual(h.page.evaluated, [])
        XCTAssertEqual(h.finished, [])
    }

    func testPageViewReportsEveryField() async throws {
        let h = loadedHarness()
        send(
            h,
            #"{"event_name": "page_view", "page_node_id": "node_plans", "flow_position": 2, "page_name": "Choose your plan", "navigation_node_id": "nav_3f1a", "previous_page_node_id": "node_features", "previous_flow_position": 1, "type": "forward", "time_on_previous_page_ms": 5230}"#
        )
        XCTAssertEqual(h.names, [.pageView])
        XCTAssertEqual(
            h.events[0].params,
            [
                "page_node_id": "node_plans", "flow_position": 2, "page_name": "Choose your plan",
                "navigation_node_id": "nav_3f1a", "previous_page_node_id": "node_features", "previous_flow_position": 1,
                "type": "forward", "time_on_previous_page_ms": 5230, "paywall_identifier": "pw-1",
            ])
    }

    func testPageViewLeavesOutOptionalFieldsThePageDidNotSend() async throws {
        let h = loadedHarness()
        send(
            h,
            #"{"event_name": "page_view", "page_node_id": "node_welcome", "flow_position": 0, "page_name": "Welcome", "navigation_node_id": "nav_0001", "type": "entry"}"#
        )
        XCTAssertEqual(h.names, [.pageView])
        XCTAssertEqual(
            h.events[0].params,
            [
                "page_node_id": "node_welcome", "flow_position": 0, "page_name": "Welcome",
                "navigation_node_id": "nav_0001", "type": "entry", "paywall_identifier": "pw-1",
            ])
        for key in ["previous_page_node_id", "previous_flow_position", "time_on_previous_page_ms"] {
            XCTAssertNil(h.events[0].params[key], key)
        }
    }

    func testWebCheckoutStepsAreReportedUnderTheirOwnNames() async throws {
        let h = loadedHarness()
        let kinds: [EventName] = [
            .initiateWebCheckout, .stripeCheckoutStart, .stripeCheckoutSubmit, .stripeCheckoutComplete,
            .stripeCheckoutFail, .stripeCheckoutAbandon,
        ]
        for kind in kinds {
            send(
                h,
                #"{"event_name": "\#(kind.rawValue)", "checkout_context_id": "wcc_7Hq2LmN9", "product_identifier": "com.lumen.pro.annual"}"#
            )
        }
        XCTAssertEqual(h.names, kinds)
        for event in h.events {
            XCTAssertEqual(
                event.params,
                [
                    "checkout_context_id": "wcc_7Hq2LmN9", "product_identifier": "com.lumen.pro.annual",
                    "paywall_identifier": "pw-1",
                ], event.name.rawValue)
        }
        XCTAssertEqual(h.page.evaluated, [])
        XCTAssertEqual(h.page.browsed, [])
        XCTAssertEqual(h.finished, [])
    }

    func testWebCheckoutWithoutProductLeavesItOut() async throws {
        let h = loadedHarness()
        send(h, #"{"event_name": "stripe_checkout_submit", "checkout_context_id": "wcc_1"}"#)
        XCTAssertEqual(h.names, [.stripeCheckoutSubmit])
        XCTAssertEqual(
            h.events[0].params,
            [
                "checkout_context_id": "wcc_1", "paywall_identifier": "pw-1",
            ])
    }

    func testCamelCaseWebCheckoutNameIsReportedSnakeCased() async throws {
        let h = loadedHarness()
        send(
            h,
            #"{"eventName": "stripeCheckoutComplete", "checkoutContextId": "wcc_2", "productIdentifier": "com.lumen.pro.monthly"}"#
        )
        XCTAssertEqual(h.names, [.stripeCheckoutComplete])
        XCTAssertEqual(h.events[0].params["checkout_context_id"], "wcc_2")
        XCTAssertEqual(h.events[0].params["product_identifier"], "com.lumen.pro.monthly")
    }

    func testTemplateVariableUnknownIsReported() async throws {
        let h = loadedHarness()
        send(h, #"{"event_name": "template_variable_unknown", "name": "primary.trialPeriodPrices"}"#)
        XCTAssertEqual(h.names, [.templateVariableUnknown])
        XCTAssertEqual(h.events[0].params, ["name": "primary.trialPeriodPrices", "paywall_identifier": "pw-1"])
        XCTAssertEqual(h.page.evaluated, [])
    }

    // MARK: The corpus through a session

    func testEveryCorpusMessageTypeIsActedOnWithoutProblems() async throws {
        for type in ConformanceTests.messageTypes {
            let h = loadedHarness()
            let delegate = RecordingDelegate()
            h.session.delegate = delegate
            h.session.channel.receive(try ConformanceTests.corpusText("\(type).json"))
            await settle()
            XCTAssertFalse(h.events.isEmpty, "\(type) reported nothing")
            XCTAssertFalse(h.names.contains(EventName.pageMessageInvalid), "\(type): \(h.names)")
            // Only purchase and restore lack what they need (a purchase controller).
            XCTAssertEqual(
                h.names.contains(EventName.pageMessageUnsupported), ["purchase", "restore"].contains(type),
                "\(type): \(h.names)")
        }
    }

    func testMixedBatchActsOnTheValidEventsAndReportsTheOthers() async throws {
        let h = loadedHarness()
        let delegate = RecordingDelegate()
        h.session.delegate = delegate
        h.session.channel.receive(try ConformanceTests.corpusText("mixed-batch.json"))
        XCTAssertEqual(
            h.names,
            [
                .ping, .pageReady,
                .pageMessageInvalid, .pageMessageInvalid, .pageMessageInvalid, .pageMessageInvalid,
                .pageMessageInvalid, .pageMessageInvalid,
                .custom, .paywallDecline, .paywallClose,
            ])
        let invalid = h.events.filter { $0.name == EventName.pageMessageInvalid }
        XCTAssertEqual(invalid.map { $0.params["index"] }, [1, 2, 3, 4, 5, 6])
        XCTAssertEqual(
            invalid.map { $0.params["event_name"] },
            [
                "presentSurvey", .none, .none, "purchase", "page_view", "user_attribute_updated",
            ])
        XCTAssertEqual(invalid[1].params["reason"], "event is not an object")
        XCTAssertEqual(delegate.calls, [.custom("after_the_bad_ones")])
        XCTAssertEqual(h.finished, [.declined])
    }
}
