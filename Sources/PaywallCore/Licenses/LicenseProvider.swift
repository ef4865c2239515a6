import Foundation

/// A merchant's license API, as the license-key store uses it: activate a key on this machine,
/// validate it, deactivate it. One per merchant: `LemonSqueezyLicenseAPI`, `PolarLicenseAPI`,
/// `KeygenLicenseAPI`, `GumroadLicenseAPI`, and `SignedLicenseProvider` (no network).
///
/// A refusal the provider answers (unknown key, activation limit, expired key) is a
/// `LicenseError` with its kind and the provider's words; an unknown key is `notFound`, which
/// lets the store try the catalog's next merchant. Transient failures (429, 5xx) are retried
/// with back-off inside the call (`LicenseAPIClient`) before they are thrown. Each fills the
/// answer's `LicenseMeta.productId` (and `variantId`) with the ids a catalog product's
/// `MerchantProduct` names, which is how a key finds the product it unlocks.
package protocol LicenseProvider: Sendable {
    /// The merchant's name for messages (`Lemon Squeezy`).
    var name: String { get }
    /// The merchant, as catalogs name it (`"store": "polar"`).
    var store: LicenseSettings.Provider { get }
    /// Activates `key` on a new instance called `instanceName` (this machine).
    func activate(key: String, instanceName: String) async throws(LicenseError) -> LicenseResponse
    /// Validates `key`, and this machine's activation of it when `instanceId` is given.
    func validate(key: String, instanceId: String?) async throws(LicenseError) -> LicenseResponse
    /// Deactivates the instance `instanceId` of `key`, freeing one activation.
    func deactivate(key: String, instanceId: String) async throws(LicenseError) -> LicenseResponse
}
