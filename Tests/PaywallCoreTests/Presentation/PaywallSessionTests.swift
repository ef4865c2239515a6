import Foundation
import XCTest

@testable import PaywallCore

/// The test methods are `async`: on Linux, XCTest's discovery casts each synchronous test method
/// to a nonisolated function type, which aborts the whole test process for `@MainActor` classes.
@MainActor
final class PaywallSessionTests: XCTestCase {
    /// One session wired to a fake page, an event recorder and finish/ready counters.
    @MainActor
    final class Harness {
        let session: PaywallSession
        let page = RecordingPageSurface()
        var events: [PaywallEvent] = []
        var finished: [PresentationResult] = []
        var readyCount = 0

        init(paywallId: String = "pw-1") {
            let dispatcher = EventDispatcher()
            session = PaywallSession(paywallId: paywallId, events: dispatcher)
            session.page = page
            dispatcher.observe { [unowned self] event in self.events.append(event) }
            session.onFinish = { [unowned self] result in self.finished.append(result) }
            session.onReady = { [unowned self] in self.readyCount += 1 }
        }

        var names: [EventName] { events.map(\.name) }
    }

    // MARK: Products

    /// Each slot whose product the catalog lacks is one `paywallProductsLoad_fail`, tagged with the paywall.
    func testMissingProductsAreReportedOneEventASlot() async throws {
        let h = Harness(paywallId: "upsell")
        h.session.productSlots = try ProductSlots(parsing: "primary=pro.yearly,secondary=pro.gone,badge=pro.nope")
        let catalog = Catalog(products: [
            Product(id: "pro.yearly", displayName: "Pro", price: 1, currencyCode: "USD", kind: .nonConsumable)
        ])
        let missing = h.session.reportMissingProducts(in: catalog)
        XCTAssertEqual(missing.map(\.slot), ["secondary", "badge"])
        XCTAssertEqual(h.names, [.paywallProductsLoadFail, .paywallProductsLoadFail])
        XCTAssertEqual(
            h.events[0].params,
            [
                "slot": "secondary", "product_id": "pro.gone", "reason": "not_in_catalog",
                "paywall_identifier": "upsell",
            ])
        XCTAssertEqual(h.events[1].params["product_id"], "pro.nope")
        // No catalog: nothing is checked, nothing reported.
        XCTAssertEqual(h.session.reportMissingProducts(in: nil), [])
        XCTAssertEqual(h.events.count, 2)
    }

    // MARK: Page messages

    func testBatchWithUnknownEventAndClose() async throws {
        let h = Harness()
        h.session.channel.receive(
            envelope([
                #"{"event_name": "custom", "data": "hello"}"#,
                #"{"event_name": "teleport"}"#,
                #"{"event_name": "close"}"#,
            ]))
        // Events are reported in batch order, problems included.
        XCTAssertEqual(h.names, [.custom, .pageMessageInvalid, .paywallDecline, .paywallClose])

        let custom = try XCTUnwrap(h.events.first { $0.name == .custom })
        XCTAssertEqual(custom.params["data"], "hello")
        let invalid = try XCTUnwrap(h.events.first { $0.name == .pageMessageInvalid })
        XCTAssertEqual(invalid.params["index"], 1)
        XCTAssertEqual(invalid.params["event_name"], "teleport")
        XCTAssertEqual(invalid.params["reason"], #"unknown event_name "teleport"; see PROTOCOL.md for the known events"#)
        let decline = try XCTUnwrap(h.events.first { $0.name == .paywallDecline })
        XCTAssertEqual(decline.params["source"], "page")
        let close = try XCTUnwrap(h.events.first { $0.name == .paywallClose })
        XCTAssertEqual(close.params["result"], "declined")

        XCTAssertEqual(h.finished, [.declined])
        XCTAssertEqual(h.session.result, .declined)
        XCTAssertEqual(h.page.dismissCount, 1)
    }

    func testBatchWithUnknownEventAndCloseHandlesEveryEvent() async throws {
        // The same batch, order aside: each event is reported exactly once.
        let h = Harness()
        h.session.channel.receive(
            envelope([
                #"{"event_name": "custom", "data": "hello"}"#,
                #"{"event_name": "teleport"}"#,
                #"{"event_name": "close"}"#,
            ]))
        XCTAssertEqual(
            h.names.map(\.rawValue).sorted(),
            [EventName.custom, .pageMessageInvalid, .paywallClose, .paywallDecline].map(\.rawValue))
        XCTAssertEqual(
            h.names.filter { $0 != .pageMessageInvalid }, [.custom, .paywallDecline, .paywallClose])
        XCTAssertEqual(h.finished, [.declined])
        XCTAssertEqual(h.page.dismissCount, 1)
    }

    func testSecondCloseDoesNothingMore() async {
        let h = Harness()
        h.session.channel.receive(envelope([#"{"event_name": "close"}"#]))
        let eventCount = h.events.count
        let evaluatedCount = h.page.evaluated.count
        h.session.channel.receive(envelope([#"{"event_name": "close"}"#]))
        h.session.windowClosedByUser()
        XCTAssertEqual(h.events.count, eventCount)
        XCTAssertEqual(h.page.evaluated.count, evaluatedCount)
        XCTAssertEqual(h.finished, [.declined])
        XCTAssertEqual(h.page.dismissCount, 1)
    }

    func testMessagesAfterCloseInTheSameBatchAreNotActedOn() async {
        let h = Harness()
        h.session.channel.receive(
            envelope([
                #"{"event_name": "close"}"#,
                #"{"event_name": "open_url_external", "url": "https://example.com"}"#,
                #"{"event_name": "custom", "data": "late"}"#,
            ]))
        XCTAssertEqual(h.names, [.paywallDecline, .paywallClose])
        XCTAssertEqual(h.page.openedExternally, [])
    }

    func testTextThatIsNotJSONGivesOneInvalidEvent() async {
        let h = Harness()
        h.session.channel.receive("this is not json")
        XCTAssertEqual(h.names, [.pageMessageInvalid])
        XCTAssertEqual(h.events.first?.params["reason"], .string(PageEnvelopeDecoder.EnvelopeError.notJSON.description))
        XCTAssertEqual(h.finished, [])
        XCTAssertEqual(h.page.evaluated, [])
        XCTAssertEqual(h.page.openedExternally, [])
        XCTAssertEqual(h.page.dismissCount, 0)
    }

    func testOpenURLExternalOpensHTTPS() async {
        let h = Harness()
        h.session.channel.userInput()  // right after the user's click (PageActionLimits)
        h.session.channel.receive(envelope([#"{"event_name": "open_url_external", "url": "https://example.com/terms"}"#]))
        XCTAssertEqual(h.page.openedExternally, [URL(string: "https://example.com/terms")!])
        XCTAssertEqual(h.names, [.urlOpenExternal])
        XCTAssertEqual(h.events.first?.params["url"], "https://example.com/terms")
        XCTAssertEqual(h.events.first?.params["source"], "open_url_external")
    }

    func testOpenURLExternalRefusesJavaScript() async {
        let h = Harness()
        h.session.channel.receive(envelope([#"{"event_name": "open_url_external", "url": "javascript:alert(1)"}"#]))
        XCTAssertEqual(h.page.openedExternally, [])
        XCTAssertEqual(h.names, [.navigationBlocked])
        XCTAssertEqual(h.events.first?.params["url"], "javascript:alert(1)")
    }

    func testOpenURLOpensTheInAppBrowser() async {
        let h = Harness()
        h.session.channel.receive(envelope([#"{"event_name": "open_url", "url": "https://pay.example.com"}"#]))
        XCTAssertEqual(h.page.browsed, [URL(string: "https://pay.example.com")!])
        XCTAssertEqual(h.page.openedExternally, [])
        XCTAssertEqual(h.names, [.urlOpenInApp])
        XCTAssertEqual(h.events.first?.params["url"], "https://pay.example.com")
    }

    func testOpenURLRefusesNonWebURLs() async {
        let h = Harness()
        h.session.channel.receive(envelope([#"{"event_name": "open_url", "url": "file:///etc/passwd"}"#]))
        XCTAssertEqual(h.page.browsed, [])
        XCTAssertEqual(h.names, [.navigationBlocked])
    }

    func testPurchaseIsUnsupported() async {
        let h = Harness()
        h.session.channel.receive(envelope([#"{"event_name": "purchase", "product_identifier": "pro"}"#]))
        XCTAssertEqual(h.names, [.pageMessageUnsupported])
        XCTAssertEqual(h.events.first?.params["event_name"], "purchase")
        XCTAssertEqual(h.finished, [])
        XCTAssertEqual(h.page.dismissCount, 0)
    }

    // MARK: Results

    func testFinishTimeoutThenCloseKeepsTimeout() async {
        let h = Harness()
        h.session.finish(.timeout)
        h.session.channel.receive(envelope([#"{"event_name": "close"}"#]))
        h.session.finish(.declined)
        XCTAssertEqual(h.session.result, .timeout)
        XCTAssertEqual(h.finished, [.timeout])
        XCTAssertEqual(h.names, [.paywallClose])
        XCTAssertEqual(h.events.first?.params["result"], "timeout")
        XCTAssertEqual(h.page.dismissCount, 1)
    }

    func testWindowClosedByUserDeclines() async {
        let h = Harness()
        h.session.windowClosedByUser()
        XCTAssertEqual(h.names, [.paywallDecline, .paywallClose])
        XCTAssertEqual(h.events.first?.params["source"], "window")
        XCTAssertEqual(h.finished, [.declined])
    }

    func testEveryEventCarriesThePaywallIdentifier() async {
        let h = Harness(paywallId: "spring-sale")
        h.session.channel.loadStarted(url: "paywall://b/index.html")
        h.session.channel.loadFinished(url: "paywall://b/index.html")
        h.session.presented()
        h.session.channel.receive(
            envelope([
                #"{"event_name": "ping", "version": "1"}"#,
                #"{"event_name": "custom", "data": "d"}"#,
                #"{"event_name": "nope"}"#,
                #"{"event_name": "restore"}"#,
                #"{"event_name": "open_url_external", "url": "https://e.x"}"#,
                #"{"event_name": "open_url_external", "url": "file:///etc/passwd"}"#,
            ]))
        h.session.channel.receive("garbage")
        _ = h.session.channel.shouldAllowNavigation(to: "paywall://other/x", bundleHost: "b", newWindow: false)
        h.session.channel.loadFailed(url: "paywall://b/x", reason: "boom")
        h.session.channel.webProcessTerminated(reason: "crashed")
        h.session.channel.receive(envelope([#"{"event_name": "close"}"#]))
        XCTAssertEqual(h.events.count, 17, "the load failure brings paywall_fallback too")
        for event in h.events {
            XCTAssertEqual(event.params["paywall_identifier"], "spring-sale", event.name.rawValue)
        }
        XCTAssertEqual(h.finished, [.declined])
    }

    // MARK: Delivery to the page

    /// Loads the page and lets it ping, so it can receive events.
    private func makeReady(_ h: Harness) {
        h.session.channel.loadStarted(url: "paywall://b/index.html")
        h.session.channel.loadFinished(url: "paywall://b/index.html")
        h.session.channel.receive(envelope([#"{"event_name": "ping"}"#]))
    }

    func testLifecycleEventsAreDeliveredToThePage() async throws {
        let h = Harness(paywallId: "pw-7")
        makeReady(h)
        XCTAssertEqual(h.page.evaluated, [])
        h.session.presented()
        XCTAssertEqual(h.names.last, .paywallOpen)
        XCTAssertEqual(h.page.evaluated.count, 1)
        let script = try XCTUnwrap(h.page.evaluated.first)
        XCTAssertTrue(script.contains("accept64("), script)
        XCTAssertEqual(
            h.page.deliveredEvents, [["event_name": .string(EventName.paywallOpen.rawValue), "paywall_identifier": "pw-7"]])

        h.session.channel.receive(envelope([#"{"event_name": "close"}"#]))
        XCTAssertEqual(h.page.evaluated.count, 3)
        XCTAssertTrue(h.page.evaluated.allSatisfy { $0.contains("accept64(") })
        XCTAssertEqual(
            h.page.deliveredEvents,
            [
                ["event_name": .string(EventName.paywallOpen.rawValue), "paywall_identifier": "pw-7"],
                ["event_name": .string(EventName.paywallDecline.rawValue), "paywall_identifier": "pw-7", "source": "page"],
                ["event_name": .string(EventName.paywallClose.rawValue), "paywall_identifier": "pw-7", "result": "declined"],
            ])
    }

    func testTemplateVariablesAreSentAgainOnlyWhenTheyChanged() async throws {
        let h = Harness()
        h.session.productSlots = ProductSlots([(slot: "primary", productId: "pro.monthly")])
        makeReady(h)
        XCTAssertEqual(h.page.evaluated.count, 1, "sent after the ping")
        h.session.refreshTemplateVariables()
        XCTAssertEqual(h.page.evaluated.count, 1, "unchanged: the page is left alone")
        h.session.productSlots = ProductSlots([(slot: "primary", productId: "pro.yearly")])
        h.session.refreshTemplateVariables()
        XCTAssertEqual(h.page.evaluated.count, 2, "changed: sent again")
        XCTAssertTrue(h.page.evaluated.last?.contains("accept64(") == true)
    }

    func testLifecycleEventsWaitUntilThePageCanReceiveThem() async throws {
        let h = Harness(paywallId: "pw-8")
        h.session.channel.loadStarted(url: "paywall://b/index.html")
        h.session.presented()
        XCTAssertEqual(h.page.evaluated, [], "a page still loading has no receiver yet")
        h.session.channel.loadFinished(url: "paywall://b/index.html")
        h.session.channel.receive(envelope([#"{"event_name": "ping"}"#]))
        XCTAssertEqual(h.page.evaluated.count, 1, "delivered once the page loaded")
        XCTAssertTrue(h.page.evaluated.first?.contains("accept64(") == true)
        XCTAssertEqual(
            h.page.deliveredEvents, [["event_name": .string(EventName.paywallOpen.rawValue), "paywall_identifier": "pw-8"]])
        // Delivered once: a later event does not resend it.
        h.session.finish(.timeout)
        XCTAssertEqual(
            h.page.deliveredEvents,
            [
                ["event_name": .string(EventName.paywallOpen.rawValue), "paywall_identifier": "pw-8"],
                ["event_name": .string(EventName.paywallClose.rawValue), "paywall_identifier": "pw-8", "result": "timeout"],
            ])
    }

    func testPageMessagesAreNotEchoedToThePage() async {
        let h = Harness()
        h.session.channel.receive(envelope([#"{"event_name": "custom", "data": "d"}"#]))
        XCTAssertEqual(h.page.evaluated, [])
    }

    // MARK: Navigation

    func testNavigationInsideTheBundleIsAllowed() async {
        let h = Harness()
        XCTAssertTrue(h.session.channel.shouldAllowNavigation(to: "paywall://b/page2.html", bundleHost: "b", newWindow: false))
        XCTAssertEqual(h.events, [])
        XCTAssertEqual(h.page.openedExternally, [])
    }

    func testNavigationToHTTPSOpensExternally() async {
        let h = Harness()
        h.session.channel.userInput()  // right after the user's click (PageActionLimits)
        h.session.limits.systemOpenInterval = 0
        XCTAssertFalse(h.session.channel.shouldAllowNavigation(to: "https://example.com/", bundleHost: "b", newWindow: false))
        XCTAssertEqual(h.page.openedExternally, [URL(string: "https://example.com/")!])
        XCTAssertEqual(h.names, [.urlOpenExternal])
        XCTAssertEqual(h.events.first?.params["source"], "link")

        XCTAssertFalse(h.session.channel.shouldAllowNavigation(to: "https://example.com/2", bundleHost: "b", newWindow: true))
        XCTAssertEqual(h.events.last?.params["source"], "new_window")
    }

    func testBlockedNavigationIsReported() async {
        let h = Harness()
        XCTAssertFalse(h.session.channel.shouldAllowNavigation(to: "paywall://evil/x", bundleHost: "b", newWindow: false))
        XCTAssertFalse(h.session.channel.shouldAllowNavigation(to: "javascript:alert(1)", bundleHost: "b", newWindow: false))
        XCTAssertEqual(h.names, [.navigationBlocked, .navigationBlocked])
        XCTAssertEqual(h.page.openedExternally, [])
    }

    // MARK: Readiness

    func testPingAfterLoadFinishedCallsOnReadyOnce() async {
        let h = Harness()
        h.session.channel.loadStarted(url: "paywall://b/index.html")
        h.session.channel.loadFinished(url: "paywall://b/index.html")
        XCTAssertEqual(h.readyCount, 0)
        h.session.channel.receive(envelope([#"{"event_name": "ping", "version": "2"}"#]))
        XCTAssertEqual(h.readyCount, 1)
        h.session.channel.receive(envelope([#"{"event_name": "ping", "version": "2"}"#]))
        h.session.channel.pingGraceElapsed()
        XCTAssertEqual(h.readyCount, 1)
        XCTAssertEqual(h.names.filter { $0 == .pageReady }.count, 1)
        XCTAssertEqual(h.events.first { $0.name == .pageReady }?.params["via"], "ping")
        XCTAssertEqual(h.events.first { $0.name == .ping }?.params["version"], "2")
    }

    func testGraceAfterLoadWithoutPingIsReadyViaLoad() async {
        let h = Harness()
        h.session.channel.loadStarted(url: "u")
        h.session.channel.loadFinished(url: "u")
        h.session.channel.pingGraceElapsed()
        XCTAssertEqual(h.readyCount, 1)
        XCTAssertEqual(h.events.first { $0.name == .pageReady }?.params["via"], "load")
    }

    func testReloadReportsReadinessAgain() async {
        let h = Harness()
        h.session.channel.loadStarted(url: "u")
        h.session.channel.loadFinished(url: "u")
        h.session.channel.receive(envelope([#"{"event_name": "ping"}"#]))
        h.session.channel.loadStarted(url: "u")
        XCTAssertEqual(h.session.readiness, PageReadiness())
        h.session.channel.loadFinished(url: "u")
        h.session.channel.receive(envelope([#"{"event_name": "ping"}"#]))
        XCTAssertEqual(h.readyCount, 2)
    }

    func testLoadEventsAreReported() async {
        let h = Harness()
        h.session.channel.loadStarted(url: "paywall://b/index.html")
        h.session.channel.loadFinished(url: "paywall://b/index.html")
        h.session.channel.loadFailed(url: "paywall://b/x.html", reason: "gone")
        h.session.channel.webProcessTerminated(reason: "crash")
        XCTAssertEqual(
            h.names,
            [
                .webviewLoadStart, .webviewLoadComplete, .webviewLoadFail, .paywallFallback,
                .webviewProcessTerminated,
            ])
        XCTAssertEqual(h.events.first?.params["url"], "paywall://b/index.html")
        XCTAssertEqual(h.events.first { $0.name == .webviewLoadFail }?.params["reason"], "gone")
    }
}

/// The placeholder, the slow-load state and the fallback paywall, as the session asks for them.
final class LoadingStateTests: XCTestCase {
    @MainActor
    func testPlaceholderWhileLoadingThenHidden() async {
        let h = PaywallSessionTests.Harness()
        h.session.channel.loadStarted(url: "paywall://b/index.html")
        h.session.channel.loadFinished(url: "paywall://b/index.html")
        h.session.channel.receive(envelope([#"{"event_name": "ping"}"#]))
        XCTAssertEqual(h.page.loading, [.loading, .hidden])
    }

    @MainActor
    func testTimeoutOffersRetryOnlyWhileNotReady() async {
        let h = PaywallSessionTests.Harness()
        h.session.channel.loadStarted(url: "paywall://b/index.html")
        h.session.loadTimedOut(after: 5)
        XCTAssertEqual(h.page.loading, [.loading, .slow])
        XCTAssertEqual(h.events.last?.name, .webviewLoadTimeout)
        XCTAssertEqual(h.events.last?.params["seconds"], 5)
        h.session.channel.loadFinished(url: "paywall://b/index.html")
        h.session.channel.receive(envelope([#"{"event_name": "ping"}"#]))
        let count = h.events.count
        h.session.loadTimedOut(after: 5)
        XCTAssertEqual(h.events.count, count, "a ready page does not time out")
    }

    @MainActor
    func testALoadFailureShowsTheFallbackOnce() async {
        let h = PaywallSessionTests.Harness()
        h.session.channel.loadFailed(url: "paywall://b/index.html", reason: "forbidden")
        h.session.channel.loadFailed(url: "paywall://b/index.html", reason: "again")
        XCTAssertEqual(h.page.fallbacks, 1)
        XCTAssertEqual(h.events.map(\.name), [.webviewLoadFail, .paywallFallback, .webviewLoadFail])
        XCTAssertTrue(h.session.showsFallback)
    }
}
