import Foundation
import XCTest

@testable import PaywallCore

/// Which customer-center paths appear where and what they resolve to, the rows built from
/// transactions, banners, and the screen models: `CustomerCenterRules`, `CustomerCenterPurchase`,
/// `CustomerCenterScreen`, `UpdateCheck` and `Version`.
final class CustomerCenterRulesTests: XCTestCase {
    typealias F = CCFixture
    typealias Config = CustomerCenterConfiguration

    private var dir: URL!
    override func setUpWithError() throws { dir = try makeTemporaryDirectory("CustomerCenterRulesTests") }
    override func tearDown() { removeTemporaryDirectory(dir) }

    private func resolve(
        _ type: Config.PathType, _ purchase: CustomerCenterPurchase,
        _ capabilities: StoreCapabilities = F.appStoreController, webManagementURL: URL? = nil,
        at now: Date = F.now
    ) -> CustomerCenterRules.Resolution? {
        CustomerCenterRules.resolve(
            type, for: purchase, capabilities: capabilities, catalog: F.catalog,
            webManagementURL: webManagementURL, now: now)
    }

    private func detailPathIds(
        _ purchase: CustomerCenterPurchase, _ capabilities: StoreCapabilities = F.appStoreController,
        configuration: Config = .default
    ) -> [String] {
        CustomerCenterRules.detailPaths(
            configuration.managementScreen, for: purchase, capabilities: capabilities,
            catalog: F.catalog, webManagementURL: configuration.support.webManagementURL,
            now: F.now
        ).map(\.path.id)
    }

    // MARK: 0. Capabilities come from SubscriptionManaging

    /// Superwall's two methods give the customer center nothing to act with; what a controller
    /// adopts of `SubscriptionManaging` it offers, and nothing else.
    @MainActor
    func testCapabilitiesAreWhatTheControllerAdoptsOfSubscriptionManaging() {
        XCTAssertEqual(StoreCapabilities(ScriptedController()), StoreCapabilities())
        let refundsOnly = CCController()
        refundsOnly.stores = [.appStore]
        refundsOnly.refunds = true
        XCTAssertEqual(StoreCapabilities(refundsOnly), StoreCapabilities(stores: [.appStore], canRequestRefunds: true))
    }

    // MARK: 1. Refund and change plan need the controller's store, never family sharing

    func testRefundAndChangePlanAppearForPurchasesOfStoresTheControllerActsOn() throws {
        let row = try F.row([F.sub("t1")])
        XCTAssertEqual(resolve(.refund(), row), .action)
        XCTAssertEqual(resolve(.changePlan(), row), .action)
        XCTAssertEqual(detailPathIds(row), ["change_plan", "refund", "manage_subscription"])
    }

    func testRefundAndChangePlanHiddenForStoresTheControllerDoesNotActOn() throws {
        let row = try F.row([F.sub("t1", store: .appStore)])
        var other = F.appStoreController
        other.stores = [.playStore, .stripe]
        XCTAssertNil(resolve(.refund(), row, other))
        XCTAssertNil(resolve(.changePlan(), row, other))
        XCTAssertNil(resolve(.refund(), row, StoreCapabilities()))
        XCTAssertNil(resolve(.changePlan(), row, StoreCapabilities()))
    }

    func testRefundAndChangePlanHiddenWhenTheControllerCannotDoThem() throws {
        let row = try F.row([F.sub("t1")])
        var noRefunds = F.appStoreController
        noRefunds.canRequestRefunds = false
        XCTAssertNil(resolve(.refund(), row, noRefunds))
        XCTAssertEqual(resolve(.changePlan(), row, noRefunds), .action)
        var noPlanChanges = F.appStoreController
        noPlanChanges.canChangePlans = false
        XCTAssertNil(resolve(.changePlan(), row, noPlanChanges))
        XCTAssertEqual(resolve(.refund(), row, noPlanChanges), .action)
    }

    func testRefundAndChangePlanNeverAppearForFamilySharedPurchases() throws {
        let row = try F.row([F.sub("t1", family: true)])
        XCTAssertTrue(row.isActive)
        XCTAssertNil(resolve(.refund(), row))
        XCTAssertNil(resolve(.changePlan(), row))
        XCTAssertFalse(detailPathIds(row).contains("refund"))
        XCTAssertFalse(detailPathIds(row).contains("change_plan"))
    }

    func testChangePlanNeedsAnotherPlanInTheGroup() throws {
        let row = try F.row([F.sub("t1")])
        XCTAssertEqual(resolve(.changePlan(productIds: ["pro.yearly"]), row), .action)
        XCTAssertNil(resolve(.changePlan(productIds: ["pro.monthly"]), row), "the current plan is no choice")
        XCTAssertEqual(CustomerCenterRules.planChoices(for: row, productIds: nil, catalog: F.catalog).map(\.id), ["pro.yearly"])
    }

    // MARK: 2. When a refund is hidden

    func testRefundHiddenDuringAFreeTrial() throws {
        let trial = try F.row([F.sub("t1", length: 7, offer: .trial, price: 0)])
        XCTAssertTrue(trial.isActive)
        XCTAssertNil(resolve(.refund(), trial))
        // The same purchase at its regular price offers one.
        XCTAssertEqual(resolve(.refund(), try F.row([F.sub("t1", length: 7)])), .action)
    }

    func testRefundHiddenOnARefundedPurchase() throws {
        let refunded = try F.row([F.sub("t1", willRenew: false, revoked: true)])
        XCTAssertEqual(refunded.state, .revoked)
        XCTAssertNil(resolve(.refund(), refunded))
        XCTAssertFalse(detailPathIds(refunded).contains("refund"))
    }

    func testRefundHiddenForFreeProducts() throws {
        let free = try F.row([F.sub("t1", product: "free.monthly", price: 0, entitlements: ["basic"], group: "free")])
        XCTAssertEqual(free.product?.price, 0)
        XCTAssertNil(resolve(.refund(), free))
        // A product the catalog does not list is judged by what the transaction cost.
        let uncatalogued = try F.row([F.sub("t2", product: "gone.monthly", price: 0, group: nil)])
        XCTAssertNil(uncatalogued.product)
        XCTAssertNil(resolve(.refund(), uncatalogued))
        let paidUncatalogued = try F.row([F.sub("t3", product: "gone.monthly", price: 3, group: nil)])
        XCTAssertEqual(resolve(.refund(), paidUncatalogued), .action)
    }

    func testRefundHiddenOutsideItsWindowCountedFromTheLatestTransaction() throws {
        let week = 7 * F.day
        let tenDaysAgo = try F.row([F.sub("t1", daysAgo: 10)])
        XCTAssertEqual(resolve(.refund(window: 14 * F.day), tenDaysAgo), .action)
        XCTAssertNil(resolve(.refund(window: week), tenDaysAgo))
        XCTAssertEqual(resolve(.refund(window: 10 * F.day), tenDaysAgo), .action, "exactly at the window's end it still shows")
        // A subscription started 65 days ago and renewed 5 days ago: the renewal counts.
        let renewed = try F.row([
            F.sub("t1", daysAgo: 65), F.sub("t2", original: "t1", daysAgo: 35), F.sub("t3", original: "t1", daysAgo: 5),
        ])
        XCTAssertEqual(renewed.latest?.id, "t3")
        XCTAssertEqual(resolve(.refund(window: week), renewed), .action)
        XCTAssertNil(resolve(.refund(window: 3 * F.day), renewed))
    }

    // MARK: 3. Manage ("Cancel subscription")

    func testManageShowsForAnActiveRenewingSubscriptionTheControllerCanManage() throws {
        let row = try F.row([F.sub("t1")])
        XCTAssertEqual(resolve(.manageSubscription, row), .action)
        let model = try F.screen([row]).model(route: [.home, .detail(purchaseKey: "pro.monthly")], dialog: nil, busy: false)
        let manage = model.ccRows.first { $0["path_id"] == "manage_subscription" }
        XCTAssertEqual(manage?["title"], "Cancel subscription")
        XCTAssertEqual(manage?["destructive"], true)
    }

    func testManageHiddenWhenAutoRenewIsOff() throws {
        let row = try F.row([F.sub("t1", willRenew: false)])
        XCTAssertTrue(row.isActive)
        XCTAssertNil(resolve(.manageSubscription, row))
    }

    func testManageHiddenWhenExpired() throws {
        let row = try F.row([F.sub("t1", daysAgo: 40, length: 30)])
        XCTAssertFalse(row.isActive)
        XCTAssertEqual(row.state, .expired)
        XCTAssertNil(resolve(.manageSubscription, row))
        XCTAssertFalse(detailPathIds(row).contains("manage_subscription"))
    }

    func testManageHiddenWhenTheControllerCannotManageIt() throws {
        let row = try F.row([F.sub("t1")])
        var cannot = F.appStoreController
        cannot.canManageSubscriptions = false
        XCTAssertNil(resolve(.manageSubscription, row, cannot))
        var otherStore = F.appStoreController
        otherStore.stores = [.fakeStore]
        XCTAssertNil(resolve(.manageSubscription, row, otherStore))
        let nonRenewing = try F.row([F.sub("t2", product: "pass", willRenew: false, group: nil, kind: .nonRenewing)])
        XCTAssertNil(resolve(.manageSubscription, nonRenewing))
    }

    // MARK: 4. The one line when nothing applies

    func testNothingToManageLineForPlayStorePurchases() throws {
        let row = try F.row([F.sub("t1", store: .playStore)])
        XCTAssertEqual(detailPathIds(row), [])
        XCTAssertEqual(
            CustomerCenterRules.nothingToManageKey(for: row, capabilities: F.appStoreController), "cc.detail.google_play")
        let model = try F.screen([row]).model(route: [.home, .detail(purchaseKey: "pro.monthly")], dialog: nil, busy: false)
        XCTAssertEqual(model["message"], "Manage this subscription through Google Play.")
        XCTAssertEqual(model.ccPathIds, [])
    }

    func testNothingToManageLineForActivePurchasesFromAnotherStore() throws {
        let row = try F.row([F.sub("t1", store: .other)])
        XCTAssertTrue(row.isActive)
        XCTAssertEqual(detailPathIds(row), [])
        XCTAssertEqual(
            CustomerCenterRules.nothingToManageKey(for: row, capabilities: F.appStoreController), "cc.detail.elsewhere")
        let model = try F.screen([row]).model(route: [.home, .detail(purchaseKey: "pro.monthly")], dialog: nil, busy: false)
        XCTAssertEqual(model["message"], "Manage this subscription where you bought it.")
    }

    func testNothingToManageLineOtherwise() throws {
        // An expired purchase from another store.
        let expiredElsewhere = try F.row([F.sub("t1", store: .other, daysAgo: 40)])
        XCTAssertEqual(
            CustomerCenterRules.nothingToManageKey(for: expiredElsewhere, capabilities: F.appStoreController),
            "cc.detail.nothing")
        // An active free trial of the controller's own store with auto-renew off.
        let own = try F.row([F.sub("t2", length: 7, willRenew: false, offer: .trial, price: 0)])
        XCTAssertTrue(own.isActive)
        XCTAssertEqual(detailPathIds(own), [])
        XCTAssertEqual(CustomerCenterRules.nothingToManageKey(for: own, capabilities: F.appStoreController), "cc.detail.nothing")
        let model = try F.screen([own]).model(route: [.home, .detail(purchaseKey: "pro.monthly")], dialog: nil, busy: false)
        XCTAssertEqual(model["message"], "There's nothing to manage for this purchase.")
        // An entitlement with no transaction.
        let granted = F.rows([], status: .active(["beta"]))
        XCTAssertEqual(
            CustomerCenterRules.nothingToManageKey(for: try XCTUnwrap(granted.first), capabilities: F.appStoreController),
            "cc.detail.nothing")
    }

    func testDetailScreenWithPathsHasNoNothingToManageLine() throws {
        let row = try F.row([F.sub("t1")])
        let model = try F.screen([row]).model(route: [.home, .detail(purchaseKey: "pro.monthly")], dialog: nil, busy: false)
        XCTAssertNil(model["message"])
        XCTAssertEqual(model.ccPathIds, ["change_plan", "refund", "manage_subscription"])
        XCTAssertEqual(model["title"], "Pro Monthly")
        XCTAssertEqual(model["back"], "Back")
    }

    // MARK: 5. Surveys

    func testSurveyIsAskedBeforeItsPathsAction() {
        let manage = Config.default.managementScreen.paths.first { $0.id == "manage_subscription" }!
        XCTAssertTrue(CustomerCenterRules.asksSurvey(manage, resolution: .action))
    }

    func testSurveyIsSkippedWhenThePathOpensAWebManagementPageOrTheReceiptLink() {
        let manage = Config.default.managementScreen.paths.first { $0.id == "manage_subscription" }!
        XCTAssertFalse(
            CustomerCenterRules.asksSurvey(manage, resolution: .webManagement(URL(string: "https://billing.example.com")!)))
        XCTAssertFalse(CustomerCenterRules.asksSurvey(manage, resolution: .receiptLink))
    }

    func testNoSurveyForAPathWithoutOne() {
        let refund = Config.default.managementScreen.paths.first { $0.id == "refund" }!
        XCTAssertNil(refund.survey)
        XCTAssertFalse(CustomerCenterRules.asksSurvey(refund, resolution: .action))
    }

    // MARK: 6. Web purchases

    func testWebStoresCarryTheWebBadgeAndSuperwallItsOwn() throws {
        XCTAssertEqual(CustomerCenterRules.badgeKey(for: .stripe), "cc.badge.web")
        XCTAssertEqual(CustomerCenterRules.badgeKey(for: .paddle), "cc.badge.web")
        XCTAssertEqual(CustomerCenterRules.badgeKey(for: .lemonSqueezy), "cc.badge.web")
        XCTAssertTrue(CustomerCenterPurchase.webStores.contains(.lemonSqueezy), "a license is managed on the web")
        XCTAssertEqual(CustomerCenterRules.badgeKey(for: .superwall), "cc.badge.superwall")
        for store in [StoreKind.appStore, .playStore, .fakeStore, .custom, .other] {
            XCTAssertNil(CustomerCenterRules.badgeKey(for: store), "\(store)")
        }
        XCTAssertNil(CustomerCenterRules.badgeKey(for: nil))
        let rows = F.rows([F.sub("t1", store: .stripe), F.sub("t2", product: "pro.yearly", store: .superwall, daysAgo: 2)])
        let model = try F.screen(rows, configuration: .init(warnsAboutDuplicateSubscriptions: false))
            .model(route: [.home], dialog: nil, busy: false)
        let badges = Dictionary(
            uniqueKeysWithValues: model.ccRows.filter { $0["kind"] == "purchase" }
                .map { ($0["product_id"]?.stringValue ?? "", $0["badge"]?.stringValue ?? "") })
        XCTAssertEqual(badges, ["pro.monthly": "Web", "pro.yearly": "Superwall"])
        let detail = try F.screen(rows).model(route: [.home, .detail(purchaseKey: "pro.monthly")], dialog: nil, busy: false)
        XCTAssertEqual(detail["badge"], "Web")
    }

    func testWebPurchaseManagePathResolvesToTheWebManagementPage() throws {
        let url = URL(string: "https://billing.example.com/portal")!
        for store in [StoreKind.stripe, .paddle, .superwall] {
            let row = try F.row([F.sub("t1", store: store)])
            XCTAssertTrue(row.isWebPurchase)
            // The controller does not act on web stores: the page does the managing.
            XCTAssertEqual(
                resolve(.manageSubscription, row, F.appStoreController, webManagementURL: url), .webManagement(url), "\(store)")
        }
    }

    func testWebPurchaseWithoutManagementPageResolvesToTheReceiptLink() throws {
        let row = try F.row([F.sub("t1", store: .paddle)])
        XCTAssertEqual(resolve(.manageSubscription, row, F.appStoreController, webManagementURL: nil), .receiptLink)
        let model = try F.screen([row]).model(route: [.home, .detail(purchaseKey: "pro.monthly")], dialog: nil, busy: false)
        let manage = try XCTUnwrap(model.ccRows.first { $0["path_id"] == "manage_subscription" })
        XCTAssertEqual(manage["subtitle"], "Use the link in the receipt we emailed you to manage this subscription.")
        XCTAssertNil(model["message"])
    }

    // MARK: 7. Duplicate subscriptions

    func testDuplicateBannerWhenOneEntitlementIsActiveThroughTwoStores() throws {
        let rows = F.rows([F.sub("t1", store: .appStore), F.sub("t2", product: "pro.yearly", store: .stripe, daysAgo: 2)])
        XCTAssertEqual(rows.count, 2)
        XCTAssertTrue(CustomerCenterRules.hasDuplicateSubscriptions(rows))
        let model = try F.screen(rows).model(route: [.home], dialog: nil, busy: false)
        XCTAssertEqual(model.ccBannerKinds, ["duplicate"])
        XCTAssertEqual(
            model["banners"]?.arrayValue?.first?["text"],
            "You may be paying twice: this subscription is active through two stores. Cancel one of them to stop paying twice.")
    }

    func testNoDuplicateBannerWhenTheWarningIsOff() throws {
        let rows = F.rows([F.sub("t1", store: .appStore), F.sub("t2", product: "pro.yearly", store: .stripe, daysAgo: 2)])
        let model = try F.screen(rows, configuration: .init(warnsAboutDuplicateSubscriptions: false))
            .model(route: [.home], dialog: nil, busy: false)
        XCTAssertEqual(model.ccBannerKinds, [])
    }

    func testNoDuplicateBannerForOneStore() throws {
        let rows = F.rows([F.sub("t1", store: .appStore), F.sub("t2", product: "pro.yearly", store: .appStore, daysAgo: 2)])
        XCTAssertEqual(rows.count, 2)
        XCTAssertFalse(CustomerCenterRules.hasDuplicateSubscriptions(rows))
        XCTAssertEqual(try F.screen(rows).model(route: [.home], dialog: nil, busy: false).ccBannerKinds, [])
        // Nor when the second store's subscription has lapsed.
        let lapsed = F.rows([
            F.sub("t1", store: .appStore), F.sub("t2", product: "pro.yearly", store: .stripe, daysAgo: 40, length: 30),
        ])
        XCTAssertFalse(CustomerCenterRules.hasDuplicateSubscriptions(lapsed))
    }

    /// Apps commonly sell the same product id on two stores (App Store and Play Store): both
    /// chains are active and billed, so the user pays twice and must be warned.
    func testDuplicateBannerWhenTheSameProductIsActiveThroughTwoStores() throws {
        let rows = F.rows([F.sub("ios1", store: .appStore, daysAgo: 5), F.sub("gp1", store: .playStore, daysAgo: 2)])
        XCTAssertTrue(
            CustomerCenterRules.hasDuplicateSubscriptions(rows),
            "two active subscriptions of pro.monthly from APP_STORE and PLAY_STORE; rows: \(rows.map { "\($0.key)@\($0.store?.rawValue ?? "-")" })"
        )
        XCTAssertEqual(try F.screen(rows).model(route: [.home], dialog: nil, busy: false).ccBannerKinds, ["duplicate"])
    }

    // MARK: 8. Updates

    func testVersionOrderingComparesNumberByNumber() throws {
        let v = { (text: String) throws -> Version in try XCTUnwrap(Version(text), text) }
        XCTAssertGreaterThan(try v("2.10"), try v("2.9"))
        XCTAssertLessThan(try v("1.9.9"), try v("1.10"))
        XCTAssertEqual(try v("1.0"), try v("1.0.0"))
        XCTAssertEqual(try v("v1.2"), try v("1.2.0"))
        XCTAssertEqual(try v("1.2.0-beta"), try v("1.2"))
        XCTAssertFalse(try v("1.0") < v("1.0.0"))
        XCTAssertFalse(try v("1.0.0") < v("1.0"))
        XCTAssertNil(Version("beta"))
        XCTAssertNil(Version(""))
    }

    func testUpdateCheckIsOutdatedOnlyWhenTheInstalledVersionIsOlder() {
        XCTAssertTrue(UpdateCheck.isOutdated(installed: "2.9", latest: "2.10"))
        XCTAssertTrue(UpdateCheck.isOutdated(installed: "1.0.0", latest: "1.0.1"))
        XCTAssertFalse(UpdateCheck.isOutdated(installed: "2.10", latest: "2.9"))
        XCTAssertFalse(UpdateCheck.isOutdated(installed: "1.0", latest: "1.0.0"))
        XCTAssertFalse(UpdateCheck.isOutdated(installed: "1.0", latest: nil))
        XCTAssertFalse(UpdateCheck.isOutdated(installed: "", latest: "2.0"), "an unknown installed version warns of nothing")
    }

    func testUpdateBannerWhenTheInstalledVersionIsOlder() throws {
        let rows = F.rows([F.sub("t1")])
        let model = try F.screen(rows, appVersion: "2.9", latestVersion: "2.10").model(route: [.home], dialog: nil, busy: false)
        XCTAssertEqual(model.ccBannerKinds, ["update"])
        XCTAssertEqual(
            model["banners"]?.arrayValue?.first?["text"],
            "Version 2.10 is available. Update the app to get the latest fixes.")
        let current = try F.screen(rows, appVersion: "1.0", latestVersion: "1.0.0").model(
            route: [.home], dialog: nil, busy: false)
        XCTAssertEqual(current.ccBannerKinds, [])
    }

    func testNoUpdateBannerWhenShouldWarnToUpdateIsFalse() throws {
        var configuration = Config.default
        configuration.support.shouldWarnToUpdate = false
        let model = try F.screen(F.rows([F.sub("t1")]), configuration: configuration, appVersion: "1.0", latestVersion: "2.0")
            .model(route: [.home], dialog: nil, busy: false)
        XCTAssertEqual(model.ccBannerKinds, [])
    }

    private func writeCache(feed: String, version: String, checkedAt: Date) throws -> String {
        let path = dir.appendingPathComponent("update-check.json").path
        let entry: JSONValue = [
            "feed": .string(feed), "version": .string(version),
            "checked_at": .number(checkedAt.timeIntervalSince1970),
        ]
        try Data(entry.jsonText.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func testCachedVersionIsUsedWhenYoungerThanADayForTheSameFeed() throws {
        let feed = URL(string: "https://example.com/feed.json")!
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let check = UpdateCheck(
            cachePath: try writeCache(
                feed: feed.absoluteString, version: "3.1.4",
                checkedAt: now.addingTimeInterval(-23 * 3600)))
        XCTAssertEqual(check.cachedVersion(feed: feed, now: now), "3.1.4")
        XCTAssertEqual(check.cachedVersion(feed: feed, now: now.addingTimeInterval(-23 * 3600)), "3.1.4", "just written")
    }

    func testCachedVersionIsIgnoredWhenOlderThanADayOrForAnotherFeed() throws {
        let feed = URL(string: "https://example.com/feed.json")!
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let stale = UpdateCheck(
            cachePath: try writeCache(
                feed: feed.absoluteString, version: "3.1.4",
                checkedAt: now.addingTimeInterval(-25 * 3600)))
        XCTAssertNil(stale.cachedVersion(feed: feed, now: now))
        let fresh = UpdateCheck(
            cachePath: try writeCache(
                feed: feed.absoluteString, version: "3.1.4",
                checkedAt: now.addingTimeInterval(-60)))
        XCTAssertNil(fresh.cachedVersion(feed: URL(string: "https://example.com/other.json")!, now: now))
        XCTAssertEqual(fresh.cachedVersion(feed: feed, now: now), "3.1.4")
        XCTAssertNil(UpdateCheck(cachePath: dir.appendingPathComponent("missing.json").path).cachedVersion(feed: feed, now: now))
    }

    // MARK: 9. Titles

    func testTitleIsTheProductsDisplayName() throws {
        XCTAssertEqual(try F.row([F.sub("t1")]).title, "Pro Monthly")
        XCTAssertEqual(try F.row([F.oneTime("t2")]).title, "Lifetime")
    }

    func testTitleFallsBackToTheEntitlementNeverTheProductId() throws {
        let unknown = try F.row([F.sub("t1", product: "com.example.gone", entitlements: ["premium", "extra"], group: nil)])
        XCTAssertNil(unknown.product)
        XCTAssertEqual(unknown.title, "premium")
        let nameless = try F.row([F.sub("t2", product: "com.example.gone", entitlements: [], group: nil)])
        XCTAssertNil(nameless.title)
        let model = try F.screen([nameless]).model(route: [.home], dialog: nil, busy: false)
        let row = try XCTUnwrap(model.ccRows.first { $0["kind"] == "purchase" })
        XCTAssertEqual(row["title"], "Purchase")
        XCTAssertFalse(model.ccRows.contains { $0["title"] == "com.example.gone" })
        let detail = try F.screen([nameless]).model(
            route: [.home, .detail(purchaseKey: "com.example.gone")], dialog: nil, busy: false)
        XCTAssertEqual(detail["title"], "Purchase")
    }

    // MARK: 10. Renewals

    func testRepeatRenewalsCollapseIntoOneRowWhoseLatestIsTheNewest() throws {
        let rows = F.rows([
            F.sub("t3", original: "t1", daysAgo: 5), F.sub("t1", daysAgo: 65), F.sub("t2", original: "t1", daysAgo: 35),
        ])
        XCTAssertEqual(rows.count, 1)
        let row = try XCTUnwrap(rows.first)
        XCTAssertEqual(row.latest?.id, "t3")
        XCTAssertEqual(row.originalPurchaseDate, F.now.addingTimeInterval(-65 * F.day))
        XCTAssertTrue(row.isActive)
        XCTAssertEqual(row.kind, .subscription)
    }

    func testRowsListActiveSubscriptionsNewestFirstThenInactiveThenEntitlementsThenOneTimePurchases() {
        let rows = F.rows(
            [
                F.sub("a", daysAgo: 20),
                F.sub("b", product: "pro.yearly", daysAgo: 2, length: 1),
                F.sub("c", product: "team.monthly", daysAgo: 10, entitlements: ["team"], group: "team"),
                F.oneTime("d", daysAgo: 1),
            ], status: .active(["pro", "team", "lifetime", "beta"]))
        XCTAssertEqual(rows.map(\.key), ["team.monthly", "pro.monthly", "pro.yearly", "entitlement:beta", "lifetime"])
        XCTAssertEqual(rows.map(\.isActive), [true, true, false, true, true])
    }

    // MARK: 11. Cards and entitlement rows

    func testOneTimePurchasesAreCardsWithoutADetailScreen() throws {
        let rows = F.rows([F.oneTime("t1"), F.sub("t2")])
        XCTAssertEqual(rows.map(\.kind), [.subscription, .oneTime], "subscriptions first")
        let model = try F.screen(rows).model(route: [.home], dialog: nil, busy: false)
        let card = try XCTUnwrap(model.ccRows.first { $0["product_id"] == "lifetime" })
        XCTAssertEqual(card["kind"], "card")
        XCTAssertNil(card["path_id"], "a card opens nothing")
        let subscription = try XCTUnwrap(model.ccRows.first { $0["product_id"] == "pro.monthly" })
        XCTAssertEqual(subscription["path_id"], "detail")
        let sectionTitles = model["sections"]?.arrayValue?.compactMap { $0["title"]?.stringValue }
        XCTAssertEqual(sectionTitles, ["Your Subscriptions", "Purchases", "Account"])
    }

    func testActiveEntitlementWithoutATransactionIsARowWithADetailScreen() throws {
        let rows = F.rows([F.sub("t1")], status: .active(["pro", "beta"]))
        XCTAssertEqual(rows.map(\.key), ["pro.monthly", "entitlement:beta"], "pro is covered by its transaction")
        let granted = rows[1]
        XCTAssertEqual(granted.kind, .entitlement)
        XCTAssertEqual(granted.entitlementId, "beta")
        XCTAssertEqual(granted.title, "beta")
        XCTAssertTrue(granted.isActive)
        let model = try F.screen(rows).model(route: [.home], dialog: nil, busy: false)
        let row = try XCTUnwrap(model.ccRows.first { $0["entitlement_id"] == "beta" })
        XCTAssertEqual(row["kind"], "purchase")
        XCTAssertEqual(row["path_id"], "detail")
        XCTAssertEqual(row["subtitle"], "Active")
        let detail = try F.screen(rows).model(route: [.home, .detail(purchaseKey: "entitlement:beta")], dialog: nil, busy: false)
        XCTAssertEqual(detail["title"], "beta")
        XCTAssertEqual(detail["message"], "There's nothing to manage for this purchase.")
    }

    // MARK: 12. The management screen's own paths

    func testContactSupportAppearsOnlyOnceASupportEmailIsSet() throws {
        let screen = Config.default.managementScreen
        XCTAssertEqual(CustomerCenterRules.screenPaths(screen, support: .init()).map(\.id), ["restore"])
        XCTAssertEqual(CustomerCenterRules.screenPaths(screen, support: .init(email: "")).map(\.id), ["restore"])
        XCTAssertEqual(
            CustomerCenterRules.screenPaths(screen, support: .init(email: "help@example.com")).map(\.id),
            ["restore", "contact_support"])
        XCTAssertEqual(
            CustomerCenterRules.screenPaths(Config.default.noPurchasesScreen, support: .init(email: "help@example.com"))
                .map(\.id), ["restore", "contact_support"])
        var configuration = Config.default
        configuration.support.email = "help@example.com"
        let model = try F.screen([], configuration: configuration).model(route: [.home], dialog: nil, busy: false)
        XCTAssertEqual(model["screen"], "no_purchases")
        XCTAssertEqual(model.ccPathIds, ["restore", "contact_support"])
    }

    func testPurchasePathsNeverAppearOnTheManagementScreenItself() throws {
        var configuration = Config.default
        configuration.support.email = "help@example.com"
        configuration.managementScreen.paths.append(
            .init(
                id: "faq",
                type: .url(
                    URL(string: "https://example.com/faq")!,
                    title: "FAQ", openMethod: .inApp)))
        let ids = CustomerCenterRules.screenPaths(configuration.managementScreen, support: configuration.support).map(\.id)
        XCTAssertEqual(ids, ["restore", "contact_support", "faq"])
        let model = try F.screen(F.rows([F.sub("t1")]), configuration: configuration).model(
            route: [.home], dialog: nil, busy: false)
        XCTAssertEqual(model["screen"], "management")
        XCTAssertEqual(model.ccPathIds, ["restore", "contact_support", "faq"])
        XCTAssertEqual(model.ccRows.first { $0["path_id"] == "faq" }?["url"], "https://example.com/faq")
    }
}
