import Foundation
import PaywallCore
import XCTest

/// `paywall redeem` end to end: the built executable activates a key against a local License
/// API server (`Tests/PaywallCoreTests/Fixtures/lemon_squeezy_server.py`, which checks every
/// request), and a fresh process reads the entitlement with that server gone.
final class RedeemTests: EndToEndTestCase {
    static let key = "38b1460a-5104-4067-a91d-77b872934d51"
    private var server: Process?

    override func tearDownWithError() throws {
        if let server, server.isRunning {
            server.terminate()
            server.waitUntilExit()
        }
        try super.tearDownWithError()
    }

    /// Starts the License API server knowing `key` (product 10, variant 11) and returns its base URL.
    private func startServer() throws -> URL {
        let directory = workDir.appendingPathComponent("server")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let control =
            #"{"keys": {"\#(Self.key)": {"id": 1, "status": "active", "activation_limit": 2, "activation_usage": 0, "product_id": 10, "variant_id": 11}}}"#
        try Data(control.utf8).write(to: directory.appendingPathComponent("control.json"))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [
            Self.packageRoot.appendingPathComponent("Tests/PaywallCoreTests/Fixtures/lemon_squeezy_server.py").path,
            directory.appendingPathComponent("control.json").path, directory.appendingPathComponent("requests.jsonl").path,
            directory.appendingPathComponent("port").path,
        ]
        try process.run()
        server = process
        let portFile = directory.appendingPathComponent("port")
        for _ in 0..<500 where !FileManager.default.fileExists(atPath: portFile.path) { usleep(20_000) }
        let port = try XCTUnwrap(
            (try? String(contentsOf: portFile, encoding: .utf8)).flatMap(Int.init), "the server did not start")
        return URL(string: "http://127.0.0.1:\(port)")!
    }

    private func writeCatalog(_ base: URL) throws -> String {
        let catalog = """
            {"store": "lemon_squeezy", "license_api_base_url": "\(base.absoluteString)",
             "products": [{"id": "pro.lifetime", "display_name": "Lumen Pro", "price": "49", "currency": "USD",
                           "kind": "non_consumable", "entitlements": ["pro"], "checkout_url": "https://lumen.lemonsqueezy.com/buy/1",
                           "lemon_squeezy": {"product_id": 10, "variant_id": 11}}]}
            """
        let url = workDir.appendingPathComponent("license-catalog.json")
        try Data(catalog.utf8).write(to: url)
        return url.path
    }

    private var requests: [JSONValue] {
        let text = (try? String(contentsOf: workDir.appendingPathComponent("server/requests.jsonl"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { try? JSONValue(parsing: String($0)) }
    }

    /// A redeem link on stdin keeps the key out of argv; a line over 16 KB is refused unread.
    func testStdinTakesARedeemLinkAndBoundsItsLine() throws {
        let catalog = try writeCatalog(try startServer())
        let data = workDir.appendingPathComponent("data").path
        let linkFile = workDir.appendingPathComponent("link.txt")
        try Data("lumennotes://paywall/redeem?license_key=\(Self.key)\n".utf8).write(to: linkFile)
        let redeemed = try PaywallProcess.run(["redeem", "--store", catalog, "--data-dir", data], in: workDir, stdin: linkFile)
        XCTAssertEqual(redeemed.status, 0, redeemed.stderr)
        XCTAssertEqual(try JSONValue(parsing: redeemed.stdout)["subscription_status"], "active")

        let long = workDir.appendingPathComponent("long.txt")
        try Data(String(repeating: "k", count: 16 * 1024 + 1).utf8).write(to: long)
        let refused = try PaywallProcess.run(["redeem", "--store", catalog, "--data-dir", data], in: workDir, stdin: long)
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("the line on stdin is over 16 KB"), refused.stderr)
        XCTAssertFalse(refused.stderr.contains("kkkk"), "not echoed")
    }

    func testRedeemFromStdinThenTheEntitlementIsActiveInAFreshProcessWithTheServerDown() throws {
        let catalog = try writeCatalog(try startServer())
        let data = workDir.appendingPathComponent("data").path
        let keyFile = workDir.appendingPathComponent("key.txt")
        try Data("\n  \(Self.key)  \n".utf8).write(to: keyFile)

        let redeemed = try PaywallProcess.run(
            ["redeem", "--store", catalog, "--data-dir", data, "--user", "ada"], in: workDir, stdin: keyFile)
        XCTAssertEqual(redeemed.status, 0, redeemed.stderr)
        let report = try JSONValue(parsing: redeemed.stdout)
        XCTAssertEqual(report["user_id"], "ada")
        XCTAssertEqual(report["subscription_status"], "active")
        XCTAssertEqual(report["entitlements"]?.arrayValue?.first?["id"], "pro")
        XCTAssertEqual(report["entitlements"]?.arrayValue?.first?["store"], "LEMON_SQUEEZY")
        XCTAssertEqual(requests.map { $0["path"]?.stringValue }, ["/v1/licenses/validate", "/v1/licenses/activate"])
        XCTAssertEqual(requests.flatMap { $0["violations"]?.arrayValue ?? [] }, [])

        server?.terminate()
        server?.waitUntilExit()
        let status = try PaywallProcess.run(["status", "--data-dir", data, "--user", "ada", "--json"], in: workDir)
        XCTAssertEqual(status.status, 0, status.stderr)
        let json = try JSONValue(parsing: status.stdout)
        XCTAssertEqual(json["subscription_status"], "active")
        let license = try XCTUnwrap(json["licenses"]?.arrayValue?.first)
        XCTAssertEqual(license["license_key"], "****4d51")
        XCTAssertEqual(license["state"], "subscribed")
        XCTAssertEqual(license["activation_usage"], 1)
        let text = try PaywallProcess.run(["status", "--data-dir", data], in: workDir)
        XCTAssertTrue(
            text.stdout.contains("license ****4d51\tpro.lifetime\tsubscribed\t1 of 2 activations\tno expiry"), text.stdout)
        for output in [redeemed.stdout, redeemed.stderr, status.stdout, text.stdout] {
            XCTAssertFalse(output.contains(Self.key), "the key appears unmasked: \(output)")
        }

        // A fresh process with the store too: the cached validation, at once, offline.
        let entitlements = try PaywallProcess.run(
            ["store", "entitlements", "--store", catalog, "--data-dir", data, "--user", "ada", "--json"],
            in: workDir)
        XCTAssertEqual(entitlements.status, 0, entitlements.stderr)
        XCTAssertEqual(try JSONValue(parsing: entitlements.stdout)["subscription_status"], "active")
    }

    func testRedeemFromALink() throws {
        let catalog = try writeCatalog(try startServer())
        let result = try PaywallProcess.run(
            [
                "redeem", "--store", catalog, "--data-dir", workDir.appendingPathComponent("data").path,
                "lumennotes://paywall/redeem?license_key=\(Self.key)",
            ], in: workDir)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try JSONValue(parsing: result.stdout)["subscription_status"], "active")
    }

    func testErrorsSayWhatAndHowToFix() throws {
        let catalog = try writeCatalog(try startServer())
        let data = workDir.appendingPathComponent("data").path
        let keyFile = workDir.appendingPathComponent("key.txt")
        try Data("NO-SUCH-KEY-12345\n".utf8).write(to: keyFile)
        let unknown = try PaywallProcess.run(["redeem", "--store", catalog, "--data-dir", data], in: workDir, stdin: keyFile)
        XCTAssertEqual(unknown.status, 1)
        XCTAssertTrue(
            unknown.stderr.contains("license key not activated") && unknown.stderr.contains("license_key not found."),
            unknown.stderr)
        XCTAssertTrue(unknown.stderr.contains("****2345") && !unknown.stderr.contains("NO-SUCH-KEY-12345"), unknown.stderr)

        let empty = try PaywallProcess.run(["redeem", "--store", catalog, "--data-dir", data], in: workDir)
        XCTAssertEqual(empty.status, 1)
        XCTAssertTrue(empty.stderr.contains("no license key was given"), empty.stderr)

        let notALink = try PaywallProcess.run(
            ["redeem", "--store", catalog, "--data-dir", data, "SECRET-KEY-IN-ARGV"], in: workDir)
        XCTAssertEqual(notALink.status, 2)
        XCTAssertTrue(notALink.stderr.contains("not a redeem link"), notALink.stderr)
        XCTAssertFalse(notALink.stderr.contains("SECRET-KEY-IN-ARGV"))

        let noStore = try PaywallProcess.run(["redeem", "--data-dir", data], in: workDir)
        XCTAssertEqual(noStore.status, 2)
        XCTAssertTrue(noStore.stderr.contains("--store CATALOG is required"), noStore.stderr)

        let fake = Self.packageRoot.appendingPathComponent("templates/classic/store.json").path
        let noLicenses = try PaywallProcess.run(["redeem", "--store", fake, "--data-dir", data], in: workDir, stdin: keyFile)
        XCTAssertEqual(noLicenses.status, 1)
        XCTAssertTrue(noLicenses.stderr.contains("sells no license keys"), noLicenses.stderr)

        let steering = try PaywallProcess.run(["store", "advance", "1d", "--store", catalog, "--data-dir", data], in: workDir)
        XCTAssertEqual(steering.status, 1)
        XCTAssertTrue(steering.stderr.contains("steers the fake store only"), steering.stderr)
    }
}
