import Foundation
import PaywallCore

/// License keys, when the catalog sells through them (a license `"store"`, `"lemon_squeezy"` or another): the keys
/// activated on this machine, redeeming a key, and who asks the user for one.
extension Paywalls {
    /// Whether the catalog sells through license keys.
    public var sellsLicenseKeys: Bool { runtime.licenseStore != nil }

    /// The licenses activated on this machine (none without license keys).
    public func licenses() throws -> [LicenseStatus] {
        try runtime.licenseStore?.licenses() ?? []
    }

    /// Activates `licenseKey` on this machine (the app's own key field); reported as
    /// `license_activate` or `license_activateFail`. Throws `LicenseError` (`.noLicense` when
    /// the catalog sells no license keys).
    @discardableResult
    public func redeem(licenseKey: String) async throws(LicenseError) -> LicenseStatus {
        guard let store = runtime.licenseStore else {
            throw LicenseError(
                .noLicense, "the catalog sells no license keys; add a license \"store\" such as \"lemon_squeezy\" to it")
        }
        return try await store.redeem(key: licenseKey)
    }

    /// Who asks the user for a license key after Buy or for a restore: by default the page
    /// that asked turns into the license-key panel. An app without a window sets its own
    /// (`ClosureLicenseKeyPrompt { request in ... }`). Nil without license keys.
    public var licenseKeyPrompt: LicenseKeyPrompt? {
        get { runtime.licenseStore?.prompt }
        set { runtime.licenseStore?.prompt = newValue }
    }
}
