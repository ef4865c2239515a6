import Foundation

/// The result of a refund request, as the customer center reports it.
public enum RefundRequestStatus: String, Sendable {
    case success
    case userCancelled = "user_cancelled"
    case error
}

/// What a purchase controller can do for the customer center beyond buying and restoring. A
/// controller adopts it to offer these paths (`FakeStore` does); without it the customer center
/// offers none of them. Each capability defaults to "not supported", so an adopter implements
/// only what its store can do.
@MainActor
public protocol SubscriptionManaging: AnyObject {
    /// The stores whose purchases the capabilities below act on.
    var managedStores: Set<StoreKind> { get }
    /// Purchases are tests (no money moves); support emails say so and update checks are skipped.
    var isSandbox: Bool { get }

    /// Turns off auto-renewal of the subscription behind `transactionId`.
    var canManageSubscriptions: Bool { get }
    func cancelSubscription(transactionId: String) async -> Bool

    var canRequestRefunds: Bool { get }
    func requestRefund(transactionId: String) async -> RefundRequestStatus

    /// Whether a subscription may move to another plan of its group: buying that plan (through
    /// `Purchases.purchase(_:changingPlan:)`) upgrades or downgrades it.
    var canChangePlans: Bool { get }
}

extension SubscriptionManaging {
    public var isSandbox: Bool { false }
    public var canManageSubscriptions: Bool { false }
    public func cancelSubscription(transactionId: String) async -> Bool { false }
    public var canRequestRefunds: Bool { false }
    public func requestRefund(transactionId: String) async -> RefundRequestStatus { .error }
    public var canChangePlans: Bool { false }
}
