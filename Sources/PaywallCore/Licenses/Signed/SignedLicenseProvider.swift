import Foundation

/// The provider of signed offline licenses (`"store": "signed_license"`, and every catalog
/// with `license_public_key`): activating and validating verify the license text itself (ours
/// or a Keygen license file) with the catalog's key, with no network, for the license's whole
/// term; deactivating only lets the store forget it.
///
/// The answer's `licenseKey.id` is the license's id, its `key` the text, `instance.id` this
/// machine's fingerprint; `meta.productId` the license's product (a Keygen file's: Keygen's
/// product id, `variantId` its policy), `meta.entitlements` the signed ones (nil when it names
/// none: the catalog product's), `meta.customerName` the licensee.
package struct SignedLicenseProvider: LicenseProvider {
    package let name = "signed license"
    package let store = LicenseSettings.Provider.signedLicense
    package let publicKey: LicensePublicKey
    /// What keys this machine's fingerprint: the catalog's `app_id`, else its file name.
    package let appId: String
    /// The clock licenses are judged by; the store passes `LicenseClock.now`.
    package let now: @Sendable () -> Date
    let machineIdPaths: [String]

    package init(
        publicKey: LicensePublicKey, appId: String, now: @escaping @Sendable () -> Date,
        machineIdPaths: [String] = MachineFingerprint.machineIdPaths
    ) {
        self.publicKey = publicKey
        self.appId = appId
        self.now = now
        self.machineIdPaths = machineIdPaths
    }

    package func activate(key: String, instanceName: String) async throws(LicenseError) -> LicenseResponse {
        try answer(key, instanceName: instanceName)
    }

    package func validate(key: String, instanceId: String?) async throws(LicenseError) -> LicenseResponse {
        try answer(key, instanceName: nil)
    }

    /// Nothing to give back: the store forgets the license here.
    package func deactivate(key: String, instanceId: String) async throws(LicenseError) -> LicenseResponse {
        let license = try? SignedLicense.verify(key, with: publicKey)
        return LicenseResponse(
            succeeded: true,
            licenseKey: LicenseKeyDetails(
                id: license?.id ?? instanceId, status: .inactive, key: key, activationLimit: nil, activationUsage: 0,
                createdAt: license?.issuedAt, expiresAt: license?.expiresAt))
    }

    /// The license `text` as of `now` on this machine: refused when it does not verify or is
    /// another machine's; expired or disabled as its status says.
    private func answer(_ text: String, instanceName: String?) throws(LicenseError) -> LicenseResponse {
        let license = try SignedLicense.verify(text, with: publicKey)
        let fingerprint: String
        do { fingerprint = try MachineFingerprint.current(appId: appId, paths: machineIdPaths) } catch {
            // Only a license bound to a machine needs this machine's id.
            guard license.machine == nil else { throw error }
            fingerprint = license.id
        }
        let refusal = license.refusal(at: now(), fingerprint: fingerprint)
        if let refusal, refusal.kind == .otherMachine { throw refusal }
        let status: LicenseKeyStatus = license.disabled ? .disabled : refusal == nil ? .active : .expired
        return LicenseResponse(
            succeeded: status == .active, error: refusal?.message,
            licenseKey: LicenseKeyDetails(
                id: license.id, status: status, key: text.trimmingCharacters(in: .whitespacesAndNewlines), activationLimit: nil,
                activationUsage: 1, createdAt: license.issuedAt, expiresAt: license.expiresAt),
            instance: LicenseInstance(id: fingerprint, name: instanceName ?? "", createdAt: nil),
            meta: LicenseMeta(
                productId: license.product, variantId: license.policy, customerName: license.licensee,
                entitlements: license.entitlements.isEmpty ? nil : license.entitlements))
    }
}
