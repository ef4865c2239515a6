import Foundation
import XCTest

@testable import PaywallCore

/// `Fixtures/keygen_server.py`: Keygen's API as documented, for the account `lumen`, on
/// 127.0.0.1, checking every request's method, path, headers and JSON:API body. Tests script its
/// keys and its next answers (`keys`, `script`) and read what was asked (`requests`).
final class KeygenTestServer {
    static let script = TestPaths.fixtures.appendingPathComponent("keygen_server.py")
    static let account = "lumen"
    private let standIn: LicenseStandIn
    var port: Int { standIn.port }
    /// The licenses the server knows, by key (`KeygenTestServer.key`).
    var keys: [String: JSONValue] = [:] { didSet { writeControl() } }
    /// Answers given before the contract's, per action (`validate-key`, `machines`, `machine`,
    /// `delete`), in order.
    var script: [String: [JSONValue]] = [:] { didSet { writeControl() } }

    init(directory: URL) throws { standIn = try LicenseStandIn(script: Self.script, directory: directory) }

    var baseURL: URL { standIn.baseURL }

    /// A license of product `prod-1` / policy `pol-1` (the catalog's `pro`), floating, at most
    /// `maxMachines` machines. `auth`: the policy's authentication strategy; `expirationStrategy`:
    /// what an expired license keeps (RESTRICT_ACCESS, REVOKE_ACCESS, MAINTAIN_ACCESS, ALLOW_ACCESS).
    static func key(
        id: String, maxMachines: Int? = 2, floating: Bool = true, suspended: Bool = false, banned: Bool = false,
        expired: Bool = false, overdue: Bool = false, expiry: String? = nil, auth: String = "LICENSE", product: String = "prod-1",
        policy: String = "pol-1", expirationStrategy: String = "RESTRICT_ACCESS", revision: Int = 0
    ) -> JSONValue {
        .object([
            "id": .string(id), "max_machines": maxMachines.map { .number(Double($0)) } ?? .null, "floating": .bool(floating),
            "suspended": .bool(suspended), "banned": .bool(banned), "expired": .bool(expired), "overdue": .bool(overdue),
            "expiry": expiry.map(JSONValue.string) ?? .null, "auth": .string(auth), "product": .string(product),
            "policy": .string(policy), "expiration_strategy": .string(expirationStrategy),
            "revision": .number(Double(revision)),
        ])
    }

    /// Every request so far: `path`, `method`, `action`, `body`, `authorization`, `violations`.
    var requests: [JSONValue] { standIn.requests }

    /// The requests that broke the documented contract.
    var violations: [String] { standIn.violations }

    private func writeControl() {
        let control = JSONValue.object(["keys": .object(keys), "script": .object(script.mapValues(JSONValue.array))])
        standIn.control(control)
    }

    func stop() { standIn.stop() }
}
