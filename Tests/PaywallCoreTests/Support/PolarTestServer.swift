import Foundation
import XCTest

@testable import PaywallCore

/// `Fixtures/polar_server.py`: Polar's customer-portal license-key API as documented, on
/// 127.0.0.1, checking every request's method, headers and JSON body. Tests script its keys and
/// its next answers (`keys`, `script`) and read what was asked (`requests`).
final class PolarTestServer {
    static let script = TestPaths.fixtures.appendingPathComponent("polar_server.py")
    static let organizationId = "org_1"
    private let standIn: LicenseStandIn
    var port: Int { standIn.port }
    /// The keys the server knows, by key: `id`, `status`, `limit_activations`, `expires_at`,
    /// `benefit_id`, `organization_id`, `revision` (raise it to change a known key).
    var keys: [String: JSONValue] = [:] { didSet { writeControl() } }
    /// Answers given before the contract's, per action (`validate`), in order.
    var script: [String: [JSONValue]] = [:] { didSet { writeControl() } }

    init(directory: URL) throws { standIn = try LicenseStandIn(script: Self.script, directory: directory) }

    var baseURL: URL { standIn.baseURL }

    /// A key of benefit `ben_pro` (the catalog's `pro.lifetime`), granted with two activations.
    static func key(
        id: String, status: String = "granted", limit: Int? = 2, expiresAt: String? = nil, benefitId: String = "ben_pro",
        organizationId: String = organizationId, revision: Int = 0
    ) -> JSONValue {
        .object([
            "id": .string(id), "status": .string(status), "limit_activations": limit.map { .number(Double($0)) } ?? .null,
            "expires_at": expiresAt.map(JSONValue.string) ?? .null, "benefit_id": .string(benefitId),
            "organization_id": .string(organizationId), "revision": .number(Double(revision)),
        ])
    }

    /// Every request so far: `path`, `method`, `body`, `violations`.
    var requests: [JSONValue] { standIn.requests }

    /// The requests that broke the documented contract (method, headers, body fields).
    var violations: [String] { standIn.violations }

    private func writeControl() {
        let paths = Dictionary(uniqueKeysWithValues: script.map { ("/v1/customer-portal/license-keys/\($0.key)", $0.value) })
        let control = JSONValue.object(["keys": .object(keys), "script": .object(paths.mapValues(JSONValue.array))])
        standIn.control(control)
    }

    func stop() { standIn.stop() }

    /// A license-key catalog selling `pro.lifetime` (Polar benefit `ben_pro`) through this server.
    func writeCatalog(in directory: URL, graceDays: Int = 14) throws -> String {
        let catalog = """
            {"store": "polar", "polar": {"organization_id": "\(Self.organizationId)", "api_base_url": "\(baseURL.absoluteString)"},
             "offline_grace_days": \(graceDays), "customer_portal_url": "https://polar.sh/lumen/portal",
             "products": [
               {"id": "pro.lifetime", "display_name": "Lumen Pro", "price": "49.00", "currency": "USD", "kind": "non_consumable",
                "entitlements": ["pro"], "checkout_url": "https://buy.polar.sh/polar_cl_abc123",
                "polar": {"benefit_id": "ben_pro"}}
             ]}
            """
        return try writeFile(catalog, to: "license-catalog.json", in: directory).path
    }
}
