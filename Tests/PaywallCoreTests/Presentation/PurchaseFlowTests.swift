import Foundation
import XCTest

@testable import PaywallCore

/// The page's purchase and restore messages, against a scripted controller (app mode).
final class PurchaseFlowTests: XCTestCase {
    private var dir: URL!
    override func setUpWithError() throws { dir = try makeTemporaryDirectory("PurchaseFlowTests") }
    override func tearDown() { removeTemporaryDirectory(dir) }

    @MainActor
    final class Rig {
        let controller = ScriptedController()
        let page = RecordingPageSurface()
        let session: PaywallSession
        let purchases: Purchases
        var events: [PaywallEvent] = []
        var finished: [PresentationResult] = []

        /// App mode, or runtime mode over `store`.
        init(dir: URL, store: FakeStore? = nil, app: PurchaseController? = nil) throws {
            let dispatcher = EventDispatcher()
            session = PaywallSession(paywallId: "pw", events: dispatcher)
            purchases = try Purchases(
                controller: store ?? app ?? controller, catalog: testCatalog,
                cache: EntitlementCache(path: dir.appendingPathComponent("c.sqlite").path),
                transactionSource: store, events: dispatcher)
            session.enablePurchases(purchases, strings: try StringTable(directory: TestPaths.locales, locale: "en"))
            session.page = page
            // A loaded page that pinged, so events reach it directly.
            session.channel.loadFinished(url: "paywall://bundle/index.html")
            session.channel.receive(envelope([#"{"event_name": "ping"}"#]))
            dispatcher.observe { [unowned self] in self.events.append($0) }
            session.onFinish = { [unowned self] in self.finished.append($0) }
        }

        var names: [EventName] { events.map(\.name) }

        func send(_ event: String) { session.channel.receive(envelope([event])) }

        /// Lets the flow's task run to its end.
        func settle() async {
            for _ in 0..<20 { await Task.yield() }
        }
    }

    @MainActor
    func testSuccessfulPurchaseReportsEveryStepAndCloses() async throws {
        let rig = try Rig(dir: dir)
        rig.send(#"{"event_name": "purchase", "product_identifier": "pro.monthly"}"#)
        await rig.settle()
        XCTAssertEqual(rig.names, [.transactionStart, .transactionComplete, .freeTrialStart, .paywallClose])
        XCTAssertEqual(rig.finished, [.purchased(productId: "pro.monthly")])
        XCTAssertEqual(rig.page.progress, [true, false], "the overlay is shown and always cleared")
        XCTAssertEqual(rig.events[0].params["product_identifier"], "pro.monthly")
        XCTAssertTrue(
            rig.page.deliveredEvents.contains { $0["event_name"] == .string(EventName.transactionComplete.rawValue) },
            "the page hears it too")
    }

    /// The store charged: the paywall says so and closes even though the entitlement cache
    /// could not record it; that failure is reported on its own, naming the purchase.
    @MainActor
    func testPurchaseWhoseCacheWriteFailsIsASuccessAndTheFailureIsReported() async throws {
        let store = try FakeStore(catalog: testCatalog, databasePath: dir.appendingPathComponent("s.sqlite").path)
        let rig = try Rig(dir: dir, store: store)
        try refuseWrites(rig.purchases.cache)
        rig.send(#"{"event_name": "purchase", "product_identifier": "pro.monthly"}"#)
        await rig.settle()
        XCTAssertEqual(rig.finished, [.purchased(productId: "pro.monthly")])
        XCTAssertFalse(rig.names.contains(.transactionFail))
        let transactionId = JSONValue.string(try XCTUnwrap(store.currentTransactions().last).id)
        XCTAssertEqual(rig.events.first { $0.name == .transactionComplete }?.params["transaction_id"], transactionId)
        let failure = try XCTUnwrap(rig.events.first { $0.name == EventName.entitlementCacheWriteFail }, "\(rig.names)")
        XCTAssertEqual(failure.params["product_identifier"], "pro.monthly")
        XCTAssertEqual(failure.params["transaction_id"], transactionId)
        XCTAssertNotNil(failure.params["message"]?.stringValue)
        XCTAssertEqual(rig.purchases.subscriptionStatus, .active(["pro"]))
    }

    @MainActor
    func testShouldDismissFalseKeepsThePaywallOpen() async throws {
        let rig = try Rig(dir: dir)
        rig.send(#"{"event_name": "purchase", "product_identifier": "credits", "should_dismiss": false}"#)
        await rig.settle()
        XCTAssertEqual(rig.names, [.transactionStart, .transactionComplete, .nonRecurringProductPurchase])
        XCTAssertEqual(rig.finished, [])
    }

    /// The user bought something and then closed the paywall: they did not decline.
    /// Closing while the store is charging waits for its answer: a charge that goes through
    /// is the purchase it is, never a decline; one that does not is then the close it was.
    @MainActor
    func testACloseDuringAPurchaseWaitsForTheStore() async throws {
        for (outcome, expected, decline) in [
            (PurchaseResult.purchased, PresentationResult.purchased(productId: "pro.monthly"), false),
            (.cancelled, .declined, true),
        ] {
            let rig = try Rig(dir: dir)
            rig.controller.hold = true
            rig.controller.purchaseResults = [outcome]
            rig.send(#"{"event_name": "purchase", "product_identifier": "pro.monthly"}"#)
            await rig.settle()
            rig.session.windowClosedByUser()
            rig.send(#"{"event_name": "close"}"#)
            XCTAssertEqual(rig.finished, [], "nothing ends while the store has not answered")
            rig.controller.release()
            await rig.settle()
            XCTAssertEqual(rig.finished, [expected])
            XCTAssertEqual(rig.names.contains(.paywallDecline), decline, "\(rig.names)")
            XCTAssertEqual(rig.names.filter { $0 == .paywallClose }.count, 1)
        }
    }

    /// A close during a restore that then succeeds reports the restore, not a decline.
    @MainActor
    func testACloseDuringARestoreReportsTheRestore() async throws {
        let store = try FakeStore(catalog: testCatalog, databasePath: dir.appendingPathComponent("store.sqlite").path)
        store.switchUser("alice")
        _ = try store.buy(testCatalog.product(id: "pro.monthly")!)
        store.switchUser(Purchases.anonymousUser)
        let rig = try Rig(dir: dir, store: store)
        rig.send(#"{"event_name": "restore"}"#)
        rig.send(#"{"event_name": "close"}"#)
        await rig.settle()
        XCTAssertEqual(rig.finished, [.restored])
        XCTAssertFalse(rig.names.contains(.paywallDecline), "\(rig.names)")
    }

    /// The app (or a signal) taking the paywall down mid-purchase waits the same way.
    @MainActor
    func testAnAppDismissDuringAPurchaseWaitsForTheStore() async throws {
        let rig = try Rig(dir: dir)
        rig.controller.hold = true
        rig.send(#"{"event_name": "purchase", "product_identifier": "pro.monthly"}"#)
        await rig.settle()
        rig.session.finish(.declined)
        XCTAssertEqual(rig.finished, [])
        rig.controller.release()
        await rig.settle()
        XCTAssertEqual(rig.finished, [.purchased(productId: "pro.monthly")])
        XCTAssertFalse(rig.names.contains(.paywallDecline))
    }

    /// A controller whose checkout can be given up (the app's, over `paywall serve`).
    @MainActor
    final class GivingUpController: PurchaseCancelling {
        var asked = 0
        private var waiting: CheckedContinuation<PurchaseResult, Never>?
        func purchase(_ product: Product) async -> PurchaseResult { await withCheckedContinuation { waiting = $0 } }
        func restorePurchases() async -> RestorationResult { .restored }
        func paywallClosedDuringPurchase() {
            asked += 1
            waiting?.resume(returning: .cancelled)
            waiting = nil
        }
    }

    /// Closing (or the app dismissing) mid-purchase asks a `PurchaseCancelling` controller to
    /// give its checkout up; the purchase is then abandoned and the paywall closes at once.
    @MainActor
    func testACloseDuringAPurchaseAsksACancellingControllerToGiveUp() async throws {
        for close in ["window", "app"] {
            let controller = GivingUpController()
            let rig = try Rig(dir: dir, app: controller)
            rig.send(#"{"event_name": "purchase", "product_identifier": "pro.monthly"}"#)
            await rig.settle()
            if close == "window" { rig.session.windowClosedByUser() } else { rig.session.finish(.declined) }
            await rig.settle()
            XCTAssertEqual(controller.asked, 1, close)
            XCTAssertEqual(rig.finished, [.declined], close)
            XCTAssertEqual(rig.names.filter { $0 == .transactionAbandon }.count, 1, "\(close): \(rig.names)")
        }
    }

    @MainActor
    func testPurchaseThatKeptThePaywallOpenIsTheResultOfALaterClose() async throws {
        let rig = try Rig(dir: dir)
        rig.send(#"{"event_name": "purchase", "product_identifier": "credits", "should_dismiss": false}"#)
        await rig.settle()
        rig.send(#"{"event_name": "close"}"#)
        XCTAssertEqual(rig.finished, [.purchased(productId: "credits")])
        XCTAssertFalse(rig.names.contains(EventName.paywallDecline), "\(rig.names)")
        XCTAssertEqual(rig.events.last { $0.name == EventName.paywallClose }?.params["result"], "purchased")
    }

    @MainActor
    func testOwnedProductThatKeptThePaywallOpenIsRestoredOnClose() async throws {
        let rig = try Rig(dir: dir)
        try rig.purchases.setSubscriptionStatus(.active(["pro"]))
        rig.send(#"{"event_name": "purchase", "product_identifier": "pro.monthly", "should_dismiss": false}"#)
        await rig.settle()
        XCTAssertEqual(rig.finished, [])
        rig.session.windowClosedByUser()
        XCTAssertEqual(rig.finished, [.restored])
    }

    /// A purchase outranks a later restore of something already owned; a timeout is still a timeout.
    @MainActor
    func testPurchaseOutranksALaterRestoreAndATimeoutStaysATimeout() async throws {
        let rig = try Rig(dir: dir)
        try rig.purchases.setSubscriptionStatus(.active(["pro"]))
        rig.send(#"{"event_name": "purchase", "product_identifier": "credits", "should_dismiss": false}"#)
        await rig.settle()
        rig.send(#"{"event_name": "purchase", "product_identifier": "pro.monthly", "should_dismiss": false}"#)
        await rig.settle()
        rig.send(#"{"event_name": "close"}"#)
        XCTAssertEqual(rig.finished, [.purchased(productId: "credits")])

        let otherDir = dir.appendingPathComponent("other")
        try FileManager.default.createDirectory(at: otherDir, withIntermediateDirectories: true)
        let other = try Rig(dir: otherDir)
        other.send(#"{"event_name": "purchase", "product_identifier": "credits", "should_dismiss": false}"#)
        await other.settle()
        other.session.finish(.timeout)
        XCTAssertEqual(other.finished, [.timeout])
    }

    /// `auto` answers every runtime dialog at once: nothing is put on screen, each is reported
    /// (to the page too, so a script can wait for it), and the paywall stays open.
    @MainActor
    func testAutoDialogsAreAnsweredAtOnceAndReported() async throws {
        let rig = try Rig(dir: dir)
        rig.session.dialogs = .auto
        rig.controller.purchaseResults = [.failed(FakeStoreError.purchaseFailed(reason: "card_declined"))]
        rig.send(#"{"event_name": "purchase", "product_identifier": "pro.monthly"}"#)
        await rig.settle()
        rig.send(#"{"event_name": "purchase", "product_identifier": "nope"}"#)
        try rig.purchases.setSubscriptionStatus(.inactive)
        rig.send(#"{"event_name": "restore"}"#)
        await rig.settle()
        XCTAssertEqual(rig.page.alerts.count, 0, "nothing waits on screen")
        let dialogs = rig.events.filter { $0.name == EventName.dialogShown }
        XCTAssertEqual(dialogs.map { $0.params["title"] }, ["Purchase Failed", "Product Unavailable", "No Purchases Found"])
        XCTAssertEqual(Set(dialogs.map { $0.params["answer"] }), ["ok"])
        XCTAssertEqual(rig.page.deliveredEvents.filter { $0["event_name"] == .string(EventName.dialogShown.rawValue) }.count, 3)
        XCTAssertEqual(rig.finished, [])
    }

    @MainActor
    func testSecondTapWhileInFlightStartsNothing() async throws {
        let rig = try Rig(dir: dir)
        rig.controller.hold = true
        rig.send(#"{"event_name": "purchase", "product_identifier": "credits", "should_dismiss": false}"#)
        await rig.settle()
        rig.send(#"{"event_name": "purchase", "product_identifier": "credits", "should_dismiss": false}"#)
        rig.send(#"{"event_name": "restore"}"#)
        rig.controller.release()
        await rig.settle()
        XCTAssertEqual(rig.controller.purchased, ["credits"])
        XCTAssertEqual(rig.names.filter { $0 == .transactionStart }.count, 1)
        XCTAssertFalse(rig.names.contains(.restoreStart))
    }

    @MainActor
    func testUnknownProductFailsClearly() async throws {
        let rig = try Rig(dir: dir)
        rig.send(#"{"event_name": "purchase", "product_identifier": "nope"}"#)
        await rig.settle()
        XCTAssertEqual(rig.names, [.transactionFail, .dialogShown])
        let message = rig.events[0].params["message"]?.stringValue ?? ""
        XCTAssertTrue(message.contains("unknown product id \"nope\""), message)
        XCTAssertTrue(message.contains("pro.monthly"), "names what the catalog has: \(message)")
        XCTAssertEqual(rig.page.alerts.map(\.title), ["Product Unavailable"])
        XCTAssertEqual(rig.controller.purchased, [])
    }

    @MainActor
    func testBuyingWhatTheUserOwnsChargesNothing() async throws {
        let rig = try Rig(dir: dir)
        try rig.purchases.setSubscriptionStatus(.active(["pro"]))
        rig.events = []
        rig.send(#"{"event_name": "purchase", "product_identifier": "lifetime"}"#)
        await rig.settle()
        XCTAssertEqual(rig.controller.purchased, [])
        XCTAssertEqual(rig.names, [.transactionRestore, .paywallClose])
        XCTAssertEqual(rig.finished, [.restored])
    }

    @MainActor
    func testCancelledPurchaseIsAbandoned() async throws {
        let rig = try Rig(dir: dir)
        rig.controller.purchaseResults = [.cancelled]
        rig.send(#"{"event_name": "purchase", "product_identifier": "pro.monthly"}"#)
        await rig.settle()
        XCTAssertEqual(rig.names, [.transactionStart, .transactionAbandon])
        XCTAssertEqual(rig.finished, [])
        XCTAssertEqual(rig.page.progress, [true, false])
        XCTAssertTrue(rig.page.alerts.isEmpty, "the user cancelled; nothing to tell them")
    }

    @MainActor
    func testFailedPurchaseIsReportedAndExplained() async throws {
        struct CardDeclined: StoreCodedError, CustomStringConvertible {
            var description: String { "card declined" }
            var storeCode: String { "card_declined" }
        }
        let rig = try Rig(dir: dir)
        rig.controller.purchaseResults = [.failed(CardDeclined())]
        rig.send(#"{"event_name": "purchase", "product_identifier": "pro.monthly"}"#)
        await rig.settle()
        XCTAssertEqual(rig.names, [.transactionStart, .transactionFail, .dialogShown])
        XCTAssertEqual(rig.events[1].params["message"], "card declined")
        XCTAssertEqual(rig.page.alerts.first?.title, "Purchase Failed")
        XCTAssertEqual(
            rig.page.alerts.first?.message,
            "The purchase could not be completed: the card was declined (card_declined). You have not been charged.")
    }

    @MainActor
    func testPendingPurchaseWaitsForApproval() async throws {
        let rig = try Rig(dir: dir)
        rig.controller.purchaseResults = [.pending]
        rig.send(#"{"event_name": "purchase", "product_identifier": "pro.monthly"}"#)
        await rig.settle()
        XCTAssertEqual(rig.names, [.transactionStart, .transactionPending, .dialogShown])
        XCTAssertEqual(rig.page.alerts.map(\.title), ["Waiting for Approval"])
        // Shown to the user, whose answer is not known yet.
        let dialog = try XCTUnwrap(rig.events.first { $0.name == EventName.dialogShown })
        XCTAssertEqual(dialog.params["title"], "Waiting for Approval")
        XCTAssertEqual(dialog.params["message"], .string(rig.page.alerts[0].message))
        XCTAssertEqual(dialog.params["answer"], .null)
        XCTAssertEqual(rig.finished, [])
    }

    @MainActor
    func testRestoreWithNothingToRestoreFails() async throws {
        let rig = try Rig(dir: dir)
        try rig.purchases.setSubscriptionStatus(.inactive)
        rig.events = []
        rig.send(#"{"event_name": "restore"}"#)
        await rig.settle()
        XCTAssertEqual(rig.names, [.restoreStart, .restoreFail, .dialogShown])
        XCTAssertEqual(rig.events[1].params["message"], "no active purchases to restore")
        XCTAssertEqual(rig.page.alerts.first?.title, "No Purchases Found")
        XCTAssertEqual(rig.page.progress, [true, false])
    }

    @MainActor
    func testRestoreThatFindsAccessCompletesAndCloses() async throws {
        let rig = try Rig(dir: dir)
        try rig.purchases.setSubscriptionStatus(.active(["pro"]))
        rig.events = []
        rig.send(#"{"event_name": "restore"}"#)
        await rig.settle()
        XCTAssertEqual(rig.names, [.restoreStart, .restoreComplete, .paywallClose])
        XCTAssertEqual(rig.finished, [.restored])
    }

    @MainActor
    func testRestoreErrorFromTheController() async throws {
        let rig = try Rig(dir: dir)
        rig.controller.restoreResult = .failed(nil)
        rig.send(#"{"event_name": "restore"}"#)
        await rig.settle()
        XCTAssertEqual(rig.names, [.restoreStart, .restoreFail, .dialogShown])
        XCTAssertEqual(rig.page.alerts.first?.title, "Restore Failed")
    }

    @MainActor
    func testSlotResolvesToTheSlotsProduct() async throws {
        let rig = try Rig(dir: dir)
        rig.session.productSlots = try ProductSlots(parsing: "primary=credits")
        rig.send(#"{"event_name": "purchase", "product_identifier": "primary", "product": "primary", "should_dismiss": false}"#)
        await rig.settle()
        XCTAssertEqual(rig.controller.purchased, ["credits"])
    }

    @MainActor
    func testWithoutAControllerPurchaseIsUnsupported() async throws {
        let session = PaywallSession(paywallId: "pw", events: EventDispatcher())
        var names: [EventName] = []
        session.events.observe { names.append($0.name) }
        session.channel.receive(envelope([#"{"event_name": "purchase", "product_identifier": "x"}"#]))
        XCTAssertEqual(names, [.pageMessageUnsupported])
    }
}

final class PresentationGateTests: XCTestCase {
    private var dir: URL!
    override func setUpWithError() throws { dir = try makeTemporaryDirectory("PresentationGateTests") }
    override func tearDown() { removeTemporaryDirectory(dir) }

    @MainActor
    private func purchases(_ events: EventDispatcher) throws -> Purchases {
        try Purchases(
            controller: ScriptedController(), catalog: testCatalog,
            cache: EntitlementCache(path: dir.appendingPathComponent("c.sqlite").path),
            transactionSource: nil, events: events)
    }

    @MainActor
    func testSubscribedUserIsNotShownAPaywall() async throws {
        var events: [PaywallEvent] = []
        let dispatcher = EventDispatcher()
        let p = try purchases(dispatcher)
        try p.setSubscriptionStatus(.active(["pro"]))
        dispatcher.observe { events.append($0) }
        let result = await PresentationGate.check(p, paywallId: "pw")
        XCTAssertEqual(result, .skipped(reason: .subscribed))
        XCTAssertEqual(events.last?.params["reason"], "userIsSubscribed")
    }

    @MainActor
    func testInactiveUserIsShownThePaywall() async throws {
        let p = try purchases(EventDispatcher())
        try p.setSubscriptionStatus(.inactive)
        let result = await PresentationGate.check(p, paywallId: "pw")
        XCTAssertNil(result)
    }

    @MainActor
    func testUnknownStatusWaitsABoundedTimeAndSaysSo() async throws {
        var events: [PaywallEvent] = []
        let dispatcher = EventDispatcher()
        dispatcher.observe { events.append($0) }
        let result = await PresentationGate.check(try purchases(dispatcher), paywallId: "pw", timeout: 0.05)
        XCTAssertNil(result, "presented anyway")
        XCTAssertEqual(events.map(\.name), [.paywallPresentationRequest])
        XCTAssertEqual(events[0].params["status"], "timeout")
        XCTAssertEqual(events[0].params["reason"], "subscriptionStatusTimeout")
        XCTAssertEqual(events[0].params["waited_ms"], 50)
    }

    @MainActor
    func testStatusArrivingDuringTheWaitDecides() async throws {
        let p = try purchases(EventDispatcher())
        Task { @MainActor in try p.setSubscriptionStatus(.active(["pro"])) }
        let result = await PresentationGate.check(p, paywallId: "pw", timeout: 30)
        XCTAssertEqual(result, .skipped(reason: .subscribed))
    }
}
