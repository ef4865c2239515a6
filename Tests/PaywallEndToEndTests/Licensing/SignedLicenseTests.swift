import Foundation
import PaywallCore
import XCTest

/// `paywall license sign / verify / fingerprint` and `paywall redeem --license-file` end to
/// end: a seller's key made by `openssl genpkey -algorithm ed25519`, licenses signed and
/// verified by the built executable, activated with no license server at all.
final class SignedLicenseTests: EndToEndTestCase {
    private func openssl(_ arguments: [String]) throws { _ = try Toolchain.run("/usr/bin/openssl", arguments) }

    /// A seller's private key, and a signed_license catalog (app id `appId`) with its public key.
    private func seller(appId: String = "com.example.Lumen") throws -> (key: String, catalog: String) {
        let key = workDir.appendingPathComponent("private.pem").path
        try openssl(["genpkey", "-algorithm", "ed25519", "-out", key])
        let publicPEM = workDir.appendingPathComponent("public.pem").path
        try openssl(["pkey", "-in", key, "-pubout", "-out", publicPEM])
        let publicKey = try String(contentsOfFile: publicPEM, encoding: .utf8)
        let catalog = workDir.appendingPathComponent("catalog.json").path
        let json = JSONValue.object([
            "store": "signed_license", "app_id": .string(appId), "license_public_key": .string(publicKey),
            "products": [
                [
                    "id": "pro", "display_name": "Lumen Pro", "price": "49.00", "currency": "USD", "kind": "non_consumable",
                    "entitlements": ["pro"], "checkout_url": "https://shop.example/pro",
                ]
            ],
        ])
        try json.jsonText.write(toFile: catalog, atomically: true, encoding: .utf8)
        return (key, catalog)
    }

    func testASignedLicenseVerifiesAsJSONAndATamperedOneExitsOneWithTheReason() throws {
        let (key, catalog) = try seller()
        let license = workDir.appendingPathComponent("license.txt").path
        let signed = try PaywallProcess.run(
            [
                "license", "sign", "--key", key, "--product", "pro", "--expires", "2099-12-31", "--licensee", "Ada", "--out",
                license,
            ],
            in: workDir)
        XCTAssertEqual(signed.status, 0, signed.stderr)
        let verified = try PaywallProcess.run(["license", "verify", license, "--store", catalog], in: workDir)
        XCTAssertEqual(verified.status, 0, verified.stderr)
        let json = try JSONValue(parsing: verified.stdout)
        XCTAssertEqual(json["product"], "pro")
        XCTAssertEqual(json["format"], "signed_license")
        XCTAssertEqual(json["expires_at"], "2099-12-31T00:00:00Z")
        XCTAssertEqual(json["licensee"], "Ada")
        XCTAssertEqual(json["machine"], .null)
        XCTAssertEqual(json["entitlements"], [])
        XCTAssertNotNil(json["id"]?.stringValue)
        XCTAssertNotNil(json["issued_at"]?.stringValue)

        // One character of the payload changed.
        var text = try String(contentsOfFile: license, encoding: .utf8)
        let index = text.index(text.startIndex, offsetBy: 10)
        text.replaceSubrange(index...index, with: text[index] == "A" ? "B" : "A")
        let tampered = workDir.appendingPathComponent("tampered.txt").path
        try text.write(toFile: tampered, atomically: true, encoding: .utf8)
        let refused = try PaywallProcess.run(["license", "verify", tampered, "--store", catalog], in: workDir)
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(refused.stdout, "")
        XCTAssertTrue(refused.stderr.contains("signature does not verify"), refused.stderr)

        let expired = workDir.appendingPathComponent("expired.txt").path
        _ = try PaywallProcess.run(
            ["license", "sign", "--key", key, "--product", "pro", "--expires", "2020-01-01", "--out", expired], in: workDir)
        let old = try PaywallProcess.run(["license", "verify", expired, "--store", catalog], in: workDir)
        XCTAssertEqual(old.status, 1)
        XCTAssertTrue(old.stderr.contains("expired on 2020-01-01T00:00:00Z"), old.stderr)
    }

    func testTheFingerprintIsStableDiffersPerAppAndBindsALicense() throws {
        let (key, catalog) = try seller()
        let first = try PaywallProcess.run(["license", "fingerprint", "--store", catalog], in: workDir)
        XCTAssertEqual(first.status, 0, first.stderr)
        let fingerprint = first.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(fingerprint.count, 64)
        XCTAssertEqual(try PaywallProcess.run(["license", "fingerprint", "--store", catalog], in: workDir).stdout, first.stdout)
        let machineId = try String(contentsOfFile: "/etc/machine-id", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertFalse(first.stdout.contains(machineId), "the raw machine id never shows")
        let other = try PaywallProcess.run(["license", "fingerprint"], in: workDir)
        XCTAssertNotEqual(other.stdout, first.stdout, "another app id, another fingerprint")

        let here = workDir.appendingPathComponent("here.txt").path
        let elsewhere = workDir.appendingPathComponent("elsewhere.txt").path
        _ = try PaywallProcess.run(
            ["license", "sign", "--key", key, "--product", "pro", "--machine", fingerprint, "--out", here], in: workDir)
        _ = try PaywallProcess.run(
            [
                "license", "sign", "--key", key, "--product", "pro", "--machine", String(repeating: "0", count: 64), "--out",
                elsewhere,
            ],
            in: workDir)
        XCTAssertEqual(try PaywallProcess.run(["license", "verify", here, "--store", catalog], in: workDir).status, 0)
        let refused = try PaywallProcess.run(["license", "verify", elsewhere, "--store", catalog], in: workDir)
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("for another machine"), refused.stderr)
    }

    func testRedeemALicenseFileWithNoNetwork() throws {
        let (key, catalog) = try seller()
        let license = workDir.appendingPathComponent("license.txt").path
        _ = try PaywallProcess.run(["license", "sign", "--key", key, "--product", "pro", "--out", license], in: workDir)
        let data = workDir.appendingPathComponent("data").path
        // No proxy or server is reachable: a network call would fail the redeem.
        let offline: [String: String?] = ["http_proxy": "http://127.0.0.1:9", "https_proxy": "http://127.0.0.1:9"]
        let redeemed = try PaywallProcess.run(
            ["redeem", "--store", catalog, "--license-file", license, "--data-dir", data], in: workDir, environment: offline)
        XCTAssertEqual(redeemed.status, 0, redeemed.stderr)
        let json = try JSONValue(parsing: redeemed.stdout)
        XCTAssertEqual(json["subscription_status"], "active")
        XCTAssertEqual(json["active_entitlements"], ["pro"])

        let big = workDir.appendingPathComponent("big.txt").path
        try Data(count: LicenseKeyStore.maxLicenseFileBytes + 1).write(to: URL(fileURLWithPath: big))
        let refused = try PaywallProcess.run(
            ["redeem", "--store", catalog, "--license-file", big, "--data-dir", data], in: workDir)
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("larger than any license file"), refused.stderr)
    }

    /// A libcrypto.so.3 that is not OpenSSL (a stand-in with none of its functions, first on
    /// LD_LIBRARY_PATH): a signed license is refused with the reason, nothing crashes.
    func testALibcryptoWithoutOpenSSLsFunctionsIsAClearErrorNotACrash() throws {
        let (key, catalog) = try seller()
        let license = workDir.appendingPathComponent("license.txt").path
        _ = try PaywallProcess.run(["license", "sign", "--key", key, "--product", "pro", "--out", license], in: workDir)
        let libraries = workDir.appendingPathComponent("lib")
        try FileManager.default.createDirectory(at: libraries, withIntermediateDirectories: true)
        let source = workDir.appendingPathComponent("empty.c")
        try "int not_openssl(void) { return 0; }\n".write(to: source, atomically: true, encoding: .utf8)
        _ = try Toolchain.run(
            try Toolchain.tool("clang"),
            ["-shared", "-fPIC", "-o", libraries.appendingPathComponent("libcrypto.so.3").path, source.path])
        let environment: [String: String?] = ["LD_LIBRARY_PATH": libraries.path]
        for arguments in [["license", "verify", license, "--store", catalog], ["license", "fingerprint", "--store", catalog]] {
            let refused = try PaywallProcess.run(arguments, in: workDir, environment: environment)
            XCTAssertEqual(refused.status, 1, arguments.joined(separator: " "))
            XCTAssertTrue(refused.stderr.contains("it is not OpenSSL 3"), refused.stderr)
        }
    }
}
