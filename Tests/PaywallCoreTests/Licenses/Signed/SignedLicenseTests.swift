import Foundation
import XCTest

@testable import PaywallCore

final class SignedLicenseTests: XCTestCase {
    let issued = Date(timeIntervalSince1970: 1_800_000_000)

    func license(expires: Date? = nil, machine: String? = nil) -> SignedLicense {
        SignedLicense(
            id: "lic_1", product: "pro_lifetime", entitlements: ["pro", "export"], issuedAt: issued, expiresAt: expires,
            licensee: "Ada Lovelace", machine: machine)
    }

    func testASignedLicenseVerifiesAndReadsBackEveryField() throws {
        let key = try TestSigningKey()
        let expires = issued.addingTimeInterval(86_400 * 365)
        let (text, publicKey) = try license(expires: expires, machine: "ab12").signed(privateKeyPEM: key.privatePEM)
        XCTAssertEqual(publicKey, try key.publicKey, "the signer reports the key openssl derives")
        let read = try SignedLicense.verify(text, with: try key.publicKey)
        XCTAssertEqual(read, license(expires: expires, machine: "ab12"))
        XCTAssertNil(read.refusal(at: issued.addingTimeInterval(60), fingerprint: "ab12"))
    }

    func testOneChangedByteInThePayloadOrTheSignatureIsRefused() throws {
        let key = try TestSigningKey()
        let text = try license().signed(privateKeyPEM: key.privatePEM).text
        let dot = text.firstIndex(of: ".")!
        for index in [text.index(text.startIndex, offsetBy: 5), text.index(after: dot)] {
            var changed = text
            let original = changed[index]
            changed.replaceSubrange(index...index, with: original == "A" ? "B" : "A")
            XCTAssertThrowsError(try SignedLicense.verify(changed, with: try key.publicKey)) { error in
                XCTAssertEqual((error as? LicenseError)?.kind, .invalidSignature, "\(error)")
            }
        }
    }

    func testALicenseSignedByAnotherKeyIsRefused() throws {
        let seller = try TestSigningKey()
        let other = try TestSigningKey()
        let text = try license().signed(privateKeyPEM: other.privatePEM).text
        XCTAssertThrowsError(try SignedLicense.verify(text, with: try seller.publicKey)) { error in
            XCTAssertEqual((error as? LicenseError)?.kind, .invalidSignature)
            XCTAssertTrue("\(error)".contains("license_public_key"), "\(error)")
        }
    }

    func testAnExpiredLicenseIsRefusedWithItsDate() throws {
        let key = try TestSigningKey()
        let expires = issued.addingTimeInterval(3600)
        let read = try SignedLicense.verify(
            try license(expires: expires).signed(privateKeyPEM: key.privatePEM).text, with: try key.publicKey)
        XCTAssertNil(read.refusal(at: expires.addingTimeInterval(-1), fingerprint: "x"))
        let refusal = try XCTUnwrap(read.refusal(at: expires, fingerprint: "x"))
        XCTAssertEqual(refusal.kind, .rejected)
        XCTAssertTrue(refusal.message.contains("expired on \(ISODate.text(expires))"), refusal.message)
    }

    func testALicenseBoundToAnotherMachineIsRefused() throws {
        let key = try TestSigningKey()
        let elsewhere = try MachineFingerprint.fingerprint(machineId: "0123456789abcdef0123456789abcdef", appId: "app")
        let here = try MachineFingerprint.fingerprint(machineId: "fedcba9876543210fedcba9876543210", appId: "app")
        let read = try SignedLicense.verify(
            try license(machine: elsewhere).signed(privateKeyPEM: key.privatePEM).text, with: try key.publicKey)
        XCTAssertEqual(read.refusal(at: issued, fingerprint: here)?.kind, .otherMachine)
        XCTAssertNil(read.refusal(at: issued, fingerprint: elsewhere))
    }

    func testUnknownShapesAndFieldsAreRefusedSayingWhat() throws {
        let key = try TestSigningKey()
        XCTAssertThrowsError(try SignedLicense.verify("not a license", with: try key.publicKey)) { error in
            XCTAssertEqual((error as? LicenseError)?.kind, .rejected)
        }
        // A correctly signed payload with a misspelt field (a typo must not make a lifetime license).
        let payload = Base64URL.encode(
            Array(#"{"id":"1","product":"p","issued_at":"2027-01-15T08:00:00Z","expires":"2027-02-01T00:00:00Z"}"#.utf8))
        let signature = try Ed25519.sign(Array(payload.utf8), privateKeyPEM: key.privatePEM).signature
        XCTAssertThrowsError(try SignedLicense.verify(payload + "." + Base64URL.encode(signature), with: try key.publicKey)) {
            error in
            XCTAssertTrue("\(error)".contains("unknown fields expires"), "\(error)")
        }
        let huge = String(repeating: "A", count: LicenseKeyStore.maxLicenseFileBytes + 1) + ".AA"
        XCTAssertThrowsError(try SignedLicense.verify(huge, with: try key.publicKey)) { error in
            XCTAssertTrue("\(error)".contains("more than any license file"), "\(error)")
        }
    }

    func testPublicKeysParseFromPEMAndHexAndRefuseOthers() throws {
        let key = try TestSigningKey()
        let fromPEM = try key.publicKey
        XCTAssertEqual(try LicensePublicKey(parsing: fromPEM.hex), fromPEM)
        XCTAssertEqual(try LicensePublicKey(parsing: fromPEM.pem), fromPEM)
        for bad in [key.privatePEM, "abc", String(repeating: "g", count: 64)] {
            XCTAssertThrowsError(try LicensePublicKey(parsing: bad)) { error in
                XCTAssertEqual((error as? LicenseError)?.kind, .cryptography)
            }
        }
        // An RSA public key is PEM and SPKI, but not Ed25519.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rsa-\(UUID().uuidString).pem").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try TestSigningKey.openssl(["genpkey", "-algorithm", "rsa", "-pkeyopt", "rsa_keygen_bits:1024", "-out", folder])
        let rsa = try TestSigningKey.openssl(["pkey", "-in", folder, "-pubout"])
        XCTAssertThrowsError(try LicensePublicKey(parsing: rsa)) { error in
            XCTAssertTrue("\(error)".contains("not an Ed25519 public key"), "\(error)")
        }
        XCTAssertThrowsError(try Ed25519.sign([1], privateKeyPEM: try String(contentsOfFile: folder, encoding: .utf8))) { error in
            XCTAssertTrue("\(error)".contains("not an Ed25519 key"), "\(error)")
        }
    }
}
