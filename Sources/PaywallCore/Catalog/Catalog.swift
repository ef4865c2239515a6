/// The products a store sells and how it behaves, loaded from a catalog file
/// (`CatalogFile` for ours, `StoreKitConfiguration` for Apple's `.storekit`).
package struct Catalog: Equatable, Sendable {
    package var products: [Product]
    /// Subscription group id -> display name.
    package var groupNames: [String: String]
    package var settings: StoreSettings
    /// Set when the catalog sells through license keys (a license `"store"`: `lemon_squeezy`, `polar`, `keygen`, `gumroad`, `signed_license`): the
    /// license-key store is then its store, whichever store the configuration names.
    package var licensing: LicenseSettings?

    package init(
        products: [Product], groupNames: [String: String] = [:], settings: StoreSettings = StoreSettings(),
        licensing: LicenseSettings? = nil
    ) {
        self.products = products
        self.groupNames = groupNames
        self.settings = settings
        self.licensing = licensing
    }

    package func product(id: String) -> Product? {
        products.first { $0.id == id }
    }
}

/// How the fake store treats renewals that fail and purchases that need approval.
package struct StoreSettings: Equatable, Sendable {
    /// Days a subscription whose renewal failed keeps its entitlement (0: no grace period).
    package var gracePeriodDays: Int
    /// Days the store keeps retrying a failed renewal before the subscription expires.
    package var billingRetryDays: Int
    /// Every purchase needs a parent's approval first (`pending`), as with Ask to Buy.
    package var askToBuy: Bool

    package init(gracePeriodDays: Int = 0, billingRetryDays: Int = 60, askToBuy: Bool = false) {
        self.gracePeriodDays = gracePeriodDays
        self.billingRetryDays = billingRetryDays
        self.askToBuy = askToBuy
    }
}
