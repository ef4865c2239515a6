import Foundation

/// Gumroad's license API (no secret needed in the client): one endpoint, `POST /v2/licenses/verify`
/// with a form body of `product_id`, `license_key` and `increment_uses_count`. It counts uses
/// but enforces no limit (the catalog's `max_uses` is enforced by the store) and has no way for
/// an app to give a use back, so `deactivate` is `unsupported`. The old `product_permalink`
/// parameter is not sent: Gumroad requires `product_id` for products made since January 2023.
///
/// A key comes without its product, so a validation without an instance asks each of
/// `productIds` in catalog order (never counting a use): "That license does not exist for the
/// provided product." moves to the next, and only when none knows the key is it `notFound`.
/// This machine's activation is the product that knows the key: the instance id is that
/// product id, so a kept license validates with one request. Activating asks the products the
/// same way, then counts one use (`increment_uses_count=true`) on the one that knows the key,
/// and only when it is active. Retries, bounds and the URL policy are `LicenseAPIClient`'s.
package struct GumroadLicenseAPI: LicenseProvider {
    package var name: String { "Gumroad" }
    package var store: LicenseSettings.Provider { .gumroad }
    /// The catalog's Gumroad product ids, in catalog order.
    package let productIds: [String]
    package let client: LicenseAPIClient
    package var baseURL: URL { client.baseURL }
    /// The time a subscription's end is compared with.
    private let now: @Sendable () -> Date

    /// - Throws: `insecureURL` for a base URL that is not `https` (or `http` to loopback).
    package init(
        productIds: [String], baseURL: URL = LicenseSettings.gumroadAPI, retries: Int = 3, deadline: Double = 30,
        idleTimeout: Double = 15, maxResponseBytes: Int = 64_000,
        sleep: @escaping @Sendable (Double) async -> Void = { try? await Task.sleep(nanoseconds: UInt64($0 * 1e9)) },
        now: @escaping @Sendable () -> Date = { Date() }
    )
        throws(LicenseError)
    {
        client = try LicenseAPIClient(
            merchant: "Gumroad", baseURL: baseURL, retries: retries, deadline: deadline, idleTimeout: idleTimeout,
            maxResponseBytes: maxResponseBytes, sleep: sleep)
        self.productIds = productIds
        self.now = now
    }

    package func activate(key: String, instanceName: String) async throws(LicenseError) -> LicenseResponse {
        let (productId, check) = try await find(key)
        guard check.licenseKey.status == .active else {
            throw LicenseError(
                .rejected,
                "Gumroad license key \(LicenseKeyMask.mask(key)) is \(check.licenseKey.status.rawValue) for product "
                    + "\(productId); no use was counted",
                licenseKey: check.licenseKey)
        }
        var answer = try await verify(key, productId: productId, increment: true)
        answer.instance = LicenseInstance(id: productId, name: instanceName, createdAt: self.now())
        return answer
    }

    /// `instanceId` is the product id the key was activated for (see the type's summary).
    package func validate(key: String, instanceId: String?) async throws(LicenseError) -> LicenseResponse {
        if let instanceId { return try await verify(key, productId: instanceId, increment: false) }
        return try await find(key).1
    }

    package func deactivate(key: String, instanceId: String) async throws(LicenseError) -> LicenseResponse {
        throw LicenseError(
            .unsupported,
            "Gumroad cannot deactivate license key \(LicenseKeyMask.mask(key)): "
                + (LicenseSettings.Provider.gumroad.deactivationUnsupported ?? ""))
    }

    /// The first of `productIds` that knows `key`, and its answer (no use counted).
    private func find(_ key: String) async throws(LicenseError) -> (String, LicenseResponse) {
        for productId in productIds {
            do {
                return (productId, try await verify(key, productId: productId, increment: false))
            } catch  where error.kind == .notFound {
                continue
            }
        }
        let asked =
            productIds.isEmpty ? "no Gumroad product is in the catalog" : "asked products \(productIds.joined(separator: ", "))"
        throw LicenseError(
            .notFound,
            "Gumroad does not know license key \(LicenseKeyMask.mask(key)) (\(asked)); check the key in your purchase email")
    }

    private func verify(_ key: String, productId: String, increment: Bool) async throws(LicenseError) -> LicenseResponse {
        let url = client.url("v2/licenses/verify")
        let what = client.describe(increment ? "activation" : "verification", key: key, url: url) + " for product \(productId)"
        let form = ["product_id": productId, "license_key": key, "increment_uses_count": increment ? "true" : "false"]
        let at = self.now()
        return try await client.send(
            .post(url, form: form, headers: ["Accept": "application/json"]), documented: [200, 400, 404], key: key, what: what
        ) { (status, body) throws(LicenseError) in
            try GumroadAnswer.parse(body, status: status, key: key, productId: productId, now: at, what: what)
        }
    }
}
