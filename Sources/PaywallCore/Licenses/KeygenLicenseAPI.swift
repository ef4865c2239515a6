import Foundation

/// Keygen's API (keygen.sh, or a self-hosted server's base URL), spoken as JSON:API
/// (`application/vnd.api+json`) for the seller's `account`:
/// - validate: `POST /v1/accounts/{account}/licenses/actions/validate-key` with the key and this
///   machine's `fingerprint` as the scope, no token;
/// - activate: validate (to learn the license's id), then `POST /v1/accounts/{account}/machines`
///   with the fingerprint, the instance name and the license, as `Authorization: License KEY`
///   (the policy's authentication strategy must be LICENSE or MIXED);
/// - deactivate: validate (to describe the key), then `DELETE /v1/accounts/{account}/machines/{id}`.
///
/// The machine is the instance. Retries, bounds and the URL policy are `LicenseAPIClient`'s;
/// `KeygenAnswer` reads the answers.
package struct KeygenLicenseAPI: LicenseProvider {
    package var name: String { "Keygen" }
    package var store: LicenseSettings.Provider { .keygen }
    package let client: LicenseAPIClient
    /// The seller's Keygen account: its id or slug.
    package let account: String
    /// This machine's fingerprint (an HMAC of /etc/machine-id): what Keygen tells machines apart by.
    /// A machine without a machine id fails each request, saying so, instead of keeping the app
    /// from starting.
    package let fingerprint: Result<String, LicenseError>
    package var baseURL: URL { client.baseURL }

    /// - Throws: `insecureURL` for a base URL that is not `https` (or `http` to loopback).
    package init(
        account: String, baseURL: URL = LicenseSettings.keygenAPI, fingerprint: Result<String, LicenseError>,
        retries: Int = 3,
        deadline: Double = 30, idleTimeout: Double = 15, maxResponseBytes: Int = 64_000,
        sleep: @escaping @Sendable (Double) async -> Void = { try? await Task.sleep(nanoseconds: UInt64($0 * 1e9)) }
    )
        throws(LicenseError)
    {
        client = try LicenseAPIClient(
            merchant: "Keygen", baseURL: baseURL, retries: retries, deadline: deadline, idleTimeout: idleTimeout,
            maxResponseBytes: maxResponseBytes, sleep: sleep)
        self.account = account
        self.fingerprint = fingerprint
    }

    /// Without `instanceId` this asks whether the key itself is good: a key valid but not
    /// activated on this machine (`NO_MACHINE`, `NO_MACHINES`, `FINGERPRINT_SCOPE_MISMATCH`)
    /// succeeds, so the store goes on to activate it. With `instanceId` it asks whether this
    /// machine's activation stands, and those codes do not succeed.
    package func validate(key: String, instanceId: String?) async throws(LicenseError) -> LicenseResponse {
        let check = try await validation(key: key, instanceId: instanceId)
        return check.response(forInstance: instanceId != nil)
    }

    /// Validates first: the machine names the license by its id, which only the validation gives.
    package func activate(key: String, instanceName: String) async throws(LicenseError) -> LicenseResponse {
        let check = try await validation(key: key, instanceId: nil)
        var details = check.key
        // Keygen would take a machine for a suspended or expired license: it is refused here.
        if details.status == .expired || details.status == .disabled { throw notActivated(key, check) }
        let url = client.url("v1/accounts/\(account)/machines")
        let what = client.describe("activate", key: key, url: url)
        let body = JSONValue.object([
            "data": .object([
                "type": .string("machines"),
                "attributes": .object(["fingerprint": .string(try fingerprint.get()), "name": .string(instanceName)]),
                "relationships": .object([
                    "license": .object(["data": .object(["type": .string("licenses"), "id": .string(details.id)])])
                ]),
            ])
        ])
        let created = try await client.send(
            jsonAPI(.post(url, json: Data(body.jsonText.utf8), headers: licenseAuth(key))),
            documented: [201, 400, 401, 403, 404, 422],
            key: key, what: what
        ) { (status, body) throws(LicenseError) in
            try KeygenAnswer.machine(body, status: status, key: details, what: what)
        }
        let machine: LicenseInstance
        switch created {
        case .created(let instance):
            machine = instance
            details.activationUsage += 1
        case .fingerprintTaken:
            // Already activated here (the app's data was lost): that machine is this instance.
            machine = try await existingMachine(key: key)
        }
        details.status = .active
        if check.licenseExpired {
            // Expired, but answered "no machine" (scopes first): the machine's validation says
            // whether the policy keeps access (valid, EXPIRED); if not, the new machine is freed.
            let there = try await validation(key: key, instanceId: machine.id)
            guard there.valid else {
                if case .created = created { try? await deleteMachine(key: key, id: machine.id) }
                throw notActivated(key, there)
            }
            details = there.key
        }
        return LicenseResponse(succeeded: true, licenseKey: details, instance: machine, meta: check.meta)
    }

    private func notActivated(_ key: String, _ check: KeygenAnswer.Validation) -> LicenseError {
        LicenseError(
            .rejected,
            "Keygen says license key \(LicenseKeyMask.mask(key)) is not valid (\(check.detail.map { "\($0), " } ?? "")\(check.code)); "
                + "it was not activated",
            licenseKey: check.key)
    }

    /// Validates first, so the answer describes the key; a key or machine Keygen no longer
    /// knows is `notFound` (nothing left to free).
    package func deactivate(key: String, instanceId: String) async throws(LicenseError) -> LicenseResponse {
        let check = try await validation(key: key, instanceId: nil)
        var details = check.key
        try await deleteMachine(key: key, id: instanceId)
        details.activationUsage = max(0, details.activationUsage - 1)
        return LicenseResponse(
            succeeded: true, licenseKey: details, instance: LicenseInstance(id: instanceId, name: "", createdAt: nil),
            meta: check.meta)
    }

    private func deleteMachine(key: String, id: String) async throws(LicenseError) {
        let url = client.url("v1/accounts/\(account)/machines/\(id)")
        let what = client.describe("deactivate", key: key, url: url)
        try await client.send(
            jsonAPI(.delete(url, headers: licenseAuth(key))), documented: [204, 401, 403, 404], key: key, what: what
        ) { (status, body) throws(LicenseError) in
            try KeygenAnswer.deleted(body, status: status, what: what)
        }
    }

    private func validation(key: String, instanceId: String?) async throws(LicenseError) -> KeygenAnswer.Validation {
        let url = client.url("v1/accounts/\(account)/licenses/actions/validate-key")
        let what = client.describe("validate", key: key, url: url)
        var scope: [String: JSONValue] = ["fingerprint": .string(try fingerprint.get())]
        if let instanceId { scope["machine"] = .string(instanceId) }
        let body = JSONValue.object(["meta": .object(["key": .string(key), "scope": .object(scope)])])
        return try await client.send(
            jsonAPI(.post(url, json: Data(body.jsonText.utf8))), documented: [200, 400, 401, 403, 404, 422], key: key,
            what: what
        ) { (status, body) throws(LicenseError) in
            try KeygenAnswer.validation(body, status: status, what: what)
        }
    }

    /// This machine's activation, looked up by its fingerprint (Keygen finds machines by id or fingerprint).
    private func existingMachine(key: String) async throws(LicenseError) -> LicenseInstance {
        let url = client.url("v1/accounts/\(account)/machines/\(try fingerprint.get())")
        let what = client.describe("activate", key: key, url: url)
        return try await client.send(
            jsonAPI(.get(url, headers: licenseAuth(key))), documented: [200, 401, 403, 404], key: key, what: what
        ) { (status, body) throws(LicenseError) in
            try KeygenAnswer.existingMachine(body, status: status, what: what)
        }
    }

    private func licenseAuth(_ key: String) -> [String: String] { ["Authorization": "License \(key)"] }

    /// JSON:API's media type both ways.
    private func jsonAPI(_ request: HTTPRequest) -> HTTPRequest {
        var request = request
        request.headers["Accept"] = "application/vnd.api+json"
        if request.body != nil { request.headers["Content-Type"] = "application/vnd.api+json" }
        return request
    }
}
