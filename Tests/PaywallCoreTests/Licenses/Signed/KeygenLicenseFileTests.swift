import Foundation
import XCTest

@testable import PaywallCore

/// Keygen license files built as Keygen's server builds them
/// (https://keygen.sh/docs/api/cryptography/): the license document is base64-encoded into
/// `enc`, `"license/" + enc` is signed with the account's Ed25519 key (here a test key from
/// `openssl genpkey`) into `sig`, and base64 of `{"enc","sig","alg"}` goes between the
/// BEGIN/END LICENSE FILE lines, wrapped at 64 columns.
final class KeygenLicenseFileTests: XCTestCase {
    static let document = """
        {"data":{"id":"4a1f9c7e-license","type":"licenses","attributes":{"name":"Ada's license","key":"ABCD-EFGH",\
        "expiry":"2030-01-01T00:00:00.000Z","status":"ACTIVE"},"relationships":{"product":{"data":{"type":"products",\
        "id":"9b2e-product"}},"policy":{"data":{"type":"policies","id":"77aa-policy"}}}},\
        "included":[{"type":"entitlements","id":"e1","attributes":{"code":"pro"}}],\
        "meta":{"issued":"2027-01-15T08:00:00.000Z","expiry":"2027-02-14T08:00:00.000Z","ttl":2592000}}
        """

    func file(
        key: TestSigningKey, alg: String = "base64+ed25519", document: String = document,
        change: (inout String) -> Void = { _ in }
    )
        throws -> String
    {
        var enc = Data(document.utf8).base64EncodedString()
        let sig = Data(try key.sign("license/" + enc)).base64EncodedString()
        change(&enc)
        let certificate = JSONValue.object(["enc": .string(enc), "sig": .string(sig), "alg": .string(alg)]).jsonText
        var body = Data(certificate.utf8).base64EncodedString()
        var lines: [String] = []
        while !body.isEmpty {
            lines.append(String(body.prefix(64)))
            body = String(body.dropFirst(64))
        }
        return (["-----BEGIN LICENSE FILE-----"] + lines + ["-----END LICENSE FILE-----"]).joined(separator: "\n") + "\n"
    }

    func testAValidFileVerifiesWithTheFileExpiryAsItsTerm() throws {
        let key = try TestSigningKey()
        let license = try SignedLicense.verify(try file(key: key), with: try key.publicKey)
        XCTAssertEqual(license.format, .keygenLicenseFile)
        XCTAssertEqual(license.id, "4a1f9c7e-license")
        XCTAssertEqual(license.product, "9b2e-product")
        XCTAssertEqual(license.policy, "77aa-policy")
        XCTAssertEqual(license.entitlements, ["pro"])
        XCTAssertEqual(license.licensee, "Ada's license")
        XCTAssertEqual(license.issuedAt, ISODate.parse("2027-01-15T08:00:00Z"))
        // The file's TTL ends before the license does: the file's expiry is the term.
        XCTAssertEqual(license.expiresAt, ISODate.parse("2027-02-14T08:00:00Z"))
        XCTAssertNil(license.refusal(at: ISODate.parse("2027-02-01T00:00:00Z")!, fingerprint: "any"))
        XCTAssertNotNil(license.refusal(at: ISODate.parse("2027-02-15T00:00:00Z")!, fingerprint: "any"))
    }

    func testATamperedFileIsRefused() throws {
        let key = try TestSigningKey()
        // The document changed after signing: an expiry pushed out by a year.
        let tampered = try file(key: key) { enc in
            enc = Data(Self.document.replacingOccurrences(of: "2027-02-14", with: "2028-02-14").utf8).base64EncodedString()
        }
        XCTAssertThrowsError(try SignedLicense.verify(tampered, with: try key.publicKey)) { error in
            XCTAssertEqual((error as? LicenseError)?.kind, .invalidSignature, "\(error)")
        }
        XCTAssertThrowsError(try SignedLicense.verify(try file(key: key), with: try TestSigningKey().publicKey)) { error in
            XCTAssertEqual((error as? LicenseError)?.kind, .invalidSignature, "\(error)")
        }
    }

    func testAnEncryptedFileIsRefusedAsUnsupported() throws {
        let key = try TestSigningKey()
        XCTAssertThrowsError(try SignedLicense.verify(try file(key: key, alg: "aes-256-gcm+ed25519"), with: try key.publicKey)) {
            error in
            XCTAssertEqual((error as? LicenseError)?.kind, .rejected)
            XCTAssertTrue("\(error)".contains("encrypted license files are not supported"), "\(error)")
        }
    }

    func testASuspendedLicenseIsRefused() throws {
        let key = try TestSigningKey()
        let suspended = Self.document.replacingOccurrences(of: "\"ACTIVE\"", with: "\"SUSPENDED\"")
        let license = try SignedLicense.verify(try file(key: key, document: suspended), with: try key.publicKey)
        XCTAssertTrue(license.disabled)
        XCTAssertNotNil(license.refusal(at: license.issuedAt, fingerprint: "any"))
    }
}
