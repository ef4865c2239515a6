import Foundation
import XCTest

@testable import PaywallCore

/// The license-key store selling through Polar: a `"store": "polar"` catalog's keys redeemed,
/// validated and deactivated against the local stand-in of Polar's customer-portal API.
@MainActor
final class PolarLicenseStoreTests: XCTestCase {
    private var directory: URL!
    private var server: PolarTestServer!
    private var clock: TestClock!
    private let pauses = PauseRecorder()
    static let key = "LUMEN-38B1460A-5104-4067-A91D-77B872934D51"

    override func setUp() async throws {
        directory = try makeTemporaryDirectory("PolarLicenseStore")
        server = try PolarTestServer(directory: directory.appendingPathComponent("server"))
        server.keys[Self.key] = PolarTestServer.key(id: "lk_1")
        clock = TestClock()
    }

    override func tearDown() async throws {
        XCTAssertEqual(server?.violations ?? [], [], "requests broke Polar's documented API")
        server?.stop()
        removeTemporaryDirectory(directory)
    }

    /// A store over the catalog `writeCatalog` makes, with its Polar settings, at the test clock.
    private func store() throws -> LicenseKeyStore {
        let path = try server.writeCatalog(in: directory)
        let catalog = try CatalogFile.parse(Data(contentsOf: URL(fileURLWithPath: path)))
        let settings = try XCTUnwrap(catalog.licensing)
        let polar = try XCTUnwrap(settings.polar, "the catalog's polar block")
        XCTAssertEqual(settings.merchants, [.polar])
        let pauses = self.pauses
        let provider = try PolarLicenseAPI(
            organizationId: polar.organizationId, baseURL: polar.apiBaseURL, sleep: { await pauses.record($0) })
        let clock = self.clock!
        return try LicenseKeyStore(
            catalog: catalog, settings: settings, databasePath: directory.appendingPathComponent("licenses.sqlite").path,
            providers: [provider], events: EventDispatcher(),
            services: LicenseServices(now: { clock.now }, instanceName: { "Ada's ThinkPad" }, refreshesPeriodically: false))
    }

    private func refusal(_ action: () async throws -> Void) async -> LicenseError? {
        do {
            try await action()
            return nil
        } catch {
            return error as? LicenseError
        }
    }

    func testAKeyActivatesAsAPolarTransactionWithTheProductsEntitlements() async throws {
        let store = try store()
        let status = try await store.redeem(key: Self.key)
        XCTAssertTrue(status.isActive)
        XCTAssertEqual(status.store, .polar)
        XCTAssertEqual(status.productId, "pro.lifetime")
        XCTAssertEqual(status.instanceName, "Ada's ThinkPad")
        XCTAssertEqual(status.activationLimit, 2)
        XCTAssertEqual(status.maskedKey, "****4D51")
        let transaction = try XCTUnwrap(try store.currentTransactions().first)
        XCTAssertEqual(transaction.store, .polar)
        XCTAssertEqual(transaction.productId, "pro.lifetime")
        XCTAssertEqual(transaction.entitlementIds, ["pro"])
        XCTAssertEqual(transaction.id, "polar_lk_1")
        XCTAssertEqual(
            server.requests.map { $0["path"]?.stringValue ?? "" },
            ["/v1/customer-portal/license-keys/validate", "/v1/customer-portal/license-keys/activate"])
        // Validating later names this machine's activation.
        await store.refresh()
        let activation = try XCTUnwrap(server.requests.last?["body"]?["activation_id"]?.stringValue)
        XCTAssertFalse(activation.isEmpty)
        XCTAssertTrue(try store.licenses().first?.isActive == true)
    }

    func testAnUnknownKeyIsNotFound() async throws {
        let error = await refusal { _ = try await self.store().redeem(key: "NO-SUCH-KEY-0000") }
        XCTAssertEqual(error?.kind, .notFound)
        XCTAssertEqual(try store().licenses(), [])
    }

    func testAKeyForAnotherBenefitIsRefusedUnactivated() async throws {
        server.keys[Self.key] = PolarTestServer.key(id: "lk_1", benefitId: "ben_other")
        let error = await refusal { _ = try await self.store().redeem(key: Self.key) }
        XCTAssertEqual(error?.kind, .unknownProduct)
        XCTAssertFalse(server.requests.contains { $0["path"] == "/v1/customer-portal/license-keys/activate" })
    }

    func testActivationLimitReachedIsRefusedDescribingTheKey() async throws {
        server.keys[Self.key] = PolarTestServer.key(id: "lk_1", limit: 1)
        let other = try PolarLicenseAPI(organizationId: PolarTestServer.organizationId, baseURL: server.baseURL)
        _ = try await other.activate(key: Self.key, instanceName: "another machine")
        let error = await refusal { _ = try await self.store().redeem(key: Self.key) }
        XCTAssertEqual(error?.kind, .rejected)
        XCTAssertEqual(error?.statusCode, 403)
        XCTAssertEqual(error?.licenseKey?.activationLimit, 1)
        XCTAssertEqual(error?.licenseKey?.activationUsage, 1)
        XCTAssertEqual(try store().licenses(), [])
    }

    func testAnExpiredKeyIsRefusedAndExpiresAnActiveLicense() async throws {
        server.keys["KEY-EXPIRED-0001"] = PolarTestServer.key(id: "lk_2", expiresAt: "2023-01-01T00:00:00Z")
        let refused = await refusal { _ = try await self.store().redeem(key: "KEY-EXPIRED-0001") }
        XCTAssertEqual(refused?.kind, .rejected)
        XCTAssertEqual(refused?.licenseKey?.status, .expired)

        let expiry = clock.now.addingTimeInterval(5 * 86_400)
        server.keys[Self.key] = PolarTestServer.key(
            id: "lk_1", expiresAt: expiry.formatted(Date.ISO8601FormatStyle()), revision: 1)
        let store = try store()
        _ = try await store.redeem(key: Self.key)
        XCTAssertTrue(try store.licenses().first?.isActive == true)
        clock.advance(days: 6)
        let status = try XCTUnwrap(try store.licenses().first)
        XCTAssertEqual(status.state, .expired)
        XCTAssertEqual(status.reason, .expired)
    }

    func testRevokedAndDisabledKeysAreRefusedAndRevokeAnActiveLicense() async throws {
        server.keys["KEY-REVOKED-0001"] = PolarTestServer.key(id: "lk_3", status: "revoked")
        let refused = await refusal { _ = try await self.store().redeem(key: "KEY-REVOKED-0001") }
        XCTAssertEqual(refused?.kind, .rejected)
        XCTAssertEqual(refused?.licenseKey?.status, .disabled)

        let store = try store()
        _ = try await store.redeem(key: Self.key)
        server.keys[Self.key] = PolarTestServer.key(id: "lk_1", status: "disabled", revision: 1)
        await store.refresh()
        let status = try XCTUnwrap(try store.licenses().first)
        XCTAssertEqual(status.state, .revoked)
        XCTAssertEqual(status.reason, .disabled)
        XCTAssertNotNil(try store.currentTransactions().first?.revocationDate)
    }

    func testNetworkDownKeepsTheCachedLicenseThenTheGraceEnds() async throws {
        _ = try await store().redeem(key: Self.key)
        server.stop()
        clock.advance(days: 13)
        let store = try store()
        XCTAssertTrue(try store.licenses().first?.isActive == true, "active at once from the cached validation")
        let errors = await store.refresh()
        XCTAssertEqual(errors.map(\.kind), [.network])
        XCTAssertTrue(try store.licenses().first?.isActive == true, "still within the 14 days' grace")
        clock.advance(days: 1.5)
        let status = try XCTUnwrap(try store.licenses().first)
        XCTAssertEqual(status.state, .expired)
        XCTAssertEqual(status.reason, .notValidated)
        XCTAssertEqual(try store.currentTransactions().first?.store, .polar)
    }

    func testARateLimitedValidationIsRetried() async throws {
        let store = try store()
        _ = try await store.redeem(key: Self.key)
        server.script["validate"] = [.object(["status": 429, "headers": .object(["Retry-After": "3"])])]
        let errors = await store.refresh()
        XCTAssertEqual(errors, [])
        let waited = await pauses.all
        XCTAssertEqual(waited, [3])
    }

    func testDeactivatingFreesTheActivationAtPolar() async throws {
        server.keys[Self.key] = PolarTestServer.key(id: "lk_1", limit: 1)
        let store = try store()
        _ = try await store.redeem(key: Self.key)
        try await store.deactivate()
        XCTAssertEqual(try store.licenses(), [])
        XCTAssertEqual(try store.currentTransactions(), [])
        XCTAssertTrue(server.requests.contains { $0["path"] == "/v1/customer-portal/license-keys/deactivate" })
        // The one activation is free again.
        _ = try await store.redeem(key: Self.key)
        XCTAssertTrue(try store.licenses().first?.isActive == true)
    }
}
