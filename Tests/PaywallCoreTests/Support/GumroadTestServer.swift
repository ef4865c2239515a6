import Foundation
import XCTest

@testable import PaywallCore

/// `Fixtures/gumroad_server.py`: Gumroad's `POST /v2/licenses/verify` as documented, on
/// 127.0.0.1, checking every request's method, path, headers and form body. Tests script its
/// licenses and its next answers (`licenses`, `script`) and read what was asked (`requests`).
final class GumroadTestServer {
    static let script = TestPaths.fixtures.appendingPathComponent("gumroad_server.py")
    private let standIn: LicenseStandIn
    var port: Int { standIn.port }
    /// The licenses the server knows, by key (see the script for their fields; raise
    /// `revision` to change a known one).
    var licenses: [String: JSONValue] = [:] { didSet { writeControl() } }
    /// Answers given before the contract's, in order.
    var script: [JSONValue] = [] { didSet { writeControl() } }

    init(directory: URL) throws { standIn = try LicenseStandIn(script: Self.script, directory: directory) }

    var baseURL: URL { standIn.baseURL }

    /// A license of Gumroad product `productId` with `uses` uses; `extra` adds or overrides fields
    /// (`"refunded": true`, `"subscription": true`, ...).
    static func license(productId: String = "P-PRO", uses: Int = 0, revision: Int = 0, _ extra: [String: JSONValue] = [:])
        -> JSONValue
    {
        var fields: [String: JSONValue] = [
            "product_id": .string(productId), "uses": .number(Double(uses)), "revision": .number(Double(revision)),
        ]
        fields.merge(extra) { $1 }
        return .object(fields)
    }

    /// Every request so far: `path`, `method`, `form`, `violations`, and `uses` after it.
    var requests: [JSONValue] { standIn.requests }

    /// The forms of the requests, as `product_id increment_uses_count` pairs (the key left out).
    var asked: [String] {
        requests.map {
            "\($0["form"]?["product_id"]?.stringValue ?? "?") \($0["form"]?["increment_uses_count"]?.stringValue ?? "?")"
        }
    }

    /// The requests that broke the documented contract.
    var violations: [String] { standIn.violations }

    private func writeControl() {
        let control = JSONValue.object(["licenses": .object(licenses), "script": .array(script)])
        standIn.control(control)
    }

    func stop() { standIn.stop() }
}
