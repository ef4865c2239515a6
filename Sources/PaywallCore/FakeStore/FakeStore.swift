import Foundation

/// A store for testers that ships with the runtime: products from a catalog, scripted outcomes,
/// a clock that can be moved, and the whole subscription lifecycle on it (trials, renewals,
/// auto-renew off, billing retry and grace, refunds, upgrades and downgrades, expiry).
/// State lives in SQLite, so it survives restarts.
@MainActor
package final class FakeStore: PurchaseController, SubscriptionManaging, TransactionSource {
    package let catalog: Catalog
    let db: FakeStoreDatabase
    /// The real time the store's clock is offset from (injectable so tests start on a fixed date).
    private let realClock: @Sendable () -> Date

    /// The app user who buys; each user's purchases are their own.
    package private(set) var userId = Purchases.anonymousUser

    package func switchUser(_ userId: String) {
        self.userId = userId
    }

    /// Set when the database file was unusable and a new one was started.
    package var recovery: RecoveringDatabase.Recovery? { db.recovery }

    package init(catalog: Catalog, databasePath: String, realClock: @escaping @Sendable () -> Date = { Date() })
        throws(SQLiteError)
    {
        self.catalog = catalog
        self.realClock = realClock
        db = try FakeStoreDatabase(path: databasePath)
    }

    // MARK: Clock

    /// While a seed runs: how far the seeded user's own clock is ahead of the store's (the seed
    /// lives through its periods on it, then back-dates them; see `seed`). Nil otherwise.
    var seedClock: TimeInterval?

    /// The store's time: the real time moved by every `advance` so far.
    package func now() throws -> Date {
        realClock().addingTimeInterval((Double(try db.value("clock_offset") ?? "0") ?? 0) + (seedClock ?? 0))
    }

    /// Moves the clock on and applies every renewal and expiry that falls in between.
    package func advance(_ amount: ClockAdvance) throws {
        try db.database.transaction {
            let now = try now()
            let offset = (Double(try db.value("clock_offset") ?? "0") ?? 0) + amount.apply(to: now).timeIntervalSince(now)
            try db.setValue("clock_offset", String(offset))
            try settle(at: try self.now())
        }
    }

    // MARK: Scripted outcomes

    /// Sets what the next purchase does (used once), optionally after `delay` seconds.
    package func setNextOutcome(_ outcome: PurchaseOutcome, delay: Double = 0) throws {
        try db.database.transaction {
            try db.setValue("next_outcome", outcome.description)
            try db.setValue("next_delay", delay > 0 ? String(delay) : nil)
        }
    }

    package func nextOutcome() throws -> (outcome: PurchaseOutcome, delay: Double) {
        let outcome =
            try db.value("next_outcome").flatMap(PurchaseOutcome.init(parsing:))
            ?? (catalog.settings.askToBuy ? .pending : .success)
        return (outcome, Double(try db.value("next_delay") ?? "0") ?? 0)
    }

    // MARK: PurchaseController

    package func purchase(_ product: Product) async -> PurchaseResult {
        do {
            let (_, delay) = try nextOutcome()
            if delay > 0 { try? await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000)) }
            return try buy(product)
        } catch {
            return .failed(error)
        }
    }

    /// Restoring re-reads the store account, which this store always has at hand, and moves
    /// the account's active purchases made under another app user to this one: purchases belong
    /// to the store account, as RevenueCat's default restore behaviour treats them ("transfer").
    /// So a user whose cache never knew a purchase (another data directory's user, another app
    /// user id) gets it back by restoring.
    package func restorePurchases() async -> RestorationResult {
        do {
            try transferActivePurchases()
            _ = try currentTransactions()
            return .restored
        } catch {
            return .failed(error)
        }
    }

    /// Gives every active purchase chain of another app user in this store account to the
    /// current user (each record of the chain, so its renewals follow).
    func transferActivePurchases() throws {
        let now = try now()
        let active =
            try db.records(where: "approval = 'approved' AND user_id <> ?", [.text(userId)]).filter {
                $0.transaction.isSubscription
                    ? false : CustomerInfo.grantsAccess(CustomerInfo.state(of: $0.transaction, now: now))
            }
            + latestRecords().filter {
                $0.userId != userId && CustomerInfo.grantsAccess(CustomerInfo.state(of: $0.transaction, now: now))
            }
        let chains = Set(active.map(\.transaction.originalId))
        guard !chains.isEmpty else { return }
        for var record in try db.records(where: "user_id <> ?", [.text(userId)])
        where chains.contains(record.transaction.originalId) {
            record.userId = userId
            try db.save(record)
        }
    }

    // MARK: SubscriptionManaging

    package var canManageSubscriptions: Bool { true }
    package var canRequestRefunds: Bool { true }
    package var canChangePlans: Bool { true }
    package var managedStores: Set<StoreKind> { [.fakeStore] }
    package var isSandbox: Bool { true }

    package func cancelSubscription(transactionId: String) async -> Bool {
        (try? cancel(transactionId)) != nil
    }

    package func requestRefund(transactionId: String) async -> RefundRequestStatus {
        (try? refund(transactionId)) != nil ? .success : .error
    }

    // MARK: TransactionSource

    package func currentTransactions() throws -> [StoreTransaction] {
        try db.database.transaction { try settle(at: try now()) }
        return try approvedTransactions()
    }

    /// A restore gives the current user the account's purchases made under other app users.
    package var restoreTransfersPurchases: Bool { true }

    package func accountUserIds() throws -> [String] {
        Array(Set(try allRecords().map(\.userId))).sorted()
    }

    public func pendingTransactions() throws -> [StoreTransaction] {
        try db.records(where: "approval = 'pending' AND user_id = ?", [.text(userId)]).map(\.transaction)
    }

    /// The current user's approved transactions as stored (renewals not applied), oldest first.
    private func approvedTransactions() throws -> [StoreTransaction] {
        try db.records(where: "approval = 'approved' AND user_id = ?", [.text(userId)]).map(\.transaction)
    }

    /// Every transaction of every user, pending and declined ones included, for `paywall store transactions`.
    package func allRecords() throws -> [(transaction: StoreTransaction, approval: String, userId: String)] {
        try db.database.transaction { try settle(at: try now()) }
        return try db.records().map { ($0.transaction, $0.approval, $0.userId) }
    }

    // MARK: Buying

    /// Applies the next outcome to a purchase of `product` now, in one database transaction.
    func buy(_ product: Product) throws -> PurchaseResult {
        try db.database.transaction { () throws -> PurchaseResult in
            let now = try now()
            try settle(at: now)
            let (outcome, _) = try nextOutcome()
            try db.setValue("next_outcome", nil)
            try db.setValue("next_delay", nil)
            switch outcome {
            case .cancelled: return .cancelled
            case .failed(let reason): return .failed(FakeStoreError.purchaseFailed(reason: reason))
            case .success, .pending: break
            }
            if try owns(product, at: now) {
                // Nothing is charged twice (checked in the write transaction, so two processes
                // buying at once charge once); choosing the current plan again keeps it.
                try keepCurrentPlan(product, at: now)
                return .alreadyOwned
            }
            if outcome == .pending {
                var record = try newRecord(product, at: now)
                record.approval = "pending"
                try db.save(record)
                return .pending
            }
            try complete(product, at: now)
            return .purchased
        }
    }

    /// Whether buying `product` now would give the user nothing new (see `OwnershipRules.holds`).
    func owns(_ product: Product, at now: Date) throws -> Bool {
        OwnershipRules.holds(product, transactions: try approvedTransactions(), now: now)
    }

    /// Cancels a pending downgrade away from `product` when the user picks it again.
    private func keepCurrentPlan(_ product: Product, at now: Date) throws {
        guard var current = try activeChains(at: now).first(where: { $0.transaction.productId == product.id }),
            current.renewalProductId != nil
        else { return }
        current.renewalProductId = nil
        try db.save(current)
    }

    /// Records a paid (or approved) purchase, handling plan changes within a subscription group.
    /// `id` keeps the id of an approved pending purchase.
    func complete(_ product: Product, at now: Date, id: String? = nil) throws {
        if product.kind == .autoRenewable, let group = product.subscriptionGroup,
            var current = try activeChains(at: now).first(where: { $0.transaction.subscriptionGroupId == group })
        {
            let currentRank = catalog.product(id: current.transaction.productId)?.groupRank ?? Int.max
            if (product.groupRank ?? Int.max) > currentRank {
                // Downgrade: the current plan runs to the end of its period, then renews as the new one.
                current.renewalProductId = product.id
                current.transaction.willRenew = true
                try db.save(current)
                return
            }
            // Upgrade or crossgrade: the current period ends now and the new plan starts at once;
            // a billing problem of the old plan ends with it.
            current.transaction.expirationDate = now
            current.transaction.willRenew = false
            current.transaction.billingIssueDate = nil
            current.transaction.gracePeriodEnd = nil
            current.transaction.billingRetryEnd = nil
            current.billingFailing = false
            current.renewalProductId = nil
            try db.save(current)
        }
        try db.save(try newRecord(product, at: now, id: id))
    }

    /// A first transaction for `product` bought at `now`, with its introductory offer if eligible.
    private func newRecord(_ product: Product, at now: Date, id: String? = nil) throws -> FakeStoreDatabase.Record {
        var t = StoreTransaction(
            id: try id ?? db.nextTransactionId(), productId: product.id, kind: product.kind, store: .fakeStore,
            purchaseDate: now, subscriptionGroupId: product.subscriptionGroup, entitlementIds: product.entitlements,
            isFamilyShared: false, price: product.price, currencyCode: product.currencyCode)
        var record = FakeStoreDatabase.Record(transaction: t, userId: userId)
        switch product.kind {
        case .autoRenewable:
            t.willRenew = true
            let period = product.period ?? SubscriptionPeriod(value: 1, unit: .month)
            if let offer = product.introductoryOffer, try isEligibleForIntroOffer(product) {
                t.offerType = offer.mode == .freeTrial ? .trial : nil
                t.price = offer.price
                switch offer.mode {
                case .freeTrial, .payUpFront:
                    t.expirationDate = offer.totalPeriod.advance(now)
                case .payAsYouGo:
                    t.expirationDate = offer.period.advance(now)
                    record.introPeriodsLeft = offer.count - 1
                }
            } else {
                t.expirationDate = period.advance(now)
            }
        case .nonRenewing:
            t.expirationDate = (product.period ?? SubscriptionPeriod(value: 1, unit: .month)).advance(now)
        case .consumable, .nonConsumable:
            break
        }
        record.transaction = t
        return record
    }

    /// Whether the current user may have `product`'s introductory offer (see `OwnershipRules`).
    package func isEligibleForIntroOffer(_ product: Product) throws -> Bool {
        OwnershipRules.isEligibleForIntroOffer(product, history: try approvedTransactions())
    }

    // MARK: Lifecycle

    /// The latest record of each of the user's approved subscription chains that grants access at `now`.
    private func activeChains(at now: Date) throws -> [FakeStoreDatabase.Record] {
        try latestRecords().filter {
            $0.userId == userId && CustomerInfo.grantsAccess(CustomerInfo.state(of: $0.transaction, now: now))
        }
    }

    private func latestRecords() throws -> [FakeStoreDatabase.Record] {
        var latest: [String: FakeStoreDatabase.Record] = [:]
        for r in try db.records(where: "approval = 'approved'") where r.transaction.isSubscription {
            latest[r.transaction.originalId] = r  // records come oldest first
        }
        return Array(latest.values).sorted { $0.transaction.id < $1.transaction.id }
    }

    /// Applies renewals and failed renewals up to `now`. Must run inside a database transaction.
    func settle(at now: Date) throws {
        // A seed's clock is the seeded user's alone: other users' subscriptions stay where they are.
        for var latest in try latestRecords()
        where latest.transaction.kind == .autoRenewable && (seedClock == nil || latest.userId == userId) {
            // Each pass renews one period; a cap keeps a mistaken clock from looping for long.
            for _ in 0..<10_000 {
                let t = latest.transaction
                guard t.willRenew, !t.isRevoked, t.billingIssueDate == nil, let expiry = t.expirationDate, expiry <= now
                else { break }
                if latest.billingFailing {
                    latest.transaction.billingIssueDate = expiry
                    let grace = catalog.settings.gracePeriodDays
                    latest.transaction.gracePeriodEnd =
                        grace > 0 ? SubscriptionPeriod(value: grace, unit: .day).advance(expiry) : nil
                    latest.transaction.billingRetryEnd = SubscriptionPeriod(
                        value: max(1, catalog.settings.billingRetryDays), unit: .day
                    ).advance(expiry)
                    try db.save(latest)
                    break
                }
                latest = try renew(latest, from: expiry)
            }
        }
    }

    /// Starts the next period of a chain at `start` and returns its new latest record.
    private func renew(_ previous: FakeStoreDatabase.Record, from start: Date) throws -> FakeStoreDatabase.Record {
        let productId = previous.renewalProductId ?? previous.transaction.productId
        guard let product = catalog.product(id: productId), let period = product.period else {
            // The catalog no longer sells it: the subscription lapses instead of renewing.
            var ended = previous
            ended.transaction.willRenew = false
            try db.save(ended)
            return ended
        }
        var old = previous
        old.renewalProductId = nil
        try db.save(old)
        var t = previous.transaction
        t.id = try db.nextTransactionId()
        t.productId = product.id
        t.purchaseDate = start
        t.entitlementIds = product.entitlements
        t.currencyCode = product.currencyCode
        var record = FakeStoreDatabase.Record(transaction: t)
        if previous.introPeriodsLeft > 0, let offer = product.introductoryOffer, product.id == previous.transaction.productId {
            record.transaction.expirationDate = offer.period.advance(start)
            record.transaction.price = offer.price
            record.introPeriodsLeft = previous.introPeriodsLeft - 1
        } else {
            record.transaction.expirationDate = period.advance(start)
            record.transaction.price = product.price
            record.transaction.offerType = nil  // a trial converts to the paid plan
        }
        record.billingFailing = previous.billingFailing
        record.userId = previous.userId
        try db.save(record)
        return record
    }
}

/// Why a fake-store operation could not be done.
package enum FakeStoreError: Error, Equatable, CustomStringConvertible {
    case purchaseFailed(reason: String)
    case unknownTransaction(String)
    case notASubscription(String)
    case notPending(String)
    case notInBillingTrouble(String)

    package var description: String {
        switch self {
        case .purchaseFailed(let reason): "the store declined the purchase (\(reason))"
        case .unknownTransaction(let id): "no transaction \(id) in the fake store"
        case .notASubscription(let id): "transaction \(id) is not an auto-renewable subscription"
        case .notPending(let id): "transaction \(id) is not waiting for approval"
        case .notInBillingTrouble(let id): "subscription of \(id) has no billing issue to recover from"
        }
    }
}
