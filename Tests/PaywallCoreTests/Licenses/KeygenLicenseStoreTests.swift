import Foundation
import XCTest

@testable import PaywallCore

/// The license-key store selling through Keygen (`"store": "keygen"`), with `KeygenLicenseAPI`
/// against the local stand-in of Keygen's API and an injected clock for the offline grace.
@MainActor
final class KeygenLicenseStoreTests: XCTestCase {
    private var directory: URL!
    private var server: KeygenTestServer!
    private var clock: TestClock!
    private var catalog: Catalog!
    static let key = "C1B6DE-39A6E3-DE1529-8559A0"

    override func setUp() async throws {
        directory = try makeTemporaryDirectory("KeygenLicenseStore")
        server = try KeygenTestServer(directory: directory.appendingPathComponent("server"))
        server.keys[Self.key] = KeygenTestServer.key(id: "lic-1")
        clock = TestClock()
        let text = """
            {"store": "keygen", "offline_grace_days": 14,
             "keygen": {"account": "lumen", "api_base_url": "\(server.baseURL.absoluteString)"},
             "products": [
               {"id": "pro.lifetime", "display_name": "Lumen Pro", "price": "49.00", "currency": "USD", "kind": "non_consumable",
                "entitlements": ["pro"], "checkout_url": "https://lumen.example.com/buy",
                "keygen": {"product": "prod-1", "policy": "pol-1"}}
             ]}
            """
        catalog = try CatalogLoader.load(path: try writeFile(text, to: "catalog.json", in: directory).path)
    }

    override func tearDown() async throws {
        XCTAssertEqual(server?.violations ?? [], [], "requests broke Keygen's documented API")
        server?.stop()
        removeTemporaryDirectory(directory)
    }

    /// A store as an app gets one: a new one per launch, over the same database.
    private func store() throws -> LicenseKeyStore {
        let settings = try XCTUnwrap(catalog.licensing)
        let keygen = try XCTUnwrap(settings.keygen)
        let clock = self.clock!
        let provider = try KeygenLicenseAPI(
            account: keygen.account, baseURL: keygen.apiBaseURL, fingerprint: .success("machine-fingerprint"), sleep: { _ in })
        return try LicenseKeyStore(
            catalog: catalog, settings: settings, databasePath: directory.appendingPathComponent("licenses.sqlite").path,
            providers: [provider], events: EventDispatcher(),
            services: LicenseServices(now: { clock.now }, instanceName: { "Ada's ThinkPad" }, refreshesPeriodically: false))
    }

    private func refused(_ key: String, _ store: LicenseKeyStore) async -> LicenseError? {
        do {
            try await store.redeem(key: key)
            return nil
        } catch {
            return error
        }
    }

    func testAKeyActivatesAsAKeygenTransactionWithTheProductsEntitlements() async throws {
        let store = try store()
        let status = try await store.redeem(key: Self.key)
        XCTAssertTrue(status.isActive)
        XCTAssertEqual(status.store, .keygen)
        XCTAssertEqual(status.productId, "pro.lifetime")
        XCTAssertEqual(status.instanceName, "Ada's ThinkPad")
        XCTAssertEqual(status.activationUsage, 1)
        XCTAssertEqual(status.activationLimit, 2)
        let transaction = try XCTUnwrap(try store.currentTransactions().first)
        XCTAssertEqual(transaction.store, .keygen)
        XCTAssertEqual(transaction.entitlementIds, ["pro"])
        XCTAssertEqual(transaction.productId, "pro.lifetime")
        // Checked (NO_MACHINES: not refused), then the machine created.
        XCTAssertEqual(server.requests.map { $0["action"] }, ["validate-key", "validate-key", "machines"])
    }

    /// FINGERPRINT_SCOPE_MISMATCH: the key is active (on another machine), not yet on this one.
    func testAKeyActivatedOnAnotherMachineActivatesHereToo() async throws {
        _ = try await KeygenLicenseAPI(account: "lumen", baseURL: server.baseURL, fingerprint: .success("other-machine"))
            .activate(key: Self.key, instanceName: "desktop")
        let status = try await store().redeem(key: Self.key)
        XCTAssertTrue(status.isActive)
        XCTAssertEqual(status.activationUsage, 2)
    }

    func testRedeemingTheSameKeyAgainValidatesThisMachine() async throws {
        let store = try store()
        try await store.redeem(key: Self.key)
        let again = try await store.redeem(key: Self.key)
        XCTAssertTrue(again.isActive)
        XCTAssertEqual(again.activationUsage, 1)
        XCTAssertEqual(server.requests.last?["action"], "validate-key")
        XCTAssertNotNil(server.requests.last?["body"]?["meta"]?["scope"]?["machine"])
    }

    func testUnknownKeyIsNotFound() async throws {
        let error = await refused("NO-SUCH-KEY-0000", try store())
        XCTAssertEqual(error?.kind, .notFound)
        XCTAssertEqual(try store().licenses(), [])
    }

    func testMachineLimitIsRefused() async throws {
        server.keys[Self.key] = KeygenTestServer.key(id: "lic-1", maxMachines: 0)
        let error = await refused(Self.key, try store())
        XCTAssertEqual(error?.kind, .rejected)
        XCTAssertTrue(error?.message.contains("limit of 0") == true, error?.message ?? "")
        XCTAssertEqual(try store().currentTransactions(), [])
    }

    func testAKeyForAnotherPolicyIsNotSoldHere() async throws {
        server.keys[Self.key] = KeygenTestServer.key(id: "lic-1", policy: "pol-trial")
        let error = await refused(Self.key, try store())
        XCTAssertEqual(error?.kind, .unknownProduct)
        XCTAssertFalse(server.requests.contains { $0["action"] == "machines" }, "no machine used up")
    }

    func testExpiredAndSuspendedKeysAreRefusedBeforeActivating() async throws {
        server.keys["KEY-EXPD-EXPD"] = KeygenTestServer.key(id: "lic-2", expired: true, expirationStrategy: "REVOKE_ACCESS")
        server.keys["KEY-SUSP-SUSP"] = KeygenTestServer.key(id: "lic-3", suspended: true)
        let store = try store()
        for key in ["KEY-EXPD-EXPD", "KEY-SUSP-SUSP"] {
            let error = await refused(key, store)
            XCTAssertEqual(error?.kind, .rejected, key)
        }
        XCTAssertFalse(server.requests.contains { $0["action"] == "machines" })
    }

    /// A policy that keeps access after the expiry (MAINTAIN_ACCESS, ALLOW_ACCESS): Keygen answers
    /// valid with the code EXPIRED, so the key activates and stays Pro past its expiry date.
    func testAnExpiredKeyWhosePolicyKeepsAccessActivatesAndStaysActive() async throws {
        let keys = ["MAINTAIN_ACCESS": "KEY-MAIN-TAIN", "ALLOW_ACCESS": "KEY-ALLO-WACC"]
        for (strategy, key) in keys {
            server.keys[key] = KeygenTestServer.key(
                id: "lic-\(strategy)", expired: true, expiry: "2023-01-01T00:00:00.000Z", expirationStrategy: strategy)
        }
        let store = try store()
        for (strategy, key) in keys.sorted(by: <) {
            let status = try await store.redeem(key: key)
            XCTAssertTrue(status.isActive, strategy)
        }
        _ = await store.refresh()
        XCTAssertEqual(try store.licenses().map(\.state), [.subscribed, .subscribed])
        XCTAssertTrue(try store.currentTransactions().contains { $0.entitlementIds == ["pro"] })
        // Expired under RESTRICT_ACCESS (the default) is still refused, and its machine freed.
        server.keys["KEY-EXPD-EXPD"] = KeygenTestServer.key(id: "lic-2", expired: true)
        let error = await refused("KEY-EXPD-EXPD", store)
        XCTAssertEqual(error?.kind, .rejected)
        XCTAssertEqual(server.requests.last?["action"], "delete")
        XCTAssertEqual(try store.licenses().count, 2)
    }

    /// A refusal for another reason than "no machine here" (OVERDUE: the policy wants check-ins).
    func testAKeyKeygenSaysIsNotValidIsRefusedBeforeActivating() async throws {
        server.keys[Self.key] = KeygenTestServer.key(id: "lic-1", overdue: true)
        let error = await refused(Self.key, try store())
        XCTAssertEqual(error?.kind, .rejected)
        XCTAssertTrue(error?.message.contains("OVERDUE") == true, error?.message ?? "")
        XCTAssertFalse(server.requests.contains { $0["action"] == "machines" }, "no machine used up")
    }

    func testValidationMapsExpiredToExpiredAndSuspendedToRevoked() async throws {
        let store = try store()
        try await store.redeem(key: Self.key)
        server.keys[Self.key] = KeygenTestServer.key(id: "lic-1", expired: true, revision: 1)
        _ = await store.refresh()
        XCTAssertEqual(try store.licenses().first?.state, .expired)
        XCTAssertEqual(try store.licenses().first?.reason, .expired)
        server.keys[Self.key] = KeygenTestServer.key(id: "lic-1", suspended: true, revision: 2)
        _ = await store.refresh()
        XCTAssertEqual(try store.licenses().first?.state, .revoked)
        XCTAssertEqual(try store.licenses().first?.reason, .disabled)
        server.keys[Self.key] = KeygenTestServer.key(id: "lic-1", banned: true, revision: 3)
        _ = await store.refresh()
        XCTAssertEqual(try store.licenses().first?.state, .revoked)
    }

    func testAMachineDeletedAtKeygenEndsAccessHere() async throws {
        let store = try store()
        let status = try await store.redeem(key: Self.key)
        let record = try XCTUnwrap(try store.licenses().first)
        XCTAssertTrue(record.isActive)
        // The seller deletes the machine in Keygen's dashboard: the same DELETE, by the machine's
        // fingerprint (Keygen finds a machine by its id or its fingerprint).
        _ = try await KeygenLicenseAPI(account: "lumen", baseURL: server.baseURL, fingerprint: .success("machine-fingerprint"))
            .deactivate(key: Self.key, instanceId: "machine-fingerprint")
        _ = await store.refresh()
        XCTAssertFalse(try XCTUnwrap(try store.licenses().first).isActive, "NO_MACHINES for this instance")
        XCTAssertEqual(status.activationUsage, 1)
    }

    func testALicenseDeletedAtKeygenIsNotFound() async throws {
        let store = try store()
        try await store.redeem(key: Self.key)
        server.script["validate-key"] = [
            .object([
                "json": .object([
                    "data": .null, "meta": .object(["valid": false, "code": "NOT_FOUND", "detail": "does not exist"]),
                ])
            ])
        ]
        _ = await store.refresh()
        XCTAssertFalse(try XCTUnwrap(try store.licenses().first).isActive)
        XCTAssertEqual(try store.licenses().first?.reason, .notFound)
    }

    func testNetworkDownAtStartKeepsTheCachedLicenseUntilTheGraceEnds() async throws {
        try await store().redeem(key: Self.key)
        server.stop()
        clock.advance(days: 13)
        let store = try store()
        XCTAssertTrue(try XCTUnwrap(try store.licenses().first).isActive, "active at once from the cached validation")
        let errors = await store.refresh()
        XCTAssertEqual(errors.map(\.kind), [.network])
        XCTAssertTrue(try XCTUnwrap(try store.licenses().first).isActive, "still within the 14 days' grace")
        clock.advance(days: 1.5)
        let later = try XCTUnwrap(try self.store().licenses().first)
        XCTAssertEqual(later.state, .expired)
        XCTAssertEqual(later.reason, .notValidated)
        XCTAssertEqual(try self.store().currentTransactions().first?.store, .keygen)
    }

    func testDeactivatingDeletesTheMachineAndEndsAccessHere() async throws {
        let store = try store()
        try await store.redeem(key: Self.key)
        try await store.deactivate()
        XCTAssertEqual(try store.licenses(), [])
        XCTAssertEqual(try store.currentTransactions(), [])
        XCTAssertEqual(server.requests.last?["method"], "DELETE")
        // The machine is free again: the key activates here once more.
        let again = try await store.redeem(key: Self.key)
        XCTAssertEqual(again.activationUsage, 1)
    }

    func testDeactivatingOfflineKeepsTheLicense() async throws {
        let store = try store()
        try await store.redeem(key: Self.key)
        server.stop()
        do {
            try await store.deactivate()
            XCTFail("deactivated without Keygen")
        } catch {
            XCTAssertEqual(error.kind, .network)
        }
        XCTAssertEqual(try store.licenses().count, 1, "kept: its machine still counts at Keygen")
    }

    func testRateLimitedValidationIsRetried() async throws {
        server.script["validate-key"] = [.object(["status": 429, "headers": .object(["Retry-After": "1"])])]
        let status = try await store().redeem(key: Self.key)
        XCTAssertTrue(status.isActive)
    }
}
