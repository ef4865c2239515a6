import Foundation
import XCTest

@testable import PaywallCore

final class LicenseClockTests: XCTestCase {
    /// A clock set back counts as the latest time the data directory saw, across openings of
    /// a real licenses.sqlite, so an expired signed license stays expired.
    func testAClockSetBackCountsAsTheLatestTimeSeen() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("clock-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("licenses.sqlite").path
        let later = Date(timeIntervalSince1970: 1_900_000_000)
        let earlier = later.addingTimeInterval(-86_400 * 30)
        XCTAssertEqual(try LicenseClock(databasePath: path, real: { later }).now(), later)

        let setBack = try LicenseClock(databasePath: path, real: { earlier })
        XCTAssertEqual(setBack.now(), later)
        let key = try TestSigningKey()
        let license = SignedLicense(
            id: "1", product: "p", issuedAt: earlier.addingTimeInterval(-60), expiresAt: earlier.addingTimeInterval(86_400))
        let read = try SignedLicense.verify(try license.signed(privateKeyPEM: key.privatePEM).text, with: try key.publicKey)
        XCTAssertNil(read.refusal(at: earlier, fingerprint: "x"), "by the set-back clock it would still hold")
        XCTAssertNotNil(read.refusal(at: setBack.now(), fingerprint: "x"))

        let forward = later.addingTimeInterval(10)
        XCTAssertEqual(try LicenseClock(databasePath: path, real: { forward }).now(), forward)
        XCTAssertEqual(try LicenseClock(databasePath: path, real: { earlier }).now(), forward, "a later time is kept")
    }

    /// The store judges every license by the guarded clock: setting the clock back after the
    /// offline grace ran out does not bring the license back, in the store or in `paywall status`.
    @MainActor
    func testAClockSetBackDoesNotStretchTheOfflineGrace() async throws {
        let folder = try makeTemporaryDirectory("LicenseClockStore")
        defer { removeTemporaryDirectory(folder) }
        let catalogPath = folder.appendingPathComponent("catalog.json").path
        try """
        {"store": "lemon_squeezy", "offline_grace_days": 14, "products": [{"id": "old", "display_name": "Old", "price": "49.00",
          "currency": "USD", "kind": "non_consumable", "entitlements": ["pro"], "checkout_url": "https://shop.example/old",
          "lemon_squeezy": {"product_id": 10}}]}
        """.write(toFile: catalogPath, atomically: true, encoding: .utf8)
        let catalog = try CatalogLoader.load(path: catalogPath)
        let databasePath = folder.appendingPathComponent("licenses.sqlite").path
        let clock = TestClock()
        let lemon = LicenseMerchantRoutingTests.ScriptedProvider(.lemonSqueezy)
        lemon.keys["OLD-KEY-0001"] = ("10", 0)
        func store() throws -> LicenseKeyStore {
            try LicenseKeyStore(
                catalog: catalog, settings: try XCTUnwrap(catalog.licensing), databasePath: databasePath, providers: [lemon],
                events: EventDispatcher(), services: LicenseServices(now: { clock.now }, refreshesPeriodically: false))
        }
        try await store().redeem(key: "OLD-KEY-0001")
        clock.advance(days: 15)
        XCTAssertEqual(try store().licenses().first?.reason, .notValidated)
        clock.advance(days: -10)
        XCTAssertEqual(try store().licenses().first?.reason, .notValidated, "set back, the grace has still run out")
        XCTAssertEqual(
            try LicenseKeyStore.storedLicenses(databasePath: databasePath, now: clock.now).first?.reason, .notValidated)
    }
}
