import Foundation

/// Builds the providers of a catalog's merchants, in catalog order (`LicenseSettings.merchants`),
/// each at the catalog's URL for it; a catalog with `license_public_key` also verifies signed
/// licenses, whatever its merchants.
package enum LicenseProviders {
    /// `now` is the store's clock (`LicenseClock`), which signed licenses are judged by.
    package static func make(catalog: Catalog, settings: LicenseSettings, now: @escaping @Sendable () -> Date)
        throws(LicenseError) -> [LicenseProvider]
    {
        var merchants = settings.merchants
        if settings.publicKey != nil, !merchants.contains(.signedLicense) { merchants.insert(.signedLicense, at: 0) }
        var providers: [LicenseProvider] = []
        for store in merchants {
            switch store {
            case .lemonSqueezy: providers.append(try LemonSqueezyLicenseAPI(baseURL: settings.apiBaseURL))
            case .polar:
                // The catalog refuses a Polar product without the `polar` block.
                guard let polar = settings.polar else { continue }
                providers.append(try PolarLicenseAPI(organizationId: polar.organizationId, baseURL: polar.apiBaseURL))
            case .signedLicense:
                guard let key = settings.publicKey else {
                    throw LicenseError(.cryptography, "\"store\": \"signed_license\" needs the catalog's license_public_key")
                }
                providers.append(
                    SignedLicenseProvider(publicKey: try LicensePublicKey(parsing: key), appId: settings.appId ?? "", now: now))
            case .gumroad:
                // A Gumroad key names no product: each of the catalog's Gumroad products is asked.
                let ids = catalog.products.compactMap { $0.merchant?.store == .gumroad ? $0.merchant?.productId : nil }
                providers.append(try GumroadLicenseAPI(productIds: ids, baseURL: settings.gumroadAPIBaseURL, now: now))
            case .keygen:
                // The catalog refuses a Keygen product without the `keygen` block.
                guard let keygen = settings.keygen else { continue }
                providers.append(
                    try KeygenLicenseAPI(
                        account: keygen.account, baseURL: keygen.apiBaseURL,
                        fingerprint: Result { () throws(LicenseError) in
                            try MachineFingerprint.current(appId: settings.appId ?? "")
                        }))
            }
        }
        return providers
    }
}
