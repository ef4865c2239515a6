import Foundation

/// Lemon Squeezy's License API (no secret needed in the client): `POST /v1/licenses/activate`,
/// `/validate` and `/deactivate`, form-encoded bodies, `Accept: application/json`. 400, 404 and
/// 422 answer with an `error` field; past 60 requests a minute it answers 429. Retries, bounds
/// and the URL policy are `LicenseAPIClient`'s; an answer that is not the documented JSON is a
/// `malformedResponse` error, never a crash.
package struct LemonSqueezyLicenseAPI: LicenseProvider {
    package var name: String { "Lemon Squeezy" }
    package var store: LicenseSettings.Provider { .lemonSqueezy }
    package let client: LicenseAPIClient
    package var baseURL: URL { client.baseURL }

    /// - Throws: `insecureURL` for a base URL that is not `https` (or `http` to loopback).
    package init(
        baseURL: URL = LicenseSettings.lemonSqueezyAPI, retries: Int = 3, deadline: Double = 30, idleTimeout: Double = 15,
        maxResponseBytes: Int = 64_000,
        sleep: @escaping @Sendable (Double) async -> Void = { try? await Task.sleep(nanoseconds: UInt64($0 * 1e9)) }
    )
        throws(LicenseError)
    {
        client = try LicenseAPIClient(
            merchant: "Lemon Squeezy", baseURL: baseURL, retries: retries, deadline: deadline, idleTimeout: idleTimeout,
            maxResponseBytes: maxResponseBytes, sleep: sleep)
    }

    package func activate(key: String, instanceName: String) async throws(LicenseError) -> LicenseResponse {
        try await call("activate", ["license_key": key, "instance_name": instanceName], key: key, flag: "activated")
    }

    package func validate(key: String, instanceId: String?) async throws(LicenseError) -> LicenseResponse {
        var form = ["license_key": key]
        if let instanceId { form["instance_id"] = instanceId }
        return try await call("validate", form, key: key, flag: "valid")
    }

    package func deactivate(key: String, instanceId: String) async throws(LicenseError) -> LicenseResponse {
        try await call("deactivate", ["license_key": key, "instance_id": instanceId], key: key, flag: "deactivated")
    }

    private func call(_ action: String, _ form: [String: String], key: String, flag: String) async throws(LicenseError)
        -> LicenseResponse
    {
        let url = client.url("v1/licenses/\(action)")
        let what = client.describe(action, key: key, url: url)
        return try await client.send(
            .post(url, form: form, headers: ["Accept": "application/json"]), documented: [200, 400, 404, 422], key: key,
            what: what
        ) { (status, body) throws(LicenseError) in
            try LemonSqueezyAnswer.parse(body, status: status, flag: flag, what: what)
        }
    }
}
