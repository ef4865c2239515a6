import Foundation

/// Polar's customer-portal license-key API (no token: made for desktop apps): `POST
/// /v1/customer-portal/license-keys/validate`, `/activate` and `/deactivate`, JSON bodies
/// naming the seller's `organization_id`. Validate and activate answer the key (200), deactivate
/// answers 204 with no body; refusals are 404 (`ResourceNotFound`), 403 (`NotPermitted`: the
/// activation limit is reached, or the key takes no activations) and 422
/// (`HTTPValidationError`). Retries, bounds and the URL policy are `LicenseAPIClient`'s; an
/// answer that is not the documented JSON is a `malformedResponse` error, never a crash.
package struct PolarLicenseAPI: LicenseProvider {
    package var name: String { "Polar" }
    package var store: LicenseSettings.Provider { .polar }
    /// The seller's organization (the catalog's `polar: {organization_id}`), sent with every request.
    package let organizationId: String
    package let client: LicenseAPIClient
    package var baseURL: URL { client.baseURL }

    /// - Throws: `insecureURL` for a base URL that is not `https` (or `http` to loopback).
    package init(
        organizationId: String, baseURL: URL = LicenseSettings.polarAPI, retries: Int = 3, deadline: Double = 30,
        idleTimeout: Double = 15, maxResponseBytes: Int = 64_000,
        sleep: @escaping @Sendable (Double) async -> Void = { try? await Task.sleep(nanoseconds: UInt64($0 * 1e9)) }
    )
        throws(LicenseError)
    {
        self.organizationId = organizationId
        client = try LicenseAPIClient(
            merchant: "Polar", baseURL: baseURL, retries: retries, deadline: deadline, idleTimeout: idleTimeout,
            maxResponseBytes: maxResponseBytes, sleep: sleep)
    }

    /// Activates `key` with `instanceName` as the activation's `label`. A 403 carries no key, so
    /// the key is validated to describe it: at its limit, the refusal says so; a key without an
    /// activation limit takes no activations at Polar (it answers 403 for them), so it is kept
    /// as validated here with no activation id (`noActivation`), which validation then leaves out.
    package func activate(key: String, instanceName: String) async throws(LicenseError) -> LicenseResponse {
        do {
            return try await call("activate", ["label": .string(instanceName)], key: key, documented: [200, 403, 404, 422]) {
                (status, body, what) throws(LicenseError) in
                try PolarAnswer.activated(body, status: status, what: what, now: Date())
            }
        } catch  where error.kind == .rejected && error.statusCode == 403 {
            guard let validation = try? await validate(key: key, instanceId: nil) else { throw error }
            if validation.succeeded, validation.licenseKey.activationLimit == nil,
                validation.licenseKey.status == .active
            {
                var answer = validation
                answer.instance = LicenseInstance(id: Self.noActivation, name: instanceName, createdAt: nil)
                return answer
            }
            var described = validation.licenseKey
            // Polar refuses at its limit: every activation it allows is in use.
            described.activationUsage = max(described.activationUsage, described.activationLimit ?? 0)
            var refusal = error
            refusal.licenseKey = described
            throw refusal
        }
    }

    /// The instance id of a key kept without an activation (one with no activation limit).
    static let noActivation = ""

    package func validate(key: String, instanceId: String?) async throws(LicenseError) -> LicenseResponse {
        let fields: [String: JSONValue] =
            instanceId.flatMap { $0 == Self.noActivation ? nil : ["activation_id": .string($0)] } ?? [:]
        return try await call("validate", fields, key: key, documented: [200, 404, 422]) {
            (status, body, what) throws(LicenseError) in
            try PolarAnswer.validated(body, status: status, what: what, now: Date())
        }
    }

    /// Deactivates the activation `instanceId`. Polar answers 204 with no body, so the key is
    /// validated afterwards to describe it as it now stands.
    package func deactivate(key: String, instanceId: String) async throws(LicenseError) -> LicenseResponse {
        // Nothing was activated at Polar for a key without a limit: forgetting it here is all.
        if instanceId == Self.noActivation { return try await validate(key: key, instanceId: nil) }
        try await call("deactivate", ["activation_id": .string(instanceId)], key: key, documented: [204, 404, 422]) {
            _, _, _ in
            // 204: nothing to read (an HTTP client reads no body after a 204).
        }
        var answer = try await validate(key: key, instanceId: nil)
        answer.succeeded = true
        return answer
    }

    /// Posts `fields` with the key and organization to `action`; a 200 or 204 goes to `parse`,
    /// the documented refusals become `LicenseError`s (404: `notFound`, 403 and 422: `rejected`).
    private func call<Answer>(
        _ action: String, _ fields: [String: JSONValue], key: String, documented: Set<Int>,
        parse: (_ status: Int, _ body: Data, _ what: String) throws(LicenseError) -> Answer
    ) async throws(LicenseError) -> Answer {
        let url = client.url("v1/customer-portal/license-keys/\(action)")
        let what = client.describe(action, key: key, url: url)
        var body = fields
        body["key"] = .string(key)
        body["organization_id"] = .string(organizationId)
        return try await client.send(
            .post(url, json: Data(JSONValue.object(body).jsonText.utf8), headers: ["Accept": "application/json"]),
            documented: documented, key: key, what: what
        ) { (status, data) throws(LicenseError) in
            guard status >= 300 else { return try parse(status, data, what) }
            let words = try PolarAnswer.refusal(data, status: status, what: what)
            throw LicenseError(
                status == 404 ? .notFound : .rejected, "\(what): refused (HTTP \(status)): \"\(words)\"", statusCode: status)
        }
    }
}
