import Foundation

/// A merchant of record's license API, as the license-key store uses it: activate a key on this
/// machine, validate it, deactivate it. `LemonSqueezyLicenseAPI` ships; Keygen, Gumroad and
/// others fit the same three calls.
///
/// A refusal the provider answers (unknown key, activation limit, expired key) is a
/// `LicenseError` with its kind and the provider's words; transient failures (429, 5xx) are
/// retried with back-off inside the call before they are thrown.
package protocol LicenseProvider: Sendable {
    /// The provider's name for messages (`Lemon Squeezy`).
    var name: String { get }
    /// Activates `key` on a new instance called `instanceName` (this machine).
    func activate(key: String, instanceName: String) async throws(LicenseError) -> LicenseResponse
    /// Validates `key`, and this machine's activation of it when `instanceId` is given.
    func validate(key: String, instanceId: String?) async throws(LicenseError) -> LicenseResponse
    /// Deactivates the instance `instanceId` of `key`, freeing one activation.
    func deactivate(key: String, instanceId: String) async throws(LicenseError) -> LicenseResponse
}
