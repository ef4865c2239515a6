import Foundation

/// Whether a user already has what a product gives, and whether its introductory offer is
/// theirs: the one place these rules live, used by `Purchases` (before it asks a controller to
/// charge) and by the stores the runtime ships (when they record a purchase).
enum OwnershipRules {
    /// Introductory offers are for users who never subscribed in the product's group.
    /// - Parameter history: the user's approved transactions, expired ones included.
    static func isEligibleForIntroOffer(_ product: Product, history: [StoreTransaction]) -> Bool {
        guard product.introductoryOffer != nil else { return false }
        guard let group = product.subscriptionGroup else { return true }
        return !history.contains { $0.subscriptionGroupId == group }
    }

    /// Whether buying `product` would give the user no entitlement they do not already have
    /// (consumables, and products without entitlements, are always bought again).
    static func hasEverything(_ product: Product, activeEntitlements: Set<String>) -> Bool {
        guard product.kind != .consumable, !product.entitlements.isEmpty else { return false }
        return Set(product.entitlements).isSubset(of: activeEntitlements)
    }

    /// Whether the user holds `product` itself at `now`: a non-consumable not refunded, or a
    /// subscription chain on that plan that still grants access. Another plan of the same
    /// group is not this one, so a plan change is not mistaken for a repeat purchase.
    /// - Parameter transactions: the user's approved transactions, oldest first.
    static func holds(_ product: Product, transactions: [StoreTransaction], now: Date) -> Bool {
        switch product.kind {
        case .consumable:
            return false
        case .nonConsumable:
            return transactions.contains { $0.productId == product.id && !$0.isRevoked }
        case .autoRenewable, .nonRenewing:
            var latest: [String: StoreTransaction] = [:]
            for t in transactions where t.isSubscription {
                if let known = latest[t.originalId], known.purchaseDate > t.purchaseDate { continue }
                latest[t.originalId] = t
            }
            return latest.values.contains {
                $0.productId == product.id && CustomerInfo.grantsAccess(CustomerInfo.state(of: $0, now: now))
            }
        }
    }
}
