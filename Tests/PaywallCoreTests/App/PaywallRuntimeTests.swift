import Foundation
import XCTest

@testable import PaywallCore

/// The app's one configuration, without a window: real databases in a temporary data
/// directory, the fake store over the classic template's catalog.
final class PaywallRuntimeTests: XCTestCase {
    private var dir: URL!
    override func setUpWithError() throws { dir = try makeTemporaryDirectory("PaywallRuntimeTests") }
    override func tearDown() { removeTemporaryDirectory(dir) }

    private var catalog: String { TestPaths.repository.appendingPathComponent("templates/classic/store.json").path }

    @MainActor
    private func runtime(user: String? = nil, config: PaywallRuntime.ConfigSource? = nil) throws -> PaywallRuntime {
        try PaywallRuntime(
            .init(
                dataDirectory: dir.path, store: .fakeStore(catalog: catalog), config: config, userId: user,
                logLevel: .none))
    }

    @MainActor
    func testTheStreamDeliversAChangeAfterAPurchase() async throws {
        let runtime = try runtime()
        XCTAssertEqual(runtime.subscriptionStatus, .inactive)
        let updates = runtime.customerInfoUpdates
        final class Heard: PaywallRuntimeDelegate {
            var infos: [CustomerInfo] = []
            func customerInfoDidChange(_ info: CustomerInfo) { infos.append(info) }
        }
        let delegate = Heard()
        runtime.delegate = delegate
        let product = try XCTUnwrap(runtime.catalog?.product(id: "lumen.pro.monthly"))
        guard case .purchased = await runtime.purchases!.purchase(product) else { return XCTFail("not bought") }
        var iterator = updates.makeAsyncIterator()
        let info = await iterator.next()
        XCTAssertEqual(info?.entitlements.first { $0.isActive }?.id, "pro")
        XCTAssertEqual(delegate.infos.last?.entitlements.first { $0.isActive }?.id, "pro", "the delegate hears it too")
        XCTAssertEqual(delegate.infos.count, 1, "one purchase, one change (not one per event reporting it)")
        XCTAssertEqual(runtime.subscriptionStatus, .active(["pro"]))

        // A new process, offline: the cached status at once.
        let cold = try PaywallRuntime(.init(dataDirectory: dir.path, logLevel: .none))
        XCTAssertEqual(cold.subscriptionStatus, .active(["pro"]))
        XCTAssertNil(cold.purchases, "no store configured: the cache is read, nothing is bought")
    }

    @MainActor
    func testIdentifyAndResetKeepUsersApart() async throws {
        let runtime = try runtime(user: "alice")
        try runtime.setUserAttributes(["name": "Alice"])
        let product = try XCTUnwrap(runtime.catalog?.product(id: "lumen.pro.monthly"))
        guard case .purchased = await runtime.purchases!.purchase(product) else { return XCTFail("not bought") }
        XCTAssertEqual(runtime.subscriptionStatus, .active(["pro"]))

        try runtime.identify("bob")
        XCTAssertEqual(runtime.userId, "bob")
        XCTAssertEqual(runtime.subscriptionStatus, .inactive, "Bob does not get Alice's subscription")
        XCTAssertEqual(try runtime.state?.userAttributes(user: "bob"), [:])

        try runtime.reset()
        XCTAssertEqual(runtime.userId, Purchases.anonymousUser)
        XCTAssertEqual(runtime.subscriptionStatus, .inactive)
        try runtime.setUserAttributes(["plan": "guest"])
        try runtime.identify("alice")
        XCTAssertEqual(runtime.subscriptionStatus, .active(["pro"]), "Alice's own comes back when she signs in again")
        XCTAssertEqual(try runtime.state?.userAttributes(user: "alice"), ["name": "Alice"])

        try runtime.reset()
        XCTAssertEqual(
            try runtime.state?.userAttributes(user: Purchases.anonymousUser), [:],
            "what the anonymous user had before is not shown to the next")
    }

    @MainActor
    func testPlacementsComeFromTheConfig() async throws {
        let config = dir.appendingPathComponent("paywalls.json")
        try
            #"{"paywalls": [{"id": "upsell", "manifest_url": "/x"}], "placements": {"export_pdf": {"paywall": "upsell", "gated": true}}}"#
            .write(to: config, atomically: true, encoding: .utf8)
        let runtime = try runtime(config: .file(config.path))
        guard case .show(let entry, let gated, let condition) = await runtime.decide(placement: "export_pdf") else {
            return XCTFail("export_pdf not found")
        }
        XCTAssertEqual(entry.id, "upsell")
        XCTAssertTrue(gated)
        XCTAssertEqual(condition, .checkUserSubscription)
        guard case .notFound(let reason) = await runtime.decide(placement: "nope") else { return XCTFail("nope found") }
        XCTAssertEqual(reason, "no placement \"nope\" in the config (placements: export_pdf)")

        let without = try PaywallRuntime(.init(dataDirectory: dir.path, logLevel: .none))
        guard case .notFound(let why) = await without.decide(placement: "export_pdf") else { return XCTFail() }
        XCTAssertEqual(why, "no config is configured")
    }

    @MainActor
    func testConfigureErrorsNameThePart() throws {
        XCTAssertThrowsError(try PaywallRuntime(.init(dataDirectory: dir.path, store: .controller(catalog: catalog)))) { error in
            XCTAssertTrue("\(error)".contains("no controller was given"), "\(error)")
        }
        XCTAssertThrowsError(try PaywallRuntime(.init(dataDirectory: dir.path, store: .fakeStore(catalog: "/no/such.json")))) {
            error in
            XCTAssertTrue("\(error)".contains("/no/such.json"), "\(error)")
        }
        let fresh = dir.appendingPathComponent("fresh")
        try FileManager.default.createDirectory(at: fresh, withIntermediateDirectories: true)
        var configuration = PaywallRuntime.Configuration(dataDirectory: fresh.path, logLevel: .none)
        configuration.readOnly = true
        let readOnly = try PaywallRuntime(configuration)
        XCTAssertNil(readOnly.state, "a read-only runtime makes no runtime state")
        XCTAssertFalse(FileManager.default.fileExists(atPath: fresh.appendingPathComponent("runtime.sqlite").path))
    }
}
