import Foundation
import XCTest

@testable import PaywallCore

/// `Purchases.refreshEveryUser`: after a store action, every user's cold-start status follows the store.
final class EveryUserSyncTests: FakeStoreTestCase {
    private var cacheDir: URL!
    override func setUpWithError() throws {
        try super.setUpWithError()
        cacheDir = try makeTemporaryDirectory("EveryUserSyncTests")
    }
    override func tearDown() {
        removeTemporaryDirectory(cacheDir)
        super.tearDown()
    }

    @MainActor
    private func purchases(_ store: FakeStore, cache: EntitlementCache, user: String) throws -> Purchases {
        try Purchases(
            controller: store, catalog: store.catalog, cache: cache, transactionSource: store,
            events: EventDispatcher(), userId: user)
    }

    @MainActor
    func testResetAndClockMovesReachEveryStoreUserButNotTheAppsOwn() async throws {
        let store = try makeStore()
        let cache = try EntitlementCache(path: cacheDir.appendingPathComponent("entitlements.sqlite").path)
        let alice = try purchases(store, cache: cache, user: "alice")
        try store.seed(F.monthly, .cancelled)
        try alice.refresh()
        try cache.appSetStatus(user: "carol", .active(["pro"]))
        let tester = try purchases(store, cache: cache, user: Purchases.anonymousUser)

        try store.advance(ClockAdvance(value: 2, unit: .month))
        try tester.refreshEveryUser()
        let (expired, info) = try cache.coldStartStatus(user: "alice")
        XCTAssertEqual(expired, .inactive, "the clock moved past alice's last period")
        XCTAssertEqual(info.entitlements.first?.state, .expired)

        try store.reset()
        try tester.refreshEveryUser()
        XCTAssertEqual(try cache.transactions(user: "alice"), [])
        XCTAssertEqual(try cache.coldStartStatus(user: "carol").0, .active(["pro"]), "the app sets carol's status itself")
        XCTAssertEqual(tester.userId, Purchases.anonymousUser, "the current user stays loaded")
        XCTAssertEqual(store.userId, Purchases.anonymousUser)
    }
}
