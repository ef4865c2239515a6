import Foundation
import XCTest

@testable import PaywallCore

/// Signed licenses through the license-key store of a catalog with no license server
/// (`"store": "signed_license"`): activated, kept and validated with no network, refused with
/// a reason when expired or another machine's, forgotten on deactivation.
@MainActor
final class SignedLicenseProviderTests: XCTestCase {
    private var directory: URL!
    private var key: TestSigningKey!
    private let clock = TestClock(Date(timeIntervalSince1970: 1_800_000_000))

    override func setUp() async throws {
        directory = try makeTemporaryDirectory("SignedLicenseProvider")
        key = try TestSigningKey()
    }

    override func tearDown() async throws { removeTemporaryDirectory(directory) }

    private var machineId: String { directory.appendingPathComponent("machine-id").path }

    private func store() throws -> LicenseKeyStore {
        let path = directory.appendingPathComponent("catalog.json").path
        try """
        {"store": "signed_license", "app_id": "com.example.Lumen", "license_public_key": "\(try key.publicKey.hex)",
         "products": [{"id": "pro", "display_name": "Lumen Pro", "price": "49.00", "currency": "USD",
                       "kind": "non_consumable", "entitlements": ["pro"], "checkout_url": "https://shop.example/pro"}]}
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let catalog = try CatalogLoader.load(path: path)
        let clock = self.clock
        return try LicenseKeyStore.make(
            catalog: catalog, settings: try XCTUnwrap(catalog.licensing),
            databasePath: directory.appendingPathComponent("licenses.sqlite").path, events: EventDispatcher(),
            services: LicenseServices(now: { clock.now }, instanceName: { "Ada's ThinkPad" }, refreshesPeriodically: false))
    }

    private func signed(expires: Date? = nil, machine: String? = nil) throws -> String {
        try SignedLicense(id: "lic-1", product: "pro", issuedAt: clock.now, expiresAt: expires, machine: machine)
            .signed(privateKeyPEM: key.privatePEM).text
    }

    func testASignedLicenseActivatesValidatesAndDeactivatesWithNoNetwork() async throws {
        let store = try store()
        let status = try await store.redeem(key: try signed(expires: clock.now.addingTimeInterval(86_400 * 30)))
        XCTAssertEqual(status.productId, "pro")
        XCTAssertTrue(status.isActive)
        XCTAssertEqual(status.store, .signedLicense)
        // Past the offline grace of a merchant's key, a signed license still holds: its term is its own.
        clock.advance(days: 20)
        let errors = await store.refresh()
        XCTAssertEqual(errors, [])
        XCTAssertTrue(try store.licenses()[0].isActive)
        clock.advance(days: 11)
        _ = await store.refresh()
        XCTAssertFalse(try store.licenses()[0].isActive, "expired after its term")
        try await store.deactivate()
        XCTAssertEqual(try store.licenses(), [])
    }

    func testAnExpiredLicenseIsRefusedBeforeItIsKept() async throws {
        let store = try store()
        do {
            try await store.redeem(key: try signed(expires: clock.now.addingTimeInterval(-1)))
            XCTFail("an expired license activated")
        } catch let error as LicenseError {
            XCTAssertEqual(error.kind, .rejected)
            XCTAssertTrue(error.message.contains("expired"), error.message)
        }
        XCTAssertEqual(try store.licenses(), [])
    }

    func testTheProviderBindsToThisMachinesFingerprint() async throws {
        try "0123456789abcdef0123456789abcdef\n".write(toFile: machineId, atomically: true, encoding: .utf8)
        let clock = self.clock
        let provider = SignedLicenseProvider(
            publicKey: try key.publicKey, appId: "com.example.Lumen", now: { clock.now }, machineIdPaths: [machineId])
        let here = try MachineFingerprint.current(appId: "com.example.Lumen", paths: [machineId])
        let answer = try await provider.activate(key: try signed(machine: here), instanceName: "Ada's ThinkPad")
        XCTAssertEqual(answer.instance, LicenseInstance(id: here, name: "Ada's ThinkPad", createdAt: nil))
        XCTAssertEqual(answer.licenseKey.id, "lic-1")
        XCTAssertEqual(answer.meta.productId, "pro")
        let elsewhere = try MachineFingerprint.fingerprint(machineId: "another", appId: "com.example.Lumen")
        do {
            _ = try await provider.validate(key: try signed(machine: elsewhere), instanceId: nil)
            XCTFail("another machine's license validated")
        } catch let error as LicenseError {
            XCTAssertEqual(error.kind, .otherMachine)
        }
    }
}
