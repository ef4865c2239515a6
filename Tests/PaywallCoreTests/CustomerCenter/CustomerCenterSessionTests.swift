import Foundation
import XCTest

@testable import PaywallCore

/// `CustomerCenterSession` driven through the page protocol, over a real `FakeStore`, `Purchases`
/// and `EntitlementCache` in a temporary directory (or an app controller for web purchases).
final class CustomerCenterSessionTests: XCTestCase {
    private var dir: URL!
    override func setUpWithError() throws { dir = try makeTemporaryDirectory("CustomerCenterSessionTests") }
    override func tearDown() { removeTemporaryDirectory(dir) }

    private static let detailMonthly =
        #"{"event_name": "customer_center_path", "path_id": "detail", "product_id": "pro.monthly"}"#
    private static func path(_ id: String, product: String = "pro.monthly") -> String {
        #"{"event_name": "customer_center_path", "path_id": "\#(id)", "product_id": "\#(product)"}"#
    }
    private static func action(_ name: String) -> String {
        #"{"event_name": "customer_center_action", "action": "\#(name)"}"#
    }
    private static func option(_ id: String) -> String {
        #"{"event_name": "customer_center_option", "option_id": "\#(id)"}"#
    }

    /// An active, renewing web subscription of `pro.monthly` bought 3 days before the real now.
    private static func webSubscription(_ store: StoreKind) -> StoreTransaction {
        let bought = Date().addingTimeInterval(-3 * CCFixture.day)
        return StoreTransaction(
            id: "web1", productId: "pro.monthly", kind: .autoRenewable, store: store, purchaseDate: bought,
            expirationDate: bought.addingTimeInterval(30 * CCFixture.day), willRenew: true,
            subscriptionGroupId: "pro", entitlementIds: ["pro"], price: decimalPrice("7.99"))
    }

    @MainActor
    private func ccNames(_ rig: CCSessionRig) -> [EventName] {
        rig.names.filter { $0.rawValue.hasPrefix("customerCenter_") }
    }

    // MARK: Opening

    @MainActor
    func testStartReportsOpenAndDrawsOnceThePagePings() async throws {
        let rig = try CCSessionRig(dir: dir)
        try await rig.buy(FakeStoreFixture.monthly)
        rig.session.start()
        XCTAssertEqual(rig.page.evaluated, [], "nothing is sent before the page is ready")
        rig.send(#"{"event_name": "ping"}"#)
        XCTAssertEqual(
            rig.events(named: .customerCenterOpen).map(\.params),
            [["screen": "management", "presentation": "sheet"]])
        let model = try XCTUnwrap(rig.page.lastModel)
        XCTAssertEqual(model["screen"], "management")
        XCTAssertEqual(model["close"], "Done")
        XCTAssertEqual(model.ccRows.first { $0["kind"] == "purchase" }?["product_id"], "pro.monthly")
        XCTAssertEqual(model.ccPathIds, ["restore"])
    }

    @MainActor
    func testAPreloadedPageIsDrawnBeforeItIsShownAndReportedOpenOnlyThen() async throws {
        let rig = try CCSessionRig(dir: dir)
        try await rig.buy(FakeStoreFixture.monthly)
        rig.session.drawAhead()
        rig.send(#"{"event_name": "ping"}"#)
        XCTAssertEqual(rig.page.lastModel?["screen"], "management", "the screen is drawn while preloaded")
        XCTAssertEqual(rig.events(named: .customerCenterOpen).count, 0, "not open until shown")
        let drawn = rig.session.revision
        rig.session.start()
        XCTAssertEqual(rig.events(named: .customerCenterOpen).count, 1)
        XCTAssertEqual(rig.session.revision, drawn + 1, "shown: drawn again with what the presentation set")
    }

    @MainActor
    func testStartWithNothingBoughtOpensTheNoPurchasesScreen() async throws {
        let rig = try CCSessionRig(dir: dir)
        rig.open()
        XCTAssertEqual(rig.events(named: .customerCenterOpen).first?.params["screen"], "no_purchases")
        XCTAssertEqual(rig.page.lastModel?["screen"], "no_purchases")
    }

    // MARK: Cancelling

    @MainActor
    func testCancelThroughTheSurveyTurnsRenewalOff() async throws {
        let rig = try CCSessionRig(dir: dir)
        try await rig.buy(FakeStoreFixture.monthly)
        let bought = try XCTUnwrap(rig.latestStoreTransaction("pro.monthly"))
        XCTAssertTrue(bought.willRenew)
        rig.open()

        rig.send(Self.detailMonthly)
        XCTAssertEqual(rig.session.route, [.home, .detail(purchaseKey: "pro.monthly")])
        XCTAssertEqual(rig.page.lastModel?.ccPathIds, ["change_plan", "refund", "manage_subscription"])

        rig.send(Self.path("manage_subscription"))
        XCTAssertEqual(
            rig.events(named: .customerCenterAction).map(\.params),
            [["action": "manage_subscription", "path_id": "manage_subscription", "product_id": "pro.monthly"]])
        let survey = try XCTUnwrap(rig.page.lastModel)
        XCTAssertEqual(survey["screen"], "survey")
        XCTAssertEqual(survey["survey_id"], "cancel_survey")
        XCTAssertEqual(survey["title"], "Why are you cancelling?")
        XCTAssertEqual(
            survey.ccRows.compactMap { $0["option_id"]?.stringValue }, ["too_expensive", "dont_use", "bought_by_mistake"])
        XCTAssertEqual(survey.ccRows.first?["title"], "Too expensive")
        XCTAssertNil(rig.session.dialog, "nothing is confirmed before the survey is answered")

        rig.send(Self.option("too_expensive"))
        XCTAssertEqual(
            rig.events(named: .customerCenterSurveyResponse).map(\.params),
            [
                [
                    "survey_id": "cancel_survey", "option_id": "too_expensive", "action": "manage_subscription",
                    "path_id": "manage_subscription", "product_id": "pro.monthly",
                ]
            ])
        XCTAssertEqual(rig.session.route, [.home, .detail(purchaseKey: "pro.monthly")], "the survey leaves the stack")
        let confirm = try XCTUnwrap(rig.session.dialog)
        XCTAssertEqual(confirm.title, "Cancel Pro Monthly?")
        XCTAssertEqual(confirm.buttons.map(\.action), ["dismiss", "confirm"])
        XCTAssertEqual(rig.page.lastModel?["dialog"]?["title"], "Cancel Pro Monthly?")
        XCTAssertTrue(try XCTUnwrap(rig.latestStoreTransaction("pro.monthly")).willRenew, "nothing changed before confirming")

        rig.send(Self.action("confirm"))
        try await rig.waitUntilIdle()
        XCTAssertEqual(rig.session.dialog?.title, "Subscription Cancelled")
        try rig.purchases.refresh()
        let after = try XCTUnwrap(rig.latestStoreTransaction("pro.monthly"))
        XCTAssertEqual(after.id, bought.id)
        XCTAssertFalse(after.willRenew)
        XCTAssertNil(after.revocationDate)
        XCTAssertEqual(rig.purchases.subscriptionStatus, .active(["pro"]), "access lasts to the period's end")
        XCTAssertFalse(rig.purchases.customerInfo.transactions.contains { $0.willRenew })
        XCTAssertFalse(
            rig.page.lastModel?.ccPathIds.contains("manage_subscription") ?? true,
            "the detail screen no longer offers to cancel")
        XCTAssertEqual(ccNames(rig), [.customerCenterOpen, .customerCenterAction, .customerCenterSurveyResponse])
    }

    /// A session over a store where the user bought the monthly plan, on its plans screen.
    @MainActor
    private func plansOfAMonthlySubscription() async throws -> CCSessionRig {
        let rig = try CCSessionRig(dir: dir)
        try await rig.buy(FakeStoreFixture.monthly)
        rig.open()
        rig.send(Self.detailMonthly)
        rig.send(Self.path("change_plan"))
        XCTAssertEqual(rig.page.lastModel?["screen"], "plans")
        return rig
    }

    /// A plan change is a purchase like a paywall's: it runs through `Purchases.purchase` and
    /// reports the same `transaction_*` events with the same parameters (no paywall identifier:
    /// no paywall is on screen).
    @MainActor
    func testPlanChangeReportsTheTransactionEventsOfAPurchase() async throws {
        let rig = try await plansOfAMonthlySubscription()
        rig.events = []
        rig.send(Self.path("change_plan", product: "pro.yearly"))
        try await rig.waitUntilIdle()
        XCTAssertEqual(rig.session.dialog?.title, "Plan Changed")
        let yearly = try XCTUnwrap(rig.latestStoreTransaction("pro.yearly"))
        let transactionEvents = rig.events.filter {
            $0.name.rawValue.hasPrefix("transaction_") || $0.name.rawValue.hasSuffix("_start")
        }
        XCTAssertEqual(
            transactionEvents.map(\.name), [.transactionStart, .transactionComplete, .subscriptionStart],
            "\(rig.names)")
        XCTAssertEqual(transactionEvents.first?.params, ["product_identifier": "pro.yearly"])
        XCTAssertEqual(
            transactionEvents.dropFirst().first?.params,
            ["product_identifier": "pro.yearly", "transaction_id": .string(yearly.id)])
    }

    /// A plan change the store made is shown as done even when the entitlement cache cannot
    /// record it; the cache failure is reported on its own, naming the new plan.
    @MainActor
    func testPlanChangeWhoseCacheWriteFailsIsDoneAndTheFailureIsReported() async throws {
        let rig = try await plansOfAMonthlySubscription()
        try refuseWrites(rig.purchases.cache)
        rig.send(Self.path("change_plan", product: "pro.yearly"))
        try await rig.waitUntilIdle()
        XCTAssertEqual(rig.session.dialog?.title, "Plan Changed")
        let yearly = try XCTUnwrap(rig.latestStoreTransaction("pro.yearly"))
        let failure = try XCTUnwrap(rig.events(named: EventName.entitlementCacheWriteFail).first, "\(rig.names)")
        XCTAssertEqual(failure.params["product_identifier"], "pro.yearly")
        XCTAssertEqual(failure.params["transaction_id"], .string(yearly.id))
        XCTAssertTrue(rig.purchases.customerInfo.transactions.contains { $0.id == yearly.id }, "the status follows the store")
    }

    @MainActor
    func testCancelDismissedChangesNothing() async throws {
        let rig = try CCSessionRig(dir: dir)
        try await rig.buy(FakeStoreFixture.monthly)
        rig.open()
        rig.send(Self.detailMonthly)
        rig.send(Self.path("manage_subscription"))
        rig.send(Self.option("dont_use"))
        rig.send(Self.action("dismiss"))
        try await rig.waitUntilIdle()
        XCTAssertNil(rig.session.dialog)
        XCTAssertTrue(try XCTUnwrap(rig.latestStoreTransaction("pro.monthly")).willRenew)
        XCTAssertEqual(rig.events(named: .customerCenterRefundRequest).count, 0)
    }

    // MARK: Refunds

    @MainActor
    func testRefundConfirmedReportsSuccess() async throws {
        let rig = try CCSessionRig(dir: dir)
        try await rig.buy(FakeStoreFixture.monthly)
        rig.open()
        rig.send(Self.detailMonthly)
        rig.send(Self.path("refund"))
        XCTAssertEqual(rig.events(named: .customerCenterAction).last?.params["action"], "refund")
        XCTAssertEqual(rig.session.dialog?.title, "Request a Refund for Pro Monthly?", "no survey on refund by default")
        rig.send(Self.action("confirm"))
        try await rig.waitUntilIdle()
        XCTAssertEqual(
            rig.events(named: .customerCenterRefundRequest).map(\.params),
            [["product_id": "pro.monthly", "status": "success"]])
        XCTAssertEqual(rig.session.dialog?.title, "Refund Requested")
        XCTAssertNotNil(try XCTUnwrap(rig.latestStoreTransaction("pro.monthly")).revocationDate)
        XCTAssertEqual(rig.purchases.subscriptionStatus, .inactive)
        XCTAssertFalse(rig.page.lastModel?.ccPathIds.contains("refund") ?? true, "a refunded purchase offers no refund")
    }

    @MainActor
    func testRefundDismissedReportsUserCancelled() async throws {
        let rig = try CCSessionRig(dir: dir)
        try await rig.buy(FakeStoreFixture.monthly)
        rig.open()
        rig.send(Self.detailMonthly)
        rig.send(Self.path("refund"))
        XCTAssertNotNil(rig.session.dialog)
        rig.send(Self.action("dismiss"))
        try await rig.waitUntilIdle()
        XCTAssertEqual(
            rig.events(named: .customerCenterRefundRequest).map(\.params),
            [["product_id": "pro.monthly", "status": "user_cancelled"]])
        XCTAssertNil(rig.session.dialog)
        XCTAssertNil(try XCTUnwrap(rig.latestStoreTransaction("pro.monthly")).revocationDate)
        XCTAssertEqual(rig.purchases.subscriptionStatus, .active(["pro"]))
    }

    // MARK: Restore

    @MainActor
    func testRestoreShowsADialog() async throws {
        let rig = try CCSessionRig(dir: dir)
        try await rig.buy(FakeStoreFixture.monthly)
        rig.open()
        rig.send(#"{"event_name": "customer_center_path", "path_id": "restore"}"#)
        try await rig.waitUntilIdle()
        XCTAssertEqual(rig.events(named: .customerCenterAction).first?.params["action"], "restore")
        XCTAssertTrue(rig.names.contains(.restoreStart))
        XCTAssertTrue(rig.names.contains(.restoreComplete))
        XCTAssertEqual(rig.session.dialog?.title, "Purchases Restored")
        XCTAssertEqual(rig.page.lastModel?["dialog"]?["title"], "Purchases Restored")
        rig.send(Self.action("ok"))
        XCTAssertNil(rig.session.dialog)
    }

    @MainActor
    func testRestoreWithNothingToRestoreSaysSo() async throws {
        let rig = try CCSessionRig(dir: dir)
        rig.open()
        rig.send(#"{"event_name": "customer_center_path", "path_id": "restore"}"#)
        try await rig.waitUntilIdle()
        XCTAssertTrue(rig.names.contains(.restoreFail))
        XCTAssertEqual(rig.session.dialog?.title, "No Purchases Found")
    }

    // MARK: Malformed messages

    @MainActor
    func testMalformedMessageIsReportedAndTheSessionKeepsWorking() async throws {
        let rig = try CCSessionRig(dir: dir)
        try await rig.buy(FakeStoreFixture.monthly)
        rig.open()
        rig.session.channel.receive("this is not json")
        rig.send(#"{"event_name": "customer_center_teleport"}"#)
        rig.send(#"{"event_name": "customer_center_path", "product_id": "pro.monthly"}"#)
        rig.send(#"{"event_name": "customer_center_path", "path_id": "detail", "product_id": "nope"}"#)
        let invalid = rig.events(named: EventName.pageMessageInvalid)
        XCTAssertEqual(invalid.count, 4)
        XCTAssertTrue(invalid.allSatisfy { $0.params["page"] == "customer_center" })
        XCTAssertTrue(invalid[2].params["reason"]?.stringValue?.contains("path_id") ?? false, "\(invalid[2].params)")
        XCTAssertTrue(invalid[3].params["reason"]?.stringValue?.contains("nope") ?? false, "\(invalid[3].params)")
        XCTAssertEqual(rig.session.route, [.home])
        XCTAssertFalse(rig.session.isDismissed)
        // The session still answers.
        rig.session.channel.receive(envelope([#"{"event_name": "bogus"}"#, Self.detailMonthly]))
        XCTAssertEqual(rig.events(named: EventName.pageMessageInvalid).count, 5)
        XCTAssertEqual(rig.session.route, [.home, .detail(purchaseKey: "pro.monthly")])
        XCTAssertEqual(rig.page.lastModel?["screen"], "detail")
    }

    // MARK: Links

    /// A link in the customer center goes where a paywall's goes, reported the same way: web and
    /// mail links to the system (`url_openExternal`, no user gesture needed on the runtime's own
    /// page), other schemes blocked (`navigation_blocked`), never dropped silently.
    @MainActor
    func testALinkReportsUrlOpenExternalAsAPaywallsDoes() async throws {
        let rig = try CCSessionRig(dir: dir)
        rig.open()
        let channel = rig.session.channel
        XCTAssertFalse(
            channel.shouldAllowNavigation(to: "https://example.com/help", bundleHost: "customer-center", newWindow: false))
        XCTAssertFalse(channel.shouldAllowNavigation(to: "myapp://settings", bundleHost: "customer-center", newWindow: false))
        XCTAssertTrue(
            channel.shouldAllowNavigation(
                to: "paywall://customer-center/index.html", bundleHost: "customer-center",
                newWindow: false))
        XCTAssertEqual(rig.page.openedExternally, [URL(string: "https://example.com/help")!])
        let opened = rig.events(named: .urlOpenExternal).map(\.params)
        XCTAssertEqual(opened, [["url": "https://example.com/help", "source": "link", "page": "customer_center"]])
        let blocked = rig.events(named: .navigationBlocked).map(\.params)
        XCTAssertEqual(blocked.map { $0["url"] }, ["myapp://settings"])
    }

    /// A path of type `url` (an FAQ link) opens in the system's browser the way a link does:
    /// through the page channel, reported as `url_openExternal` with `source: path`.
    @MainActor
    func testAURLPathOpensThroughThePageChannelAndIsReported() async throws {
        var configuration = CustomerCenterConfiguration.default
        let faq = URL(string: "https://example.com/faq")!
        configuration.noPurchasesScreen.paths.append(
            .init(id: "faq", type: .url(faq, title: "FAQ", openMethod: .external)))
        let rig = try CCSessionRig(dir: dir, configuration: configuration)
        rig.open()
        rig.send(#"{"event_name": "customer_center_path", "path_id": "faq"}"#)
        XCTAssertEqual(rig.page.openedExternally, [faq])
        let opened = rig.events(named: .urlOpenExternal).map(\.params)
        XCTAssertEqual(opened, [["url": "https://example.com/faq", "source": "path", "page": "customer_center"]])
    }

    // MARK: Delegate

    @MainActor
    func testDelegateHearsSelectionSurveyRefundAndDismiss() async throws {
        let rig = try CCSessionRig(dir: dir)
        let delegate = RecordingCustomerCenterDelegate()
        rig.session.delegate = delegate
        var dismissed = 0
        rig.session.onDismiss = { dismissed += 1 }
        try await rig.buy(FakeStoreFixture.monthly)
        let transaction = try XCTUnwrap(rig.latestStoreTransaction("pro.monthly"))
        rig.open()

        rig.send(Self.detailMonthly)
        rig.send(Self.path("manage_subscription"))
        XCTAssertEqual(delegate.selected.map(\.action), [.manageSubscription])
        XCTAssertEqual(delegate.selected.first?.transactionId, transaction.id)
        rig.send(Self.option("bought_by_mistake"))
        XCTAssertEqual(delegate.surveys.count, 1)
        XCTAssertEqual(delegate.surveys.first?.surveyId, "cancel_survey")
        XCTAssertEqual(delegate.surveys.first?.optionId, "bought_by_mistake")
        XCTAssertEqual(delegate.surveys.first?.action, .manageSubscription)
        rig.send(Self.action("dismiss"))

        rig.send(Self.path("refund"))
        XCTAssertEqual(delegate.selected.map(\.action), [.manageSubscription, .refund])
        rig.send(Self.action("confirm"))
        try await rig.waitUntilIdle()
        XCTAssertEqual(delegate.refunds.map(\.productId), ["pro.monthly"])
        XCTAssertEqual(delegate.refunds.map(\.status), [.success])

        rig.send(Self.action("close"))
        XCTAssertEqual(delegate.dismissCount, 1)
        XCTAssertEqual(dismissed, 1)
        XCTAssertEqual(rig.page.dismissCount, 1)
        XCTAssertTrue(rig.session.isDismissed)
        XCTAssertNil(rig.session.delegate, "the delegate is let go once dismissed")
        XCTAssertEqual(rig.events(named: .customerCenterClose).count, 1)
        rig.session.dismiss()
        XCTAssertEqual(delegate.dismissCount, 1, "dismissed once")
        XCTAssertEqual(rig.events(named: .customerCenterClose).count, 1)
    }

    @MainActor
    func testDelegateRefusingARestoreStopsIt() async throws {
        let rig = try CCSessionRig(dir: dir)
        let delegate = RecordingCustomerCenterDelegate()
        delegate.allowsRestore = false
        rig.session.delegate = delegate
        try await rig.buy(FakeStoreFixture.monthly)
        rig.open()
        rig.send(#"{"event_name": "customer_center_path", "path_id": "restore"}"#)
        try await rig.waitUntilIdle()
        XCTAssertEqual(delegate.restoreQuestions, 1)
        XCTAssertEqual(delegate.selected.map(\.action), [.restore])
        XCTAssertFalse(rig.names.contains(.restoreStart))
        XCTAssertNil(rig.session.dialog)
        XCTAssertFalse(rig.session.isBusy)

        delegate.allowsRestore = true
        rig.send(#"{"event_name": "customer_center_path", "path_id": "restore"}"#)
        try await rig.waitUntilIdle()
        XCTAssertEqual(delegate.restoreQuestions, 2)
        XCTAssertTrue(rig.names.contains(.restoreStart))
        XCTAssertEqual(rig.session.dialog?.title, "Purchases Restored")
    }

    @MainActor
    func testDelegateHearsARefundTheUserDismissed() async throws {
        let rig = try CCSessionRig(dir: dir)
        let delegate = RecordingCustomerCenterDelegate()
        rig.session.delegate = delegate
        try await rig.buy(FakeStoreFixture.monthly)
        rig.open()
        rig.send(Self.detailMonthly)
        rig.send(Self.path("refund"))
        rig.send(Self.action("dismiss"))
        XCTAssertEqual(delegate.refunds.map(\.productId), ["pro.monthly"])
        XCTAssertEqual(delegate.refunds.map(\.status), [.userCancelled])
    }

    // MARK: Update lookups

    private func updateConfiguration() -> CustomerCenterConfiguration {
        var configuration = CustomerCenterConfiguration.default
        configuration.support.updateFeedURL = URL(string: "http://127.0.0.1:9/feed.json")!
        return configuration
    }

    @MainActor
    func testSandboxStoreNeverLooksUpUpdates() async throws {
        let rig = try CCSessionRig(
            dir: dir, configuration: updateConfiguration(),
            updateCheck: UpdateCheck(cachePath: dir.appendingPathComponent("update.json").path))
        try await rig.buy(FakeStoreFixture.monthly)
        XCTAssertTrue(StoreCapabilities(rig.purchases.controller).isSandbox)
        rig.open()
        try await Task.sleep(nanoseconds: 1_500_000_000)
        XCTAssertEqual(
            rig.events(named: .customerCenterUpdateCheckFail).count, 0,
            "a fetch of the unroutable feed was attempted: \(rig.events(named: .customerCenterUpdateCheckFail).map(\.params))")
        XCTAssertEqual(rig.page.lastModel?.ccBannerKinds, [])
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("update.json").path))
    }

    /// The control for the sandbox test: a store that is not a sandbox does look the feed up.
    @MainActor
    func testNonSandboxControllerLooksUpUpdates() async throws {
        let rig = try CCSessionRig(
            dir: dir, controller: CCController(), transactions: [], configuration: updateConfiguration(),
            updateCheck: UpdateCheck(cachePath: dir.appendingPathComponent("update.json").path))
        rig.open()
        for _ in 0..<200 where rig.events(named: .customerCenterUpdateCheckFail).isEmpty {
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        XCTAssertEqual(rig.events(named: .customerCenterUpdateCheckFail).count, 1)
    }

    @MainActor
    func testCachedLatestVersionShowsTheUpdateBanner() async throws {
        let cachePath = dir.appendingPathComponent("update.json").path
        let entry: JSONValue = [
            "feed": "http://127.0.0.1:9/feed.json", "version": "9.0.0",
            "checked_at": .number(Date().timeIntervalSince1970 - 60),
        ]
        try Data(entry.jsonText.utf8).write(to: URL(fileURLWithPath: cachePath))
        let rig = try CCSessionRig(
            dir: dir, controller: CCController(), transactions: [Self.webSubscription(.appStore)],
            configuration: updateConfiguration(), updateCheck: UpdateCheck(cachePath: cachePath))
        rig.open()
        try await Task.sleep(nanoseconds: 200_000_000)
        XCTAssertEqual(rig.page.lastModel?.ccBannerKinds, ["update"])
        XCTAssertEqual(rig.events(named: .customerCenterUpdateCheckFail).count, 0, "a fresh cache needs no network")
    }

    // MARK: Web purchases

    @MainActor
    func testWebPurchaseOpensItsManagementPageWithoutTheSurvey() async throws {
        let url = URL(string: "https://billing.example.com/portal")!
        var configuration = CustomerCenterConfiguration.default
        configuration.support.webManagementURL = url
        let controller = CCController()
        controller.stores = [.appStore]
        controller.manages = true
        let rig = try CCSessionRig(
            dir: dir, controller: controller, transactions: [Self.webSubscription(.stripe)],
            configuration: configuration)
        rig.open()
        rig.send(Self.detailMonthly)
        XCTAssertEqual(rig.page.lastModel?["badge"], "Web")
        XCTAssertEqual(rig.page.lastModel?.ccPathIds, ["manage_subscription"])
        rig.send(Self.path("manage_subscription"))
        XCTAssertEqual(rig.page.openedExternally, [url])
        XCTAssertEqual(rig.events(named: .customerCenterAction).first?.params["url"], .string(url.absoluteString))
        XCTAssertEqual(rig.session.route, [.home, .detail(purchaseKey: "pro.monthly")], "no survey before a web page")
        XCTAssertEqual(rig.events(named: .customerCenterSurveyResponse).count, 0)
        XCTAssertEqual(controller.cancelled, [], "the controller is not asked")
        XCTAssertNil(rig.session.dialog)
    }

    @MainActor
    func testWebPurchaseWithoutManagementPagePointsToTheReceipt() async throws {
        let rig = try CCSessionRig(dir: dir, controller: CCController(), transactions: [Self.webSubscription(.paddle)])
        rig.open()
        rig.send(Self.detailMonthly)
        let manage = rig.page.lastModel?.ccRows.first { $0["path_id"] == "manage_subscription" }
        XCTAssertEqual(manage?["subtitle"], "Use the link in the receipt we emailed you to manage this subscription.")
        rig.send(Self.path("manage_subscription"))
        XCTAssertEqual(rig.session.route, [.home, .detail(purchaseKey: "pro.monthly")], "no survey")
        XCTAssertEqual(rig.session.dialog?.title, "Manage Subscription")
        XCTAssertEqual(rig.session.dialog?.message, "Use the link in the receipt we emailed you to manage this subscription.")
        XCTAssertEqual(rig.page.openedExternally, [])
    }

    // MARK: Rows

    @MainActor
    func testOneTimePurchaseHasNoDetailScreen() async throws {
        let rig = try CCSessionRig(dir: dir)
        try await rig.buy(FakeStoreFixture.lifetime)
        rig.open()
        let card = rig.page.lastModel?.ccRows.first { $0["product_id"] == "lifetime" }
        XCTAssertEqual(card?["kind"], "card")
        rig.send(Self.path("detail", product: "lifetime"))
        XCTAssertEqual(rig.session.route, [.home])
        XCTAssertEqual(rig.events(named: EventName.pageMessageInvalid).count, 1)
    }

    @MainActor
    func testEntitlementWithoutATransactionOpensADetailScreen() async throws {
        let rig = try CCSessionRig(dir: dir, controller: CCController(), transactions: [])
        try rig.purchases.setSubscriptionStatus(.active(["beta"]))
        rig.open()
        XCTAssertEqual(rig.page.lastModel?["screen"], "management")
        rig.send(#"{"event_name": "customer_center_path", "path_id": "detail", "entitlement_id": "beta"}"#)
        XCTAssertEqual(rig.session.route, [.home, .detail(purchaseKey: "entitlement:beta")])
        XCTAssertEqual(rig.page.lastModel?["title"], "beta")
        XCTAssertEqual(rig.page.lastModel?["message"], "There's nothing to manage for this purchase.")
        rig.send(Self.action("back"))
        XCTAssertEqual(rig.session.route, [.home])
    }

    // MARK: Contact support

    @MainActor
    func testContactSupportOpensAMailWithDiagnostics() async throws {
        var configuration = CustomerCenterConfiguration.default
        configuration.support.email = "help@example.com"
        let rig = try CCSessionRig(dir: dir, configuration: configuration)
        try await rig.buy(FakeStoreFixture.monthly)
        rig.open()
        XCTAssertEqual(rig.page.lastModel?.ccPathIds, ["restore", "contact_support"])
        rig.send(#"{"event_name": "customer_center_path", "path_id": "contact_support"}"#)
        let mail = try XCTUnwrap(rig.page.mails.first)
        XCTAssertTrue(mail.absoluteString.hasPrefix("mailto:help@example.com?"), mail.absoluteString)
        let body = try XCTUnwrap(mail.absoluteString.components(separatedBy: "body=").last?.removingPercentEncoding)
        for line in [
            "User ID: \(Purchases.anonymousUser)", "App version: 1.0.0", "OS: Ubuntu 24.04",
            "Active entitlements: pro", "Sandbox: yes", "Paywall runtime: \(DeviceInfo.runtimeVersion)",
        ] {
            XCTAssertTrue(body.contains(line), "missing \(line) in \(body)")
        }
        XCTAssertNil(rig.session.dialog)
    }

    @MainActor
    func testContactSupportWithoutAMailAppShowsTheAddress() async throws {
        var configuration = CustomerCenterConfiguration.default
        configuration.support.email = "help@example.com"
        let rig = try CCSessionRig(dir: dir, configuration: configuration)
        rig.page.mailAppAvailable = false
        rig.open()
        rig.send(#"{"event_name": "customer_center_path", "path_id": "contact_support"}"#)
        XCTAssertEqual(rig.session.dialog?.copyableText, "help@example.com")
        XCTAssertEqual(rig.session.dialog?.message, "No mail app is set up. Write to us at help@example.com.")
        rig.send(Self.action("copy"))
        XCTAssertEqual(rig.page.copied, ["help@example.com"])
        rig.send(Self.action("ok"))
        XCTAssertNil(rig.session.dialog)
    }

    @MainActor
    func testContactSupportIsNotOnTheScreenWithoutAnEmail() async throws {
        let rig = try CCSessionRig(dir: dir)
        rig.open()
        rig.send(#"{"event_name": "customer_center_path", "path_id": "contact_support"}"#)
        XCTAssertEqual(rig.page.mails, [])
        XCTAssertEqual(rig.events(named: EventName.pageMessageInvalid).count, 1)
    }
}
