import Foundation
import XCTest

/// One of the core tests' stand-ins for a merchant's license API on 127.0.0.1 (Lemon
/// Squeezy's, `Tests/PaywallCoreTests/Fixtures/lemon_squeezy_server.py`, or another's, such as
/// `polar_server.py`), for the built `paywall`: it knows the keys the test gives it, checks
/// every request against the documented contract and logs it.
final class LicenseAPIServer {
    private let process = Process()
    private let logFile: URL
    let baseURL: URL

    /// Serves `keys` in the stand-in's own form (Lemon Squeezy's: key -> `{id, status,
    /// activation_limit, activation_usage, product_id, variant_id}`).
    init(directory: URL, keys: [String: [String: Any]], script: String = "lemon_squeezy_server.py") throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let control = directory.appendingPathComponent("control.json")
        logFile = directory.appendingPathComponent("requests.jsonl")
        try JSONSerialization.data(withJSONObject: ["keys": keys, "script": [:]]).write(to: control)
        let port = try StandInServer.start(
            process, script: script, control: control, log: logFile,
            portFile: directory.appendingPathComponent("port"), name: "the License API server")
        baseURL = URL(string: "http://127.0.0.1:\(port)")!
    }

    deinit { stop() }

    /// Each request so far: `path`, `method`, `form`, `violations`.
    var requests: [[String: Any]] {
        let text = (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// The requests that broke the documented contract.
    var violations: [String] {
        requests.flatMap { ($0["violations"] as? [String]) ?? [] }
    }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    /// Writes a Lemon Squeezy catalog selling one lifetime product (`pro.lifetime`, entitlement
    /// `pro`) whose License API is the loopback server on `port`.
    static func writeLifetimeCatalog(to catalog: URL, port: Int) throws {
        try Data(
            """
            {"store": "lemon_squeezy", "license_api_base_url": "http://127.0.0.1:\(port)",
             "products": [{"id": "pro.lifetime", "display_name": "Pro", "price": "49", "currency": "USD",
                           "kind": "non_consumable", "entitlements": ["pro"], "checkout_url": "https://x.lemonsqueezy.com/buy/1",
                           "lemon_squeezy": {"product_id": 10, "variant_id": 11}}]}
            """.utf8
        ).write(to: catalog)
    }
}
