import Foundation

/// A license key's status at its merchant of record (Lemon Squeezy's `license_key.status`).
public enum LicenseKeyStatus: String, Sendable, CaseIterable {
    /// Sold, not activated on any instance yet.
    case inactive
    case active
    /// Its expiry passed, or the subscription behind it expired.
    case expired
    /// Turned off by the seller (a refund, abuse).
    case disabled
}

/// The license key as the provider describes it (`license_key{...}`).
package struct LicenseKeyDetails: Equatable, Sendable {
    package var id: String
    package var status: LicenseKeyStatus
    /// The key itself; never shown unmasked (`LicenseKeyMask`).
    package var key: String
    /// How many instances the key may be activated on; nil: no limit.
    package var activationLimit: Int?
    package var activationUsage: Int
    package var createdAt: Date?
    /// Nil: the key does not expire (a lifetime purchase, or one whose subscription sets `status`).
    package var expiresAt: Date?

    package init(
        id: String, status: LicenseKeyStatus, key: String, activationLimit: Int?, activationUsage: Int,
        createdAt: Date?, expiresAt: Date?
    ) {
        self.id = id
        self.status = status
        self.key = key
        self.activationLimit = activationLimit
        self.activationUsage = activationUsage
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

/// One activation of a key (`instance{id,name,created_at}`): this machine, once activated.
package struct LicenseInstance: Equatable, Sendable {
    package var id: String
    package var name: String
    package var createdAt: Date?

    package init(id: String, name: String, createdAt: Date?) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
    }
}

/// What was bought, and by whom (`meta{...}`). Ids are kept as text, whether the provider
/// writes them as numbers or strings.
package struct LicenseMeta: Equatable, Sendable {
    package var storeId: String?
    package var orderId: String?
    package var productId: String?
    package var productName: String?
    package var variantId: String?
    package var variantName: String?
    package var customerId: String?
    package var customerName: String?
    package var customerEmail: String?
    /// The entitlements a signed license grants, as signed; nil: the catalog product's.
    package var entitlements: [String]?

    package init(
        storeId: String? = nil, orderId: String? = nil, productId: String? = nil, productName: String? = nil,
        variantId: String? = nil, variantName: String? = nil, customerId: String? = nil,
        customerName: String? = nil, customerEmail: String? = nil, entitlements: [String]? = nil
    ) {
        self.storeId = storeId
        self.orderId = orderId
        self.productId = productId
        self.productName = productName
        self.variantId = variantId
        self.variantName = variantName
        self.customerId = customerId
        self.customerName = customerName
        self.customerEmail = customerEmail
        self.entitlements = entitlements
    }
}

/// A provider's answer to activate, validate or deactivate that succeeded as HTTP: whether the
/// action took (`activated` / `valid` / `deactivated`), and the key, instance and purchase.
package struct LicenseResponse: Equatable, Sendable {
    /// `activated`, `valid` or `deactivated`, by the action.
    package var succeeded: Bool
    /// The provider's own words when it did not (`error`).
    package var error: String?
    package var licenseKey: LicenseKeyDetails
    package var instance: LicenseInstance?
    package var meta: LicenseMeta

    package init(
        succeeded: Bool, error: String? = nil, licenseKey: LicenseKeyDetails, instance: LicenseInstance? = nil,
        meta: LicenseMeta = LicenseMeta()
    ) {
        self.succeeded = succeeded
        self.error = error
        self.licenseKey = licenseKey
        self.instance = instance
        self.meta = meta
    }
}
