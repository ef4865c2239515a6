import Foundation
import XCTest

@testable import PaywallCore

/// `Purchases.purchase` and `Purchases.restore`: the one path every purchase and restore takes
/// (a paywall's, a customer center's plan change, an app's own call).
final class PurchaseAndRestoreTests: XCTestCase {
    private typealias F = FakeStoreFixture
    private var dir: URL!
    override func setUpWithError() throws { dir = try makeTemporaryDirectory("PurchaseAndRestoreTests") }
    override func tearDown() { removeTemporaryDirectory(dir) }

    @MainActor
    private final class Recorder {
        var events: [PaywallEvent] = []
        var names: [EventName] { events.map(\.name) }
        let dispatcher = EventDispatcher()
        init() { dispatcher.observe { [unowned self] in self.events.append($0) } }
    }

    @MainActor
    private func purchases(
        _ controller: PurchaseController, source: TransactionSource?, catalog: Catalog,
        user: String = Purchases.anonymousUser, events: EventDispatcher
    ) throws -> Purchases {
        let purchases = try Purchases(
            controller: controller, catalog: catalog,
            cache: EntitlementCache(path: dir.appendingPathComponent("c.sqlite").path),
            transactionSource: source, events: events, userId: user)
        try purchases.refresh()
        return purchases
    }

    /// An app calling `purchase` itself gets the events a paywall purchase reports, on `events`.
    @MainActor
    func testAnAppsOwnPurchaseReportsEveryStep() async throws {
        let recorder = Recorder()
        let controller = ScriptedController()
        let purchases = try purchases(controller, source: nil, catalog: testCatalog, events: recorder.dispatcher)
        var storeCalls = 0
        let attempt = await purchases.purchase(productId: "credits", beforeStoreCall: { storeCalls += 1 })
        guard case .purchased = attempt else { return XCTFail("\(attempt)") }
        XCTAssertEqual(recorder.names, [.transactionStart, .transactionComplete, .nonRecurringProductPurchase])
        XCTAssertEqual(recorder.events.map(\.params), Array(repeating: ["product_identifier": "credits"], count: 3))
        XCTAssertEqual(controller.purchased, ["credits"])
        XCTAssertEqual(storeCalls, 1)
    }

    /// Two processes of one app buy the same lifetime product at once, each before it knew of
    /// the other's: the store, deciding in one write transaction, charges once, and the second
    /// is told it is already owned (`transaction_restore`), not `transaction_complete`.
    @MainActor
    func testTheSecondOfTwoBuyersAtOnceIsToldItIsAlreadyOwned() async throws {
        let (first, second) = (Recorder(), Recorder())
        var buyers: [Purchases] = []
        for (index, recorder) in [first, second].enumerated() {
            let store = try makeFakeStore(in: dir)
            let purchases = try Purchases(
                controller: store, catalog: store.catalog,
                cache: EntitlementCache(path: dir.appendingPathComponent("cache-\(index).sqlite").path),
                transactionSource: store, events: recorder.dispatcher)
            try purchases.refresh()
            buyers.append(purchases)
        }
        guard case .purchased = await buyers[0].purchase(productId: "lifetime") else { return XCTFail() }
        let attempt = await buyers[1].purchase(productId: "lifetime")
        guard case .alreadyOwned = attempt else { return XCTFail("\(attempt)") }
        XCTAssertTrue(first.names.contains(.transactionComplete))
        XCTAssertEqual(
            second.names.filter { $0 != .customerInfoDidChange && $0 != .subscriptionStatusDidChange },
            [
                .transactionStart, .transactionRestore,
            ])
        XCTAssertEqual(try makeFakeStore(in: dir).allRecords().count, 1, "charged once")
        XCTAssertTrue(buyers[1].customerInfo.entitlements.contains { $0.id == "lifetime" && $0.isActive })
    }

    /// Nothing is asked of the store for an unknown or owned product, so no progress shows.
    @MainActor
    func testNothingOwnedOrUnknownReachesTheStore() async throws {
        let recorder = Recorder()
        let controller = ScriptedController()
        let purchases = try purchases(controller, source: nil, catalog: testCatalog, events: recorder.dispatcher)
        try purchases.setSubscriptionStatus(.active(["pro"]))
        recorder.events = []
        var storeCalls = 0
        guard case .unknownProduct = await purchases.purchase(productId: "nope", beforeStoreCall: { storeCalls += 1 })
        else { return XCTFail() }
        guard case .alreadyOwned = await purchases.purchase(productId: "lifetime", beforeStoreCall: { storeCalls += 1 })
        else { return XCTFail() }
        XCTAssertEqual(recorder.names, [.transactionFail, .transactionRestore])
        XCTAssertEqual(recorder.events[1].params, ["product_identifier": "lifetime"])
        XCTAssertEqual(storeCalls, 0)
        XCTAssertEqual(controller.purchased, [])
    }

    /// A paywall's purchase of another plan of a group the user has is owned (nothing is
    /// charged twice); the customer center's plan change to it is a purchase. Its own plan is
    /// owned either way.
    @MainActor
    func testAPlanChangeIsNotMistakenForOwningTheGroup() async throws {
        let recorder = Recorder()
        let store = try makeFakeStore(in: dir)
        let purchases = try purchases(store, source: store, catalog: F.catalog(), events: recorder.dispatcher)
        guard case .purchased = await purchases.purchase(F.monthly) else { return XCTFail() }
        recorder.events = []

        guard case .alreadyOwned = await purchases.purchase(F.yearly) else { return XCTFail() }
        guard case .alreadyOwned = await purchases.purchase(F.monthly, changingPlan: true) else { return XCTFail() }
        XCTAssertEqual(recorder.names, [.transactionRestore, .transactionRestore])
        XCTAssertFalse(try store.currentTransactions().contains { $0.productId == F.yearly.id })

        recorder.events = []
        guard case .purchased = await purchases.purchase(F.yearly, changingPlan: true) else { return XCTFail() }
        let yearly = try XCTUnwrap(try store.currentTransactions().last { $0.productId == F.yearly.id })
        XCTAssertEqual(
            recorder.names.filter { $0.rawValue.hasPrefix("transaction_") }, [.transactionStart, .transactionComplete])
        XCTAssertEqual(recorder.events.first { $0.name == .transactionComplete }?.params["transaction_id"], .string(yearly.id))
        XCTAssertTrue(purchases.customerInfo.transactions.contains { $0.id == yearly.id }, "the status was read again")
    }

    /// `restore` reports its start and its outcome on `events` when no one else takes them.
    @MainActor
    func testRestoreReportsItsStartAndOutcome() async throws {
        let recorder = Recorder()
        let controller = ScriptedController()
        let purchases = try purchases(controller, source: nil, catalog: testCatalog, events: recorder.dispatcher)
        try purchases.setSubscriptionStatus(.inactive)
        recorder.events = []
        let outcome = await purchases.restore()
        XCTAssertEqual(outcome, .nothingToRestore)
        XCTAssertEqual(recorder.names, [.restoreStart, .restoreFail])
        XCTAssertEqual(recorder.events[1].params["message"], "no active purchases to restore")
    }

    /// A store whose restore moves purchases between app users (it says so through
    /// `TransactionSource`, whatever its type) brings every user's cached status along.
    @MainActor
    func testARestoreThatMovesPurchasesUpdatesEveryUsersCache() async throws {
        let store = SharedAccountStore(try makeFakeStore(in: dir))
        let alice = try purchases(store, source: store, catalog: F.catalog(), user: "alice", events: EventDispatcher())
        guard case .purchased = await alice.purchase(F.lifetime) else { return XCTFail() }
        XCTAssertEqual(try alice.cache.coldStartStatus(user: "alice").0, .active(["lifetime"]))

        let bob = try purchases(store, source: store, catalog: F.catalog(), user: "bob", events: EventDispatcher())
        let outcome = await bob.restore()
        XCTAssertEqual(outcome, .restored)
        XCTAssertEqual(bob.subscriptionStatus, .active(["lifetime"]))
        XCTAssertEqual(try bob.cache.coldStartStatus(user: "alice").0, .inactive, "the purchase moved to bob")
        XCTAssertEqual(bob.userId, "bob")
    }
}

/// A store that is not a `FakeStore` but whose restore moves purchases between app users, as
/// a real store account shared by several app users would: it forwards to a fake store.
@MainActor
private final class SharedAccountStore: PurchaseController, TransactionSource {
    let store: FakeStore
    init(_ store: FakeStore) { self.store = store }
    func purchase(_ product: Product) async -> PurchaseResult { await store.purchase(product) }
    func restorePurchases() async -> RestorationResult { await store.restorePurchases() }
    func currentTransactions() throws -> [StoreTransaction] { try store.currentTransactions() }
    func now() throws -> Date { try store.now() }
    func switchUser(_ userId: String) { store.switchUser(userId) }
    var restoreTransfersPurchases: Bool { true }
    func accountUserIds() throws -> [String] { try store.accountUserIds() }
}
