import Foundation
import XCTest

@testable import PaywallCore

/// `Fixtures/lemon_squeezy_server.py`: Lemon Squeezy's License API as documented, on 127.0.0.1,
/// checking every request's method, headers and form body. Tests script its keys and its next
/// answers (`keys`, `script`) and read what was asked (`requests`).
final class LemonSqueezyTestServer {
    static let script = TestPaths.fixtures.appendingPathComponent("lemon_squeezy_server.py")
    private let standIn: LicenseStandIn
    var port: Int { standIn.port }
    /// The keys the server knows, by key: `id`, `status`, `activation_limit`, `activation_usage`,
    /// `expires_at`, `product_id`, `variant_id`, `revision` (raise it to change a known key).
    var keys: [String: JSONValue] = [:] { didSet { writeControl() } }
    /// Answers given before the contract's, per path (`/v1/licenses/validate`), in order.
    var script: [String: [JSONValue]] = [:] { didSet { writeControl() } }

    init(directory: URL) throws { standIn = try LicenseStandIn(script: Self.script, directory: directory) }

    var baseURL: URL { standIn.baseURL }

    /// A key of product 10 / variant 11 (the catalog's `pro`), active with two activations.
    static func key(
        id: Int, status: String = "active", limit: Int? = 2, usage: Int = 0, expiresAt: String? = nil,
        productId: Int = 10, variantId: Int = 11, revision: Int = 0
    ) -> JSONValue {
        .object([
            "id": .number(Double(id)), "status": .string(status), "activation_limit": limit.map { .number(Double($0)) } ?? .null,
            "activation_usage": .number(Double(usage)), "expires_at": expiresAt.map(JSONValue.string) ?? .null,
            "product_id": .number(Double(productId)), "variant_id": .number(Double(variantId)),
            "revision": .number(Double(revision)),
        ])
    }

    /// Every request so far: `path`, `method`, `form`, `violations`.
    var requests: [JSONValue] { standIn.requests }

    /// The requests that broke the documented contract (method, headers, form fields).
    var violations: [String] { standIn.violations }

    private func writeControl() {
        let control = JSONValue.object(["keys": .object(keys), "script": .object(script.mapValues(JSONValue.array))])
        standIn.control(control)
    }

    func stop() { standIn.stop() }
}

extension LemonSqueezyTestServer {
    /// A license-key catalog selling `pro.lifetime` (Lemon Squeezy product 10, variant 11) through this server.
    /// `storeId`: the catalog's `lemon_squeezy: {store_id}`.
    func writeCatalog(in directory: URL, graceDays: Int = 14, storeId: Int? = nil) throws -> String {
        let seller = storeId.map { #""lemon_squeezy": {"store_id": \#($0)}, "# } ?? ""
        let catalog = """
            {"store": "lemon_squeezy", "license_api_base_url": "\(baseURL.absoluteString)", "offline_grace_days": \(graceDays), \(seller)
             "customer_portal_url": "https://lumen.lemonsqueezy.com/billing",
             "products": [
               {"id": "pro.lifetime", "display_name": "Lumen Pro", "price": "49.00", "currency": "USD", "kind": "non_consumable",
                "entitlements": ["pro"], "checkout_url": "https://lumen.lemonsqueezy.com/buy/abc-123?embed=0",
                "lemon_squeezy": {"product_id": 10, "variant_id": 11}}
             ]}
            """
        return try writeFile(catalog, to: "license-catalog.json", in: directory).path
    }
}

/// A clock tests move by hand, shared with the store through `LicenseServices.now`.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    init(_ start: Date = Date()) { current = start }

    var now: Date { lock.withLock { current } }
    func advance(days: Double) { lock.withLock { current = current.addingTimeInterval(days * 86_400) } }
    func advance(seconds: Double) { lock.withLock { current = current.addingTimeInterval(seconds) } }
}
