import Foundation

/// Where a subscription stands, as stores report it.
public enum EntitlementState: String, Sendable, CaseIterable {
    case subscribed
    case inGracePeriod
    case inBillingRetryPeriod
    case expired
    case revoked
}

/// Access to a feature, granted by one or more products.
public struct Entitlement: Hashable, Sendable {
    public var id: String
    public var isActive: Bool
    /// Every product the user bought that grants this entitlement.
    public var productIds: [String]
    public var latestProductId: String?
    public var store: StoreKind?
    public var startsAt: Date?
    public var renewedAt: Date?
    public var expiresAt: Date?
    public var isLifetime: Bool
    public var willRenew: Bool
    public var state: EntitlementState?
    public var offerType: OfferType?

    package init(
        id: String, isActive: Bool = false, productIds: [String] = [], latestProductId: String? = nil,
        store: StoreKind? = nil, startsAt: Date? = nil, renewedAt: Date? = nil, expiresAt: Date? = nil,
        isLifetime: Bool = false, willRenew: Bool = false, state: EntitlementState? = nil, offerType: OfferType? = nil
    ) {
        self.id = id
        self.isActive = isActive
        self.productIds = productIds
        self.latestProductId = latestProductId
        self.store = store
        self.startsAt = startsAt
        self.renewedAt = renewedAt
        self.expiresAt = expiresAt
        self.isLifetime = isLifetime
        self.willRenew = willRenew
        self.state = state
        self.offerType = offerType
    }
}

/// Whether the user has access, as far as the runtime knows.
public enum SubscriptionStatus: Hashable, Sendable {
    /// Not known yet (nothing cached, no answer from the store or the app).
    case unknown
    case inactive
    /// Active, with the ids of the active entitlements.
    case active(Set<String>)

    public var name: String {
        switch self {
        case .unknown: "unknown"
        case .inactive: "inactive"
        case .active: "active"
        }
    }

    public var activeEntitlements: Set<String> {
        if case .active(let ids) = self { ids } else { [] }
    }
}
