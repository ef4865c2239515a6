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
}
