import Foundation
import PaywallCore

/// The user's purchases: the customer info and subscription status (cached, so right at once
/// and offline), their changes, the app's own word on the status, and the fake store's seeding
/// for an app's tests.
extension Paywalls {
    /// The current user's customer info, right from the cache at start (offline too).
    public var customerInfo: CustomerInfo { runtime.customerInfo }
    /// The current user's subscription status (from the cache at start).
    public var subscriptionStatus: SubscriptionStatus { runtime.subscriptionStatus }
    /// Every change of the customer info from now on.
    public var customerInfoUpdates: AsyncStream<CustomerInfo> { runtime.customerInfoUpdates }
    /// Told about every change of the customer info, as `customerInfoUpdates` is.
    public var customerInfoDelegate: PaywallRuntimeDelegate? {
        get { runtime.delegate }
        set { runtime.delegate = newValue }
    }

    /// Sets the status from the app's side (its backend's word), when its own
    /// `PurchaseController` owns the status; saved in the entitlement cache for the next start.
    /// Throws when no store is configured, or the cache cannot be written.
    public func setSubscriptionStatus(_ status: SubscriptionStatus) throws {
        try runtime.setSubscriptionStatus(status)
    }

    /// What a restore found.
    public enum RestoreResult: Equatable, Sendable {
        case restored
        /// The store answered, but the user has no active purchase.
        case nothingToRestore
        /// The store failed, or none is configured; `reason` in words, for logs.
        case failed(reason: String)
    }

    /// Asks the store to restore the user's purchases (what a paywall's Restore does), then
    /// reads it again; reported as `restore_start`, then `restore_complete` or `restore_fail`.
    public func restorePurchases() async -> RestoreResult {
        guard let purchases = runtime.purchases else { return .failed(reason: "no store is configured") }
        switch await purchases.restore() {
        case .restored: return .restored
        case .nothingToRestore: return .nothingToRestore
        case .failed(let reason, _): return .failed(reason: reason)
        }
    }

    /// For an app's tests, with `store: .fakeStore(catalog:)`: puts the current user in
    /// `state` for the catalog's product `productId` through the fake store's own operations
    /// (what `paywall store seed` does), and returns the steps it ran. Throws `SeedUnreachable`
    /// before changing anything when the product or the catalog rules the state out, and
    /// `FakeStoreSeedingError` without a fake store or for an unknown product.
    @discardableResult
    public func seedFakeStore(_ productId: String, as state: SeedState) throws -> [SeedStep] {
        guard let store = runtime.fakeStore else { throw FakeStoreSeedingError.noFakeStore }
        guard let product = store.catalog.product(id: productId) else {
            throw FakeStoreSeedingError.unknownProduct(productId, known: store.catalog.products.map(\.id))
        }
        let steps = try store.seed(product, state)
        try runtime.purchases?.refresh()
        return steps
    }
}

/// Why `Paywalls.seedFakeStore(_:as:)` could not start.
public enum FakeStoreSeedingError: Error, Equatable, CustomStringConvertible {
    /// The runtime was not configured with `store: .fakeStore(catalog:)`.
    case noFakeStore
    /// The catalog has no product with this id.
    case unknownProduct(String, known: [String])

    public var description: String {
        switch self {
        case .noFakeStore: "seeding needs the fake store: configure with store: .fakeStore(catalog:)"
        case .unknownProduct(let id, let known):
            "the catalog has no product \"\(id)\"; its products: \(known.joined(separator: ", "))"
        }
    }
}
