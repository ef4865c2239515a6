import PaywallCore
import XCTest

@testable import PaywallHost

/// What an app does through `Paywalls` alone, with real databases: seeding the fake store for
/// its tests, the enum skip reason, and the customer center's dismissal answer. Needs a display.
final class PaywallsFacadeTests: XCTestCase {
    private var dir: URL!
    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("PaywallsFacadeTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    @MainActor
    private func configure(store: PaywallsConfiguration.Store? = nil) throws -> Paywalls {
        let template = packageRoot.appendingPathComponent("templates/classic")
        let config = PaywallConfig(
            paywalls: [.init(id: "upsell", source: template.path)],
            placements: ["export_pdf": .init(paywall: "upsell", gated: true)])
        return try Paywalls.configure(
            .init(
                dataDirectory: dir.path,
                store: store ?? .fakeStore(catalog: template.appendingPathComponent("store.json").path),
                config: .value(config), logLevel: .none),
            resources: RuntimeResources(root: packageRoot))
    }

    /// `seedFakeStore(_:as:)` (what `FakeStore.seed` was to apps) puts the user in a state at
    /// once; a seeded subscriber is then skipped with `.subscribed` and the feature runs.
    @MainActor
    func testASeededSubscriberIsSkippedWithTheSubscribedReason() async throws {
        guard try startToolkitOnDisplay() else { return }
        let paywalls = try configure()
        XCTAssertEqual(paywalls.subscriptionStatus, .inactive)
        let steps = try paywalls.seedFakeStore("lumen.pro.monthly", as: .subscribed)
        XCTAssertFalse(steps.isEmpty)
        XCTAssertEqual(paywalls.subscriptionStatus, .active(["pro"]))
        var skipped: [SkipReason] = []
        var ran = false
        paywalls.register(placement: "export_pdf", handler: .init(skipped: { skipped.append($0) })) { ran = true }
        _ = await runLoop { ran }
        XCTAssertEqual(skipped, [.subscribed])
        XCTAssertTrue(ran)
    }

    /// `restorePurchases()` says what the store found: nothing for a new user, the purchase
    /// once there is one; without a store it fails, saying so.
    @MainActor
    func testRestoreSaysWhatTheStoreFound() async throws {
        guard try startToolkitOnDisplay() else { return }
        let paywalls = try configure()
        let nothing = await paywalls.restorePurchases()
        XCTAssertEqual(nothing, .nothingToRestore)
        try paywalls.seedFakeStore("lumen.pro.yearly", as: .subscribed)
        let restored = await paywalls.restorePurchases()
        XCTAssertEqual(restored, .restored)
        let previews = try configure(store: PaywallsConfiguration.Store.none)
        let failed = await previews.restorePurchases()
        XCTAssertEqual(failed, .failed(reason: "no store is configured"))
    }

    @MainActor
    func testSeedingSaysWhatIsWrong() throws {
        guard try startToolkitOnDisplay() else { return }
        let paywalls = try configure()
        XCTAssertThrowsError(try paywalls.seedFakeStore("lumen.nope", as: .subscribed)) { error in
            guard case FakeStoreSeedingError.unknownProduct("lumen.nope", let known) = error else {
                return XCTFail("\(error)")
            }
            XCTAssertTrue(known.contains("lumen.pro.monthly"), "\(known)")
        }
        XCTAssertThrowsError(try paywalls.seedFakeStore("lumen.pro.lifetime", as: .grace)) { error in
            XCTAssertTrue(error is SeedUnreachable, "\(error)")
        }
        let previews = try configure(store: PaywallsConfiguration.Store.none)
        XCTAssertThrowsError(try previews.seedFakeStore("lumen.pro.monthly", as: .subscribed)) { error in
            XCTAssertEqual(error as? FakeStoreSeedingError, .noFakeStore)
        }
    }

    /// `dismissCustomerCenter()` says whether one was on screen (the sidecar's `dismiss` counts it).
    @MainActor
    func testDismissingTheCustomerCenterSaysWhetherOneWasShown() async throws {
        guard try startToolkitOnDisplay() else { return }
        let paywalls = try configure()
        XCTAssertFalse(paywalls.dismissCustomerCenter(), "none on screen")
        var closed = false
        XCTAssertNotNil(paywalls.presentCustomerCenter { closed = true })
        XCTAssertTrue(paywalls.customerCenterIsOnScreen)
        XCTAssertTrue(paywalls.dismissCustomerCenter())
        _ = await runLoop { closed }
        XCTAssertTrue(closed)
        XCTAssertFalse(paywalls.customerCenterIsOnScreen)
    }
}
