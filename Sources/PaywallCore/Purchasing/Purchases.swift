import Foundation

/// The runtime's purchase state for the current user: the purchase controller, the
/// entitlement cache and who owns the subscription status.
///
/// With a `TransactionSource` (the runtime's own stores, such as `FakeStore`) the runtime
/// derives the status from the store's transactions. Without one, the app owns the status and
/// sets it with `setSubscriptionStatus(_:)` from its backend. Either way the last status is
/// cached and used on the next cold start until a fresh one arrives.
@MainActor
package final class Purchases {
    package let controller: PurchaseController
    package let catalog: Catalog
    package let cache: EntitlementCache
    package let events: EventDispatcher
    /// The store whose transactions decide the status; nil when the app owns the status.
    package let transactionSource: TransactionSource?

    package nonisolated static let anonymousUser = "$anonymous"

    package private(set) var userId: String
    package private(set) var subscriptionStatus: SubscriptionStatus
    package private(set) var customerInfo: CustomerInfo
    private var statusWaiters: [CheckedContinuation<Void, Never>] = []

    package init(
        controller: PurchaseController, catalog: Catalog, cache: EntitlementCache,
        transactionSource: TransactionSource?, events: EventDispatcher, userId: String = Purchases.anonymousUser
    ) throws {
        self.controller = controller
        self.catalog = catalog
        self.cache = cache
        self.transactionSource = transactionSource
        self.events = events
        self.userId = userId
        transactionSource?.switchUser(userId)
        (subscriptionStatus, customerInfo) = try cache.coldStartStatus(user: userId)
    }

    /// Switches to another user; their cached status applies at once.
    package func identify(_ userId: String) throws {
        guard userId != self.userId else { return }
        self.userId = userId
        transactionSource?.switchUser(userId)
        let (status, info) = try cache.coldStartStatus(user: userId)
        update(status: status, info: info)
    }

    /// The app's word on the status (purchase-controller mode). It applies at once; when the
    /// cache cannot keep it for the next start, that is reported and thrown.
    package func setSubscriptionStatus(_ status: SubscriptionStatus) throws {
        update(status: status, info: customerInfo)
        do {
            try cache.appSetStatus(user: userId, status)
        } catch {
            reportCacheWriteFailure(error, purchased: nil)
            throw error
        }
    }

    /// Reads the store again (after a purchase, restore or refund) and caches the result.
    /// Does nothing when the app owns the status.
    ///
    /// What the store says happened, happened: when the cache cannot be written (a full or
    /// read-only disk) the status still follows the store, the failure is reported as
    /// `entitlementCache_writeFail` rather than thrown, and the next refresh that can write
    /// brings the cache up to date (each one writes the user's whole history). Throws only
    /// when the store cannot be read.
    /// - Parameter product: the product just bought, named in that event with its transaction.
    package func refresh(purchased product: Product? = nil) throws {
        guard let source = transactionSource else { return }
        let transactions = try source.currentTransactions()
        let pending = try source.pendingTransactions()
        let now = try source.now()
        var info: CustomerInfo
        do {
            info = try cache.storeSynced(user: userId, transactions: transactions, pending: pending, now: now)
        } catch {
            info = CustomerInfo(transactions: transactions, now: now)
            info.pendingPurchases = pending
            update(status: info.subscriptionStatus, info: info)
            reportCacheWriteFailure(error, purchased: product)
            return
        }
        update(status: info.subscriptionStatus, info: info)
    }

    /// The user's latest transaction of `product`, as last read from the store.
    func latestTransaction(of product: Product) -> StoreTransaction? {
        customerInfo.transactions.last { $0.productId == product.id }
    }

    private func reportCacheWriteFailure(_ error: any Error, purchased product: Product?) {
        var params: [String: JSONValue] = [
            "message": .string(
                "the entitlement cache could not be written: \(error); "
                    + "the next update that can write brings it up to date")
        ]
        if let product {
            params["product_identifier"] = .string(product.id)
            if let transaction = latestTransaction(of: product) { params["transaction_id"] = .string(transaction.id) }
        }
        events.emit(EventName.entitlementCacheWriteFail, params)
    }

    /// Waits until the status is known or `timeout` seconds pass. Returns false on timeout.
    package func waitForKnownStatus(timeout: Double) async -> Bool {
        if subscriptionStatus != .unknown { return true }
        let timer = Task { @MainActor in
            try? await Task.sleep(nanoseconds: UInt64(max(0, timeout) * 1_000_000_000))
            self.resumeWaiters()
        }
        await withCheckedContinuation { statusWaiters.append($0) }
        timer.cancel()
        return subscriptionStatus != .unknown
    }

    /// Whether the user may have `product`'s introductory offer, as far as their transactions
    /// tell (see `OwnershipRules`).
    package func isEligibleForIntroOffer(_ product: Product) -> Bool {
        OwnershipRules.isEligibleForIntroOffer(product, history: customerInfo.transactions)
    }

    /// Whether buying `product` would give the user nothing they do not already have.
    package func alreadyOwns(_ product: Product) -> Bool {
        OwnershipRules.hasEverything(product, activeEntitlements: subscriptionStatus.activeEntitlements)
    }

    private func update(status: SubscriptionStatus, info: CustomerInfo) {
        let statusChanged = status != subscriptionStatus
        let infoChanged = info.transactions != customerInfo.transactions || info.entitlements != customerInfo.entitlements
        subscriptionStatus = status
        customerInfo = info
        if infoChanged {
            events.emit(
                .customerInfoDidChange,
                [
                    "user_id": .string(userId),
                    "active_entitlements": .array(info.entitlements.filter(\.isActive).map { .string($0.id) }),
                    "transaction_count": .number(Double(info.transactions.count)),
                ])
        }
        if statusChanged {
            events.emit(
                .subscriptionStatusDidChange,
                [
                    "user_id": .string(userId), "status": .string(status.name),
                    "entitlements": .array(status.activeEntitlements.sorted().map(JSONValue.string)),
                ])
        }
        if status != .unknown { resumeWaiters() }
    }

    private func resumeWaiters() {
        let waiters = statusWaiters
        statusWaiters = []
        for waiter in waiters { waiter.resume() }
    }
}
