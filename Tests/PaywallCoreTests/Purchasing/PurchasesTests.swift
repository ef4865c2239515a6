import Foundation
import XCTest

@testable import PaywallCore

/// A purchase controller whose answers the test scripts; `purchase` can be held open.
@MainActor
final class ScriptedController: PurchaseController {
    var purchaseResults: [PurchaseResult] = []
    var restoreResult: RestorationResult = .restored
    var purchased: [String] = []
    /// While set, `purchase` waits until `release()`.
    var hold = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func purchase(_ product: Product) async -> PurchaseResult {
        purchased.append(product.id)
        if hold { await withCheckedContinuation { waiting.append($0) } }
        return purchaseResults.isEmpty ? .purchased : purchaseResults.removeFirst()
    }

    func restorePurchases() async -> RestorationResult { restoreResult }

    func release() {
        hold = false
        for continuation in waiting { continuation.resume() }
        waiting = []
    }
}

let testCatalog = Catalog(products: [
    Product(
        id: "pro.monthly", displayName: "Pro Monthly", price: Decimal(string: "7.99")!, currencyCode: "USD",
        kind: .autoRenewable, period: SubscriptionPeriod(value: 1, unit: .month), subscriptionGroup: "pro",
        groupRank: 2, introductoryOffer: IntroductoryOffer(mode: .freeTrial, period: SubscriptionPeriod(value: 1, unit: .week)),
        entitlements: ["pro"]),
    Product(id: "credits", displayName: "Credits", price: Decimal(string: "0.99")!, currencyCode: "USD", kind: .consumable),
    Product(
        id: "lifetime", displayName: "Lifetime", price: 99, currencyCode: "USD", kind: .nonConsumable,
        entitlements: ["pro"]),
])

/// The purchase state in app mode (the app owns the status) and runtime mode (a store does).
final class PurchasesTests: XCTestCase {
    private var dir: URL!
    override func setUpWithError() throws { dir = try makeTemporaryDirectory("PurchasesTests") }
    override func tearDown() { removeTemporaryDirectory(dir) }

    @MainActor
    private func appMode(_ events: EventDispatcher = EventDispatcher(), user: String = Purchases.anonymousUser) throws
        -> Purchases
    {
        try Purchases(
            controller: ScriptedController(), catalog: testCatalog,
            cache: EntitlementCache(path: dir.appendingPathComponent("c.sqlite").path),
            transactionSource: nil, events: events, userId: user)
    }

    @MainActor
    func testAppSetStatusIsCachedForTheNextColdStart() async throws {
        var names: [EventName] = []
        let events = EventDispatcher()
        events.observe { names.append($0.name) }
        let purchases = try appMode(events)
        XCTAssertEqual(purchases.subscriptionStatus, .unknown)
        try purchases.setSubscriptionStatus(.active(["pro"]))
        XCTAssertEqual(names, [.subscriptionStatusDidChange])
        try purchases.setSubscriptionStatus(.active(["pro"]))
        XCTAssertEqual(names.count, 1, "no event when nothing changed")
        XCTAssertEqual(try appMode().subscriptionStatus, .active(["pro"]), "a fresh start has it at once")
    }

    @MainActor
    func testIdentifyKeepsEachUsersStatusApart() async throws {
        let purchases = try appMode()
        try purchases.setSubscriptionStatus(.active(["pro"]))
        try purchases.identify("bob")
        XCTAssertEqual(purchases.subscriptionStatus, .unknown)
        try purchases.setSubscriptionStatus(.inactive)
        try purchases.identify(Purchases.anonymousUser)
        XCTAssertEqual(purchases.subscriptionStatus, .active(["pro"]))
    }

    @MainActor
    func testWaitingForAnUnknownStatusEndsWhenItArrives() async throws {
        let purchases = try appMode()
        Task { @MainActor in try purchases.setSubscriptionStatus(.inactive) }
        let known = await purchases.waitForKnownStatus(timeout: 30)
        XCTAssertTrue(known)
    }

    @MainActor
    func testWaitingForAnUnknownStatusIsBounded() async throws {
        let purchases = try appMode()
        let known = await purchases.waitForKnownStatus(timeout: 0.05)
        XCTAssertFalse(known)
    }

    @MainActor
    func testOwnershipNeedsEveryEntitlementOfTheProduct() async throws {
        let purchases = try appMode()
        try purchases.setSubscriptionStatus(.active(["pro"]))
        XCTAssertTrue(purchases.alreadyOwns(testCatalog.product(id: "pro.monthly")!))
        XCTAssertTrue(purchases.alreadyOwns(testCatalog.product(id: "lifetime")!))
        XCTAssertFalse(purchases.alreadyOwns(testCatalog.product(id: "credits")!), "consumables are bought again")
        try purchases.setSubscriptionStatus(.inactive)
        XCTAssertFalse(purchases.alreadyOwns(testCatalog.product(id: "pro.monthly")!))
    }

    @MainActor
    func testRuntimeModeDerivesTheStatusFromTheStore() async throws {
        var events: [PaywallEvent] = []
        let dispatcher = EventDispatcher()
        dispatcher.observe { events.append($0) }
        let store = try FakeStore(catalog: testCatalog, databasePath: dir.appendingPathComponent("s.sqlite").path)
        let purchases = try Purchases(
            controller: store, catalog: testCatalog,
            cache: EntitlementCache(path: dir.appendingPathComponent("c.sqlite").path),
            transactionSource: store, events: dispatcher)
        try purchases.refresh()
        XCTAssertEqual(purchases.subscriptionStatus, .inactive)
        guard case .purchased = await store.purchase(testCatalog.product(id: "pro.monthly")!) else { return XCTFail() }
        try purchases.refresh()
        XCTAssertEqual(purchases.subscriptionStatus, .active(["pro"]))
        XCTAssertEqual(
            events.map(\.name),
            [
                .subscriptionStatusDidChange, .customerInfoDidChange,
                .subscriptionStatusDidChange,
            ])
        XCTAssertEqual(events.last?.params["entitlements"], ["pro"])
    }

    // MARK: A cache that cannot be written

    @MainActor
    private func runtimeMode(_ events: EventDispatcher) throws -> (FakeStore, Purchases) {
        let store = try FakeStore(catalog: testCatalog, databasePath: dir.appendingPathComponent("s.sqlite").path)
        let purchases = try Purchases(
            controller: store, catalog: testCatalog,
            cache: EntitlementCache(path: cachePath), transactionSource: store, events: events)
        try purchases.refresh()
        return (store, purchases)
    }

    private var cachePath: String { dir.appendingPathComponent("c.sqlite").path }

    /// The status a fresh process reads from the cache file.
    private func coldStatus() throws -> SubscriptionStatus {
        try EntitlementCache(path: cachePath).coldStartStatus(user: Purchases.anonymousUser).0
    }

    /// A purchase the store made counts even when the cache cannot record it (SQLite refuses
    /// every write of the connection, as on a full disk): the status follows the store, the
    /// failure is an event of its own, and the next refresh that can write repairs the file.
    @MainActor
    func testStoreAnswerCountsWhenTheCacheCannotBeWrittenAndTheNextRefreshCatchesUp() async throws {
        var events: [PaywallEvent] = []
        let dispatcher = EventDispatcher()
        dispatcher.observe { events.append($0) }
        let (store, purchases) = try runtimeMode(dispatcher)
        try refuseWrites(purchases.cache)
        let product = testCatalog.product(id: "pro.monthly")!
        guard case .purchased = await store.purchase(product) else { return XCTFail("the store did not sell") }

        XCTAssertNoThrow(try purchases.refresh(purchased: product))
        XCTAssertEqual(purchases.subscriptionStatus, .active(["pro"]))
        let failure = try XCTUnwrap(events.last { $0.name == EventName.entitlementCacheWriteFail })
        XCTAssertEqual(failure.params["product_identifier"], "pro.monthly")
        XCTAssertEqual(failure.params["transaction_id"], .string(try XCTUnwrap(store.currentTransactions().last).id))
        XCTAssertTrue(failure.params["message"]?.stringValue?.contains("readonly") ?? false, "\(failure.params)")
        XCTAssertEqual(try coldStatus(), .inactive, "the file still holds the status from before")

        try refuseWrites(purchases.cache, false)
        try purchases.refresh()
        XCTAssertEqual(try coldStatus(), .active(["pro"]), "the next refresh brought the cache up to date")
        XCTAssertEqual(events.filter { $0.name == EventName.entitlementCacheWriteFail }.count, 1)
    }

    /// The app's word counts at once even when the cache cannot keep it for the next start;
    /// the app hears that the cache write failed.
    @MainActor
    func testAppSetStatusAppliesWhenTheCacheCannotBeWritten() async throws {
        var names: [EventName] = []
        let events = EventDispatcher()
        events.observe { names.append($0.name) }
        let purchases = try appMode(events)
        try refuseWrites(purchases.cache)
        XCTAssertThrowsError(try purchases.setSubscriptionStatus(.active(["pro"])))
        XCTAssertEqual(purchases.subscriptionStatus, .active(["pro"]))
        XCTAssertEqual(names, [.subscriptionStatusDidChange, EventName.entitlementCacheWriteFail])
    }

    /// A restore the store answered is a restore, whether or not the cache could keep it.
    @MainActor
    func testRestoreWhoseCacheWriteFailsStillRestores() async throws {
        var names: [EventName] = []
        let dispatcher = EventDispatcher()
        dispatcher.observe { names.append($0.name) }
        let (store, purchases) = try runtimeMode(dispatcher)
        try refuseWrites(purchases.cache)
        guard case .purchased = await store.purchase(testCatalog.product(id: "lifetime")!) else { return XCTFail() }
        let outcome = await purchases.restore()
        XCTAssertEqual(outcome, .restored)
        XCTAssertEqual(purchases.subscriptionStatus, .active(["pro"]))
        XCTAssertTrue(names.contains(EventName.entitlementCacheWriteFail), "\(names)")
    }
}

/// Makes SQLite refuse every write of the cache's connection (`PRAGMA query_only`), as it
/// refuses writes to a full disk; `false` lets them through again.
func refuseWrites(_ cache: EntitlementCache, _ refuse: Bool = true) throws {
    try cache.database.execute("PRAGMA query_only = \(refuse ? 1 : 0)")
}
