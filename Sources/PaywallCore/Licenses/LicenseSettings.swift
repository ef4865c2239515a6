import Foundation

/// How a catalog sells through license keys: its `store` (the merchant products default to),
/// each merchant's settings block, the offline grace, and the key that signs offline licenses.
package struct LicenseSettings: Equatable, Sendable {
    /// A merchant whose licenses the store accepts, as catalogs name it (`"store": "polar"`).
    package enum Provider: String, Sendable, CaseIterable {
        case lemonSqueezy = "lemon_squeezy"
        case polar
        case keygen
        case gumroad
        /// No license server: licenses signed with the catalog's `license_public_key`, verified here.
        case signedLicense = "signed_license"

        /// The merchant's name for people (`Lemon Squeezy`).
        package var displayName: String {
            switch self {
            case .lemonSqueezy: "Lemon Squeezy"
            case .polar: "Polar"
            case .keygen: "Keygen"
            case .gumroad: "Gumroad"
            case .signedLicense: "signed license"
            }
        }

        /// Why a license from this merchant cannot be deactivated from here; nil when it can.
        package var deactivationUnsupported: String? {
            self == .gumroad
                ? "Gumroad has no way for an app to give a use back; ask the seller to reset the key's uses if you move it"
                : nil
        }

        /// The store its transactions carry (`POLAR`).
        package var storeKind: StoreKind {
            switch self {
            case .lemonSqueezy: .lemonSqueezy
            case .polar: .polar
            case .keygen: .keygen
            case .gumroad: .gumroad
            case .signedLicense: .signedLicense
            }
        }
    }

    package static let lemonSqueezyAPI = URL(string: "https://api.lemonsqueezy.com")!
    package static let polarAPI = URL(string: "https://api.polar.sh")!
    package static let keygenAPI = URL(string: "https://api.keygen.sh")!
    package static let gumroadAPI = URL(string: "https://api.gumroad.com")!

    /// The catalog's `store`: the merchant of products that name none.
    package var provider: Provider
    /// `license_api_base_url`: Lemon Squeezy's; `https`, or `http` on a loopback address (tests).
    package var apiBaseURL: URL
    /// `offline_grace_days`: days an active license stays active without a successful validation.
    package var offlineGraceDays: Int
    /// `customer_portal_url`: where the customer manages their subscription (the merchant's portal).
    package var customerPortalURL: URL?
    /// `lemon_squeezy: {"store_id": ...}`: the seller's store; a key from another store is
    /// refused, whatever product ids it names. Nil: any store.
    package var storeId: String?
    /// `polar: {organization_id, api_base_url}`.
    package var polar: Polar?
    /// `keygen: {account, api_base_url}`.
    package var keygen: Keygen?
    /// `gumroad: {api_base_url}`.
    package var gumroadAPIBaseURL: URL
    /// `license_public_key`: the Ed25519 key offline licenses are signed with (PEM or hex), as written.
    package var publicKey: String?
    /// `app_id`, else the catalog's file name: what keys this app's machine fingerprint.
    package var appId: String?
    /// The merchants a key with no product is tried against, in catalog order: the catalog's
    /// `store`, then each product's in the order products list them.
    package var merchants: [Provider]

    /// Polar's settings: the seller's organization, and the API (its sandbox, or a stand-in).
    package struct Polar: Equatable, Sendable {
        package var organizationId: String
        package var apiBaseURL: URL

        package init(organizationId: String, apiBaseURL: URL = LicenseSettings.polarAPI) {
            self.organizationId = organizationId
            self.apiBaseURL = apiBaseURL
        }
    }

    /// Keygen's settings: the account (its id or slug), and the API (a self-hosted server's URL).
    package struct Keygen: Equatable, Sendable {
        package var account: String
        package var apiBaseURL: URL

        package init(account: String, apiBaseURL: URL = LicenseSettings.keygenAPI) {
            self.account = account
            self.apiBaseURL = apiBaseURL
        }
    }

    package init(
        provider: Provider = .lemonSqueezy, apiBaseURL: URL = LicenseSettings.lemonSqueezyAPI, offlineGraceDays: Int = 14,
        customerPortalURL: URL? = nil, storeId: String? = nil, polar: Polar? = nil, keygen: Keygen? = nil,
        gumroadAPIBaseURL: URL = LicenseSettings.gumroadAPI, publicKey: String? = nil, appId: String? = nil,
        merchants: [Provider]? = nil
    ) {
        self.provider = provider
        self.apiBaseURL = apiBaseURL
        self.offlineGraceDays = offlineGraceDays
        self.customerPortalURL = customerPortalURL
        self.storeId = storeId
        self.polar = polar
        self.keygen = keygen
        self.gumroadAPIBaseURL = gumroadAPIBaseURL
        self.publicKey = publicKey
        self.appId = appId
        self.merchants = merchants ?? [provider]
    }

    /// Why `url` may not carry license keys (nil when it may): only `https`, except `http` to a
    /// loopback address, which never leaves the machine.
    package static func insecurity(of url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), url.host?.isEmpty == false else {
            return "is not an absolute URL like https://api.lemonsqueezy.com"
        }
        if scheme == "https" { return nil }
        if scheme == "http", isLoopback(url.host ?? "") { return nil }
        return "must be https (http only to a loopback address such as 127.0.0.1, for tests), got \(url.absoluteString)"
    }

    static func isLoopback(_ host: String) -> Bool {
        let host = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        return host == "localhost" || host == "::1"
            || host.hasPrefix("127.")
                && host.split(separator: ".").count == 4 && host.split(separator: ".").allSatisfy { UInt8($0) != nil }
    }
}

/// A product's ids at its merchant, which a license's purchase is matched by: Lemon Squeezy's
/// `lemon_squeezy: {product_id, variant_id}`, Polar's `polar: {benefit_id}`, Keygen's `keygen:
/// {product, policy}`, Gumroad's `gumroad: {product_id, max_uses}`. A provider writes the same
/// ids into an answer's `LicenseMeta.productId` / `variantId`. A `signed_license` product
/// names none: a signed license names the catalog product itself.
package struct MerchantProduct: Hashable, Sendable {
    package var store: LicenseSettings.Provider
    /// Lemon Squeezy's product, Polar's benefit, Keygen's product, Gumroad's product; nil for
    /// a signed license.
    package var productId: String?
    /// Lemon Squeezy's variant, Keygen's policy; nil: any.
    package var variantId: String?
    /// Gumroad's `max_uses`: the activations a key may have, enforced here (Gumroad only counts).
    package var maxUses: Int?

    package init(store: LicenseSettings.Provider, productId: String? = nil, variantId: String? = nil, maxUses: Int? = nil) {
        self.store = store
        self.productId = productId
        self.variantId = variantId
        self.maxUses = maxUses
    }

    /// Whether a key bought as `meta`, answered by `store`'s provider, is for this product.
    package func matches(_ meta: LicenseMeta, from store: LicenseSettings.Provider) -> Bool {
        store == self.store && productId != nil && meta.productId == productId
            && (variantId == nil || meta.variantId == variantId)
    }
}
