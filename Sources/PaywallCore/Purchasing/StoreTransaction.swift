import Foundation

/// Which store a purchase was made through.
public enum StoreKind: String, Sendable, CaseIterable {
    case appStore = "APP_STORE"
    case playStore = "PLAY_STORE"
    case stripe = "STRIPE"
    case paddle = "PADDLE"
    /// Lemon Squeezy, a merchant of record selling license keys (`LicenseKeyStore`).
    case lemonSqueezy = "LEMON_SQUEEZY"
    /// Polar, Keygen and Gumroad: license keys from their license APIs (`LicenseKeyStore`).
    case polar = "POLAR"
    case keygen = "KEYGEN"
    case gumroad = "GUMROAD"
    /// An Ed25519-signed license file, verified here with no license server.
    case signedLicense = "SIGNED_LICENSE"
    case superwall = "SUPERWALL"
    case custom = "CUSTOM"
    case other = "OTHER"
    /// Ours: the runtime's fake store for testing.
    case fakeStore = "FAKE_STORE"
}

/// How a subscription period was priced, when it was not the regular price.
public enum OfferType: String, Sendable, CaseIterable {
    case trial, code, promotional, winback
}

/// One transaction as the entitlement logic needs it: a purchase, or one period of a
/// subscription (renewals share `originalId`). Stores produce these; the cache keeps them.
public struct StoreTransaction: Hashable, Sendable {
    public var id: String
    /// The first transaction of a subscription chain (the transaction's own id otherwise).
    public var originalId: String
    public var productId: String
    public var kind: Product.Kind
    public var store: StoreKind
    public var purchaseDate: Date
    /// End of the period this transaction paid for (subscriptions only).
    public var expirationDate: Date?
    public var willRenew: Bool
    public var revocationDate: Date?
    public var offerType: OfferType?
    public var subscriptionGroupId: String?
    /// Entitlements this purchase grants, recorded at purchase time so a cold start needs no catalog.
    public var entitlementIds: [String]
    /// When the renewal after this period failed to bill (billing retry starts).
    public var billingIssueDate: Date?
    /// Until when a failed renewal keeps access (nil: no grace period).
    public var gracePeriodEnd: Date?
    /// Until when the store retries billing before the subscription expires.
    public var billingRetryEnd: Date?
    public var isFamilyShared: Bool
    public var price: Decimal
    public var currencyCode: String

    package init(
        id: String, originalId: String? = nil, productId: String, kind: Product.Kind, store: StoreKind,
        purchaseDate: Date, expirationDate: Date? = nil, willRenew: Bool = false, revocationDate: Date? = nil,
        offerType: OfferType? = nil, subscriptionGroupId: String? = nil, entitlementIds: [String] = [],
        billingIssueDate: Date? = nil, gracePeriodEnd: Date? = nil, billingRetryEnd: Date? = nil,
        isFamilyShared: Bool = false, price: Decimal = 0, currencyCode: String = "USD"
    ) {
        self.id = id
        self.originalId = originalId ?? id
        self.productId = productId
        self.kind = kind
        self.store = store
        self.purchaseDate = purchaseDate
        self.expirationDate = expirationDate
        self.willRenew = willRenew
        self.revocationDate = revocationDate
        self.offerType = offerType
        self.subscriptionGroupId = subscriptionGroupId
        self.entitlementIds = entitlementIds
        self.billingIssueDate = billingIssueDate
        self.gracePeriodEnd = gracePeriodEnd
        self.billingRetryEnd = billingRetryEnd
        self.isFamilyShared = isFamilyShared
        self.price = price
        self.currencyCode = currencyCode
    }

    public var isSubscription: Bool { kind == .autoRenewable || kind == .nonRenewing }
    public var isRevoked: Bool { revocationDate != nil }
}
