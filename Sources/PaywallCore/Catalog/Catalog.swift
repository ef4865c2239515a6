/// The products a store sells and how it behaves, loaded from a catalog file
/// (`CatalogFile` for ours, `StoreKitConfiguration` for Apple's `.storekit`).
public struct Catalog: Equatable, Sendable {
    public var products: [Product]
    /// Subscription group id -> display name.
    public var groupNames: [String: String]
    public var settings: StoreSettings
    /// Set when the catalog sells through license keys (`"store": "lemon_squeezy"`): the
    /// license-key store is then its store, whichever store the configuration names.
    public var licensing: LicenseSettings?

    public init(
        products: [Product], groupNames: [String: String] = [:], settings: StoreSettings = StoreSettings(),
        licensing: LicenseSettings? = nil
    ) {
        self.products = products
        self.groupNames = groupNames
        self.settings = settings
        self.licensing = licensing
    }

    public func product(id: String) -> Product? {
        products.first { $0.id == id }
    }
}

/// How the fake store treats renewals that fail and purchases that need approval.
public struct StoreSettings: Equatable, Sendable {
    /// Days a subscription whose renewal failed keeps its entitlement (0: no grace period).
    public var gracePeriodDays: Int
    /// Days the store keeps retrying a failed renewal before the subscription expires.
    public var billingRetryDays: Int
    /// Every purchase needs a parent's approval first (`pending`), as with Ask to Buy.
    public var askToBuy: Bool

    public init(gracePeriodDays: Int = 0, billingRetryDays: Int = 60, askToBuy: Bool = false) {
        self.gracePeriodDays = gracePeriodDays
        self.billingRetryDays = billingRetryDays
        self.askToBuy = askToBuy
    }
}
