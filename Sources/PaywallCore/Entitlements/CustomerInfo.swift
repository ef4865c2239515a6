import Foundation

/// Everything the runtime knows about a user's purchases at one moment: their transactions and
/// the entitlements and status that follow from them. Computed locally from transactions and
/// a clock, so it is right on a cold start with no network.
public struct CustomerInfo: Hashable, Sendable {
    public var transactions: [StoreTransaction]
    /// Every entitlement the user ever had, active or not, sorted by id.
    public var entitlements: [Entitlement]
    public var computedAt: Date
    /// Purchases waiting for approval (Ask to Buy): no access yet, but the user is told.
    public var pendingPurchases: [StoreTransaction] = []

    public var subscriptionStatus: SubscriptionStatus {
        let active = Set(entitlements.filter(\.isActive).map(\.id))
        return active.isEmpty ? .inactive : .active(active)
    }

    /// The user's subscription lapsed: no entitlement is active and one ran out (`expired`),
    /// neither refunded (`revoked`) nor still being billed (grace, billing retry). A win-back
    /// offer's audience; the page's `device.subscriptionLapsed`.
    package var subscriptionLapsed: Bool {
        !entitlements.contains(where: \.isActive) && entitlements.contains { $0.state == .expired }
    }

    /// Subscription transactions (auto-renewable and non-renewing), oldest first.
    public var subscriptions: [StoreTransaction] { transactions.filter(\.isSubscription) }
    /// One-time purchases, oldest first.
    public var nonSubscriptions: [StoreTransaction] { transactions.filter { !$0.isSubscription } }

    package init(transactions: [StoreTransaction], now: Date) {
        self.transactions = transactions.sorted { ($0.purchaseDate, $0.id) < ($1.purchaseDate, $1.id) }
        computedAt = now
        entitlements = Self.entitlements(of: self.transactions, now: now)
    }

    /// The state of a subscription chain whose latest period is `latest`.
    package static func state(of latest: StoreTransaction, now: Date) -> EntitlementState {
        if latest.isRevoked { return .revoked }
        if let expiry = latest.expirationDate, now < expiry { return .subscribed }
        if latest.billingIssueDate != nil {
            if let grace = latest.gracePeriodEnd, now < grace { return .inGracePeriod }
            if let retry = latest.billingRetryEnd, now < retry { return .inBillingRetryPeriod }
        }
        return latest.expirationDate == nil && latest.kind == .nonConsumable ? .subscribed : .expired
    }

    /// Access continues while subscribed or in the grace period; billing retry has none.
    public static func grantsAccess(_ state: EntitlementState) -> Bool {
        state == .subscribed || state == .inGracePeriod
    }

    /// One candidate per subscription chain or one-time purchase, with its latest transaction.
    private struct Holding {
        var first: StoreTransaction
        var latest: StoreTransaction
        var renewals: Int
        var state: EntitlementState
        var active: Bool { CustomerInfo.grantsAccess(state) }
    }

    private static func entitlements(of transactions: [StoreTransaction], now: Date) -> [Entitlement] {
        var holdings: [String: Holding] = [:]
        for t in transactions where t.kind != .consumable {
            if var h = holdings[t.originalId] {
                h.renewals += 1
                if t.purchaseDate >= h.latest.purchaseDate { h.latest = t }
                holdings[t.originalId] = h
            } else {
                holdings[t.originalId] = Holding(first: t, latest: t, renewals: 0, state: .expired)
            }
        }
        for key in holdings.keys { holdings[key]!.state = state(of: holdings[key]!.latest, now: now) }

        var byEntitlement: [String: [Holding]] = [:]
        for h in holdings.values {
            for id in h.latest.entitlementIds { byEntitlement[id, default: []].append(h) }
        }
        return byEntitlement.map { id, held in
            // The holding that best describes access: active beats inactive, lifetime beats
            // expiring, then the latest expiry, then the latest purchase.
            let best = held.max { a, b in
                (
                    a.active ? 1 : 0, a.latest.kind == .nonConsumable ? 1 : 0,
                    a.latest.expirationDate ?? .distantPast, a.latest.purchaseDate
                )
                    < (
                        b.active ? 1 : 0, b.latest.kind == .nonConsumable ? 1 : 0,
                        b.latest.expirationDate ?? .distantPast, b.latest.purchaseDate
                    )
            }!
            var productIds: [String] = []
            for h in held.sorted(by: { $0.first.purchaseDate < $1.first.purchaseDate }) {
                for t in transactions where t.originalId == h.first.originalId && !productIds.contains(t.productId) {
                    productIds.append(t.productId)
                }
            }
            let latest = best.latest
            return Entitlement(
                id: id, isActive: best.active, productIds: productIds, latestProductId: latest.productId,
                store: latest.store, startsAt: best.first.purchaseDate,
                renewedAt: best.renewals > 0 ? latest.purchaseDate : nil,
                expiresAt: latest.kind == .nonConsumable
                    ? nil : (best.state == .inGracePeriod ? latest.gracePeriodEnd : latest.expirationDate),
                isLifetime: latest.kind == .nonConsumable,
                // The store still bills in grace and billing retry: auto-renew is on until it expires.
                willRenew: best.state != .expired && best.state != .revoked && latest.kind == .autoRenewable
                    && latest.willRenew && !latest.isRevoked,
                state: best.state, offerType: latest.offerType)
        }.sorted { $0.id < $1.id }
    }
}
