import Foundation
import XCTest

@testable import PaywallCore

final class MachineFingerprintTests: XCTestCase {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("machine-\(UUID().uuidString)")

    override func setUpWithError() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(at: folder) }

    func testItIsTheHMACOfTheTrimmedMachineIdByAppIdNeverTheIdItself() throws {
        let path = folder.appendingPathComponent("machine-id").path
        let id = "0123456789abcdef0123456789abcdef"
        try (id + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let fingerprint = try MachineFingerprint.current(appId: "com.example.App", paths: [path])
        // The same HMAC computed by the openssl command.
        let expected = try TestSigningKey.openssl([
            "mac", "-digest", "SHA256", "-macopt", "key:com.example.App", "-in", path, "HMAC",
        ])
        XCTAssertNotEqual(
            expected.lowercased().trimmingCharacters(in: .whitespacesAndNewlines), fingerprint, "the newline is trimmed first")
        try id.write(toFile: path, atomically: true, encoding: .utf8)
        let untrimmed = try TestSigningKey.openssl([
            "mac", "-digest", "SHA256", "-macopt", "key:com.example.App", "-in", path, "HMAC",
        ])
        XCTAssertEqual(untrimmed.lowercased().trimmingCharacters(in: .whitespacesAndNewlines), fingerprint)
        XCTAssertFalse(fingerprint.contains(id))
        XCTAssertNotEqual(try MachineFingerprint.current(appId: "com.example.Other", paths: [path]), fingerprint)
    }

    func testTheDBusIdIsTheFallbackAndNoIdIsAClearError() throws {
        let dbus = folder.appendingPathComponent("dbus-machine-id").path
        try "fedcba9876543210fedcba9876543210\n".write(toFile: dbus, atomically: true, encoding: .utf8)
        let missing = folder.appendingPathComponent("none").path
        XCTAssertEqual(
            try MachineFingerprint.current(appId: "a", paths: [missing, dbus]),
            try MachineFingerprint.fingerprint(machineId: "fedcba9876543210fedcba9876543210", appId: "a"))
        XCTAssertThrowsError(try MachineFingerprint.current(appId: "a", paths: [missing])) { error in
            XCTAssertTrue("\(error)".contains("no machine id"), "\(error)")
        }
    }
}
