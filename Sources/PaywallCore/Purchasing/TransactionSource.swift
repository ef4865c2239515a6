import Foundation

/// A store whose transactions the runtime reads to work out entitlements itself (the fake
/// store now, real stores later). With a plain `PurchaseController`, the app sets the
/// subscription status instead.
@MainActor
package protocol TransactionSource: AnyObject {
    /// Every transaction of the store account, with renewals up to now applied.
    func currentTransactions() throws -> [StoreTransaction]
    /// The time the store's clock says it is (a fake store's clock can be moved).
    func now() throws -> Date
    /// Makes `userId` the user whose transactions are read and who buys next.
    func switchUser(_ userId: String)

    /// Whether a restore moves the store account's purchases from other app users to the
    /// current one, so every user's cached status must follow it (the fake store's does).
    var restoreTransfersPurchases: Bool { get }
    /// The app users with purchases in the store account (any approval state), so that every
    /// user's cached status can be brought in step after a store-wide change.
    func accountUserIds() throws -> [String]
    /// The current user's purchases waiting for approval (Ask to Buy), which grant nothing yet
    /// but which the user is told about (`paywall status`, the customer center).
    func pendingTransactions() throws -> [StoreTransaction]
}

extension TransactionSource {
    package var restoreTransfersPurchases: Bool { false }
    package func accountUserIds() throws -> [String] { [] }
    package func pendingTransactions() throws -> [StoreTransaction] { [] }
}
