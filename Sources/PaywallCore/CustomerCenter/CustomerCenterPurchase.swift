import Foundation

/// One row of the customer center: a subscription (renewals collapsed into one row), a
/// one-time purchase, or an active entitlement with no transaction behind it.
package struct CustomerCenterPurchase: Equatable, Sendable {
    package enum Kind: String, Sendable {
        /// Opens its own detail screen.
        case subscription
        /// A card without a detail screen.
        case oneTime = "one_time"
        /// Access the app granted without a transaction (its own backend); opens a detail screen.
        case entitlement
    }

    package var kind: Kind
    /// The product of the latest transaction; nil for an entitlement without one.
    package var productId: String?
    /// The entitlement, for `.entitlement` rows.
    package var entitlementId: String?
    /// The product's display name, else the entitlement it unlocks; never the product id.
    package var title: String?
    /// The latest transaction (the current period of a subscription).
    package var latest: StoreTransaction?
    /// When it was first bought (the start of the subscription chain).
    package var originalPurchaseDate: Date?
    package var state: EntitlementState?
    package var isActive: Bool
    package var product: Product?
    /// A purchase waiting for approval (Ask to Buy): a card that says so, with nothing to act on.
    package var isPending = false

    /// Identifies the row: its product id, `PRODUCT@STORE` when one product was bought through
    /// two stores, or `entitlement:ID`. The page sends it back as `purchase_key`.
    package private(set) var key = ""
    package var store: StoreKind? { latest?.store }

    /// Whether it is a license (`LicenseKeyStore`'s), shown as a license row instead.
    package var isLicense: Bool {
        guard let store else { return false }
        return Self.licenseStores.contains(store)
    }

    /// Whether a web checkout sold it (it is managed on a web page, not through the controller).
    package var isWebPurchase: Bool { store.map(Self.webStores.contains) ?? false }
    static let webStores: Set<StoreKind> = Set([.stripe, .paddle, .superwall]).union(licenseStores)
    /// The stores of licenses (`LicenseKeyStore`), which the customer center shows as license rows.
    static let licenseStores: Set<StoreKind> = Set(LicenseSettings.Provider.allCases.map(\.storeKind))

    /// The rows for `info` and the active entitlements of `status`, subscriptions first
    /// (active before inactive, newest first), then one-time purchases, newest first.
    package static func rows(info: CustomerInfo, status: SubscriptionStatus, catalog: Catalog?, now: Date)
        -> [CustomerCenterPurchase]
    {
        var chains: [String: (first: StoreTransaction, latest: StoreTransaction)] = [:]
        for t in info.transactions {  // oldest first
            if let chain = chains[t.originalId] {
                chains[t.originalId] = (chain.first, t.purchaseDate >= chain.latest.purchaseDate ? t : chain.latest)
            } else {
                chains[t.originalId] = (t, t)
            }
        }
        // A product bought again after it lapsed is one row, the chain that best describes it now;
        // the same product bought through another store is a row of its own.
        var byProduct: [String: CustomerCenterPurchase] = [:]
        for (first, latest) in chains.values {
            let state =
                latest.isSubscription ? CustomerInfo.state(of: latest, now: now) : (latest.isRevoked ? .revoked : .subscribed)
            let product = catalog?.product(id: latest.productId)
            let row = CustomerCenterPurchase(
                kind: latest.isSubscription ? .subscription : .oneTime, productId: latest.productId, entitlementId: nil,
                title: title(product: product, entitlements: latest.entitlementIds), latest: latest,
                originalPurchaseDate: first.purchaseDate, state: state, isActive: CustomerInfo.grantsAccess(state),
                product: product)
            let chainKey = "\(latest.productId)@\(latest.store.rawValue)"
            if let existing = byProduct[chainKey], existing.rank >= row.rank { continue }
            byProduct[chainKey] = row
        }
        let stores = Dictionary(grouping: byProduct.values, by: { $0.productId ?? "" })
        for (chainKey, row) in byProduct {
            byProduct[chainKey]?.key = stores[row.productId ?? ""]!.count > 1 ? chainKey : row.productId ?? chainKey
        }
        // An entitlement active with no purchase granting it now (the app's backend grants it) gets a row.
        let covered = Set(byProduct.values.filter(\.isActive).flatMap { $0.latest?.entitlementIds ?? [] })
        let granted = status.activeEntitlements.subtracting(covered).sorted().map { id in
            CustomerCenterPurchase(
                kind: .entitlement, productId: nil, entitlementId: id, title: id, latest: nil,
                originalPurchaseDate: nil, state: .subscribed, isActive: true, product: nil,
                key: "entitlement:\(id)")
        }
        let sorted = byProduct.values.sorted { a, b in
            if (a.kind == .oneTime) != (b.kind == .oneTime) { return b.kind == .oneTime }
            return a.rank > b.rank
        }
        let subscriptions = sorted.filter { $0.kind == .subscription }
        let pending = info.pendingPurchases.map { t in
            let product = catalog?.product(id: t.productId)
            var row = CustomerCenterPurchase(
                kind: .oneTime, productId: t.productId, entitlementId: nil,
                title: title(product: product, entitlements: t.entitlementIds), latest: nil,
                originalPurchaseDate: t.purchaseDate, state: nil, isActive: false, product: product,
                key: "pending:\(t.id)")
            row.isPending = true
            return row
        }
        return subscriptions + granted + sorted.filter { $0.kind == .oneTime } + pending
    }

    /// Active first, then the latest period.
    private var rank: (Int, Date, String) {
        (isActive ? 1 : 0, latest?.purchaseDate ?? .distantPast, latest?.id ?? "")
    }

    private static func title(product: Product?, entitlements: [String]) -> String? {
        if let name = product?.displayName.trimmingCharacters(in: .whitespaces), !name.isEmpty { return name }
        return entitlements.first
    }
}
