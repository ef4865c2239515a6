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
public struct LicenseKeyDetails: Equatable, Sendable {
    public var id: String
    public var status: LicenseKeyStatus
    /// The key itself; never shown unmasked (`LicenseKeyMask`).
    public var key: String
    /// How many instances the key may be activated on; nil: no limit.
    public var activationLimit: Int?
    public var activationUsage: Int
    public var createdAt: Date?
    /// Nil: the key does not expire (a lifetime purchase, or one whose subscription sets `status`).
    public var expiresAt: Date?

    public init(
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
public struct LicenseInstance: Equatable, Sendable {
    public var id: String
    public var name: String
    public var createdAt: Date?

    public init(id: String, name: String, createdAt: Date?) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
    }
}

/// What was bought, and by whom (`meta{...}`). Ids are kept as text, whether the provider
/// writes them as numbers or strings.
public struct LicenseMeta: Equatable, Sendable {
    public var storeId: String?
    public var orderId: String?
    public var productId: String?
    public var productName: String?
    public var variantId: String?
    public var variantName: String?
    public var customerId: String?
    public var customerName: String?
    public var customerEmail: String?

    public init(
        storeId: String? = nil, orderId: String? = nil, productId: String? = nil, productName: String? = nil,
        variantId: String? = nil, variantName: String? = nil, customerId: String? = nil,
        customerName: String? = nil, customerEmail: String? = nil
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
    }
}

/// A provider's answer to activate, validate or deactivate that succeeded as HTTP: whether the
/// action took (`activated` / `valid` / `deactivated`), and the key, instance and purchase.
public struct LicenseResponse: Equatable, Sendable {
    /// `activated`, `valid` or `deactivated`, by the action.
    public var succeeded: Bool
    /// The provider's own words when it did not (`error`).
    public var error: String?
    public var licenseKey: LicenseKeyDetails
    public var instance: LicenseInstance?
    public var meta: LicenseMeta

    public init(
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
