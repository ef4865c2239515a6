import Foundation

/// What happened to a purchase.
public enum PurchaseResult: Sendable {
    case purchased
    /// The store found the user owns it already (bought meanwhile elsewhere, say in another
    /// process of the same app): nothing was charged.
    case alreadyOwned
    /// The user backed out.
    case cancelled
    /// Waiting for someone else (a parent's approval, a bank); it may complete later.
    case pending
    case failed(any Error)
}

/// What happened to a restore.
public enum RestorationResult: Sendable {
    case restored
    case failed((any Error)?)
}

/// Makes purchases for the runtime: Superwall's contract, exactly its two methods. An app plugs
/// in its own (its license server, a web checkout, ...) or uses a store the runtime ships, such
/// as `FakeStore` for testing. What the customer center can do beyond buying and restoring
/// (cancel, refund, plan changes) a controller offers by also adopting `SubscriptionManaging`.
///
/// Called on the main actor, through `Purchases.purchase(_:)` and `Purchases.restore()`, which
/// check ownership first and report every step as events.
@MainActor
public protocol PurchaseController: AnyObject {
    func purchase(_ product: Product) async -> PurchaseResult
    func restorePurchases() async -> RestorationResult
}
