import Foundation

/// How a catalog sells through license keys (`"store": "lemon_squeezy"` and its fields).
package struct LicenseSettings: Equatable, Sendable {
    /// The merchant of record whose license API the keys belong to.
    package enum Provider: String, Sendable, CaseIterable {
        case lemonSqueezy = "lemon_squeezy"
    }

    package static let lemonSqueezyAPI = URL(string: "https://api.lemonsqueezy.com")!

    package var provider: Provider
    /// `license_api_base_url`: `https`, or `http` on a loopback address (tests).
    package var apiBaseURL: URL
    /// `offline_grace_days`: days an active license stays active without a successful validation.
    package var offlineGraceDays: Int
    /// `customer_portal_url`: where the customer manages their subscription (the merchant's portal).
    package var customerPortalURL: URL?
    /// `lemon_squeezy: {"store_id": ...}`: the seller's store; a key from another store is
    /// refused, whatever product ids it names. Nil: any store.
    package var storeId: String?

    package init(
        provider: Provider = .lemonSqueezy, apiBaseURL: URL = LicenseSettings.lemonSqueezyAPI, offlineGraceDays: Int = 14,
        customerPortalURL: URL? = nil, storeId: String? = nil
    ) {
        self.provider = provider
        self.apiBaseURL = apiBaseURL
        self.offlineGraceDays = offlineGraceDays
        self.customerPortalURL = customerPortalURL
        self.storeId = storeId
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

/// A product's ids at Lemon Squeezy (`lemon_squeezy: {product_id, variant_id}`): a key's
/// `meta.product_id` and `meta.variant_id` pick the catalog product it unlocks.
package struct LemonSqueezyProduct: Hashable, Sendable {
    package var productId: String
    /// Nil: any variant of the product.
    package var variantId: String?

    package init(productId: String, variantId: String? = nil) {
        self.productId = productId
        self.variantId = variantId
    }

    /// Whether a key bought as `meta` is for this product.
    package func matches(_ meta: LicenseMeta) -> Bool {
        meta.productId == productId && (variantId == nil || meta.variantId == variantId)
    }
}
