import Foundation

/// What happened to a purchase.
public enum PurchaseResult: Sendable {
    case purchased
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

/// The result of a refund request, as the customer center reports it.
public enum RefundRequestStatus: String, Sendable {
    case success
    case userCancelled = "user_cancelled"
    case error
}

/// Makes purchases for the runtime. An app plugs in its own (its license server, a web
/// checkout, ...) or uses a store the runtime ships, such as `FakeStore` for testing.
///
/// Called on the main actor. Only `purchase` and `restorePurchases` are required; the other
/// capabilities, used by the customer center, default to "not supported".
@MainActor
public protocol PurchaseController: AnyObject {
    func purchase(_ product: Product) async -> PurchaseResult
    func restorePurchases() async -> RestorationResult

    /// Turns off auto-renewal of the subscription behind `transactionId`.
    var canManageSubscriptions: Bool { get }
    func cancelSubscription(transactionId: String) async -> Bool

    var canRequestRefunds: Bool { get }
    func requestRefund(transactionId: String) async -> RefundRequestStatus

    /// Whether a subscription may move to another plan of its group: buying that plan
    /// upgrades or downgrades it.
    var canChangePlans: Bool { get }

    /// The stores whose purchases the capabilities above act on.
    var managedStores: Set<StoreKind> { get }
    /// Purchases are tests (no money moves); support emails say so and update checks are skipped.
    var isSandbox: Bool { get }
}

extension PurchaseController {
    public var canManageSubscriptions: Bool { false }
    public func cancelSubscription(transactionId: String) async -> Bool { false }
    public var canRequestRefunds: Bool { false }
    public func requestRefund(transactionId: String) async -> RefundRequestStatus { .error }
    public var canChangePlans: Bool { false }
    public var managedStores: Set<StoreKind> { [] }
    public var isSandbox: Bool { false }
}

/// A store whose transactions the runtime reads to work out entitlements itself (the fake
/// store now, real stores later). With a plain `PurchaseController`, the app sets the
/// subscription status instead.
@MainActor
public protocol TransactionSource: AnyObject {
    /// Every transaction of the store account, with renewals up to now applied.
    func currentTransactions() throws -> [StoreTransaction]
    /// The time the store's clock says it is (a fake store's clock can be moved).
    func now() throws -> Date
    /// Makes `userId` the user whose transactions are read and who buys next.
    func switchUser(_ userId: String)
}
