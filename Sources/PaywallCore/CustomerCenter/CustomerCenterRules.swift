import Foundation

/// What the purchase controller can do for the customer center.
package struct StoreCapabilities: Equatable, Sendable {
    /// The stores whose purchases the controller acts on.
    package var stores: Set<StoreKind>
    package var canManageSubscriptions: Bool
    package var canRequestRefunds: Bool
    package var canChangePlans: Bool
    /// Purchases are test purchases (the fake store): no real money, no update lookups.
    package var isSandbox: Bool

    package init(
        stores: Set<StoreKind> = [], canManageSubscriptions: Bool = false, canRequestRefunds: Bool = false,
        canChangePlans: Bool = false, isSandbox: Bool = false
    ) {
        self.stores = stores
        self.canManageSubscriptions = canManageSubscriptions
        self.canRequestRefunds = canRequestRefunds
        self.canChangePlans = canChangePlans
        self.isSandbox = isSandbox
    }

    /// What `controller` offers through `SubscriptionManaging`; nothing when it does not adopt it.
    @MainActor
    package init(_ controller: PurchaseController) {
        guard let manager = controller as? SubscriptionManaging else {
            self.init()
            return
        }
        self.init(
            stores: manager.managedStores, canManageSubscriptions: manager.canManageSubscriptions,
            canRequestRefunds: manager.canRequestRefunds, canChangePlans: manager.canChangePlans,
            isSandbox: manager.isSandbox)
    }
}

/// Which paths appear where, and what they do: every rule of the customer center, apart from
/// the screens that render them (`CustomerCenterScreen`) and the actions (`CustomerCenterSession`).
package enum CustomerCenterRules {
    /// What tapping a path on a purchase's detail screen does.
    package enum Resolution: Equatable, Sendable {
        /// The path's own action through the purchase controller.
        case action
        /// Opens the web page where a web purchase is managed.
        case webManagement(URL)
        /// A web purchase with no management page: the user is pointed to their emailed receipt.
        case receiptLink
    }

    /// The detail-screen paths that apply to `purchase`, in the configuration's order.
    package static func detailPaths(
        _ screen: CustomerCenterConfiguration.Screen, for purchase: CustomerCenterPurchase,
        capabilities: StoreCapabilities, catalog: Catalog?, webManagementURL: URL?,
        now: Date
    ) -> [(path: CustomerCenterConfiguration.Path, resolution: Resolution)] {
        screen.paths.compactMap { path in
            resolve(
                path.type, for: purchase, capabilities: capabilities, catalog: catalog,
                webManagementURL: webManagementURL, now: now
            ).map { (path, $0) }
        }
    }

    /// Whether `type` appears for `purchase`, and what it does; nil when it does not apply.
    package static func resolve(
        _ type: CustomerCenterConfiguration.PathType, for purchase: CustomerCenterPurchase,
        capabilities: StoreCapabilities, catalog: Catalog?, webManagementURL: URL?,
        now: Date
    ) -> Resolution? {
        guard let t = purchase.latest, purchase.kind == .subscription else { return nil }
        let controllerActs = capabilities.stores.contains(t.store) && !t.isFamilyShared
        switch type {
        case .manageSubscription:
            guard t.kind == .autoRenewable, purchase.isActive, t.willRenew, !t.isRevoked else { return nil }
            if purchase.isWebPurchase { return webManagementURL.map(Resolution.webManagement) ?? .receiptLink }
            return capabilities.stores.contains(t.store) && capabilities.canManageSubscriptions ? .action : nil
        case .refund(let window):
            guard controllerActs, capabilities.canRequestRefunds, !t.isRevoked else { return nil }
            if t.offerType == .trial, purchase.isActive { return nil }
            if (purchase.product?.price ?? t.price) <= 0 { return nil }
            if let window, now.timeIntervalSince(t.purchaseDate) > window { return nil }
            return .action
        case .changePlan(let productIds):
            guard controllerActs, capabilities.canChangePlans, t.kind == .autoRenewable, purchase.isActive, t.willRenew,
                !planChoices(for: purchase, productIds: productIds, catalog: catalog).isEmpty
            else { return nil }
            return .action
        case .restore, .contactSupport, .url, .custom:
            return nil
        }
    }

    /// The other plans of the subscription's group the user may switch to (`productIds`
    /// narrows them), best first.
    package static func planChoices(
        for purchase: CustomerCenterPurchase, productIds: [String]?,
        catalog: Catalog?
    ) -> [Product] {
        guard let t = purchase.latest, let group = t.subscriptionGroupId, let catalog else { return [] }
        return catalog.products
            .filter { $0.subscriptionGroup == group && $0.kind == .autoRenewable && $0.id != t.productId }
            .filter { productIds?.contains($0.id) ?? true }
            .sorted { ($0.groupRank ?? Int.max, $0.id) < ($1.groupRank ?? Int.max, $1.id) }
    }

    /// The string-table key of the one line a detail screen shows when no path applies.
    package static func nothingToManageKey(for purchase: CustomerCenterPurchase, capabilities: StoreCapabilities) -> String {
        guard let store = purchase.store else { return "cc.detail.nothing" }
        if store == .playStore { return "cc.detail.google_play" }
        if purchase.isActive, !capabilities.stores.contains(store), !purchase.isWebPurchase { return "cc.detail.elsewhere" }
        return "cc.detail.nothing"
    }

    /// A survey is asked before its path's action, except when the path opens a web management
    /// page (the user finishes there) or has nothing to run.
    package static func asksSurvey(_ path: CustomerCenterConfiguration.Path, resolution: Resolution) -> Bool {
        path.survey != nil && resolution == .action
    }

    /// The paths of the management or no-purchases screen itself: those that act on one purchase
    /// live on its detail screen, and Contact support needs a support email.
    package static func screenPaths(
        _ screen: CustomerCenterConfiguration.Screen,
        support: CustomerCenterConfiguration.Support
    ) -> [CustomerCenterConfiguration.Path] {
        screen.paths.filter { path in
            if path.type.actsOnPurchase { return false }
            if path.type == .contactSupport { return !(support.email ?? "").isEmpty }
            return true
        }
    }

    /// The string-table key of the badge naming where a purchase was made, for web checkouts.
    package static func badgeKey(for store: StoreKind?) -> String? {
        switch store {
        case .stripe, .paddle, .lemonSqueezy, .polar, .keygen, .gumroad, .signedLicense: "cc.badge.web"
        case .superwall: "cc.badge.superwall"
        default: nil
        }
    }

    /// The user pays twice: one entitlement is kept active by subscriptions from two stores.
    package static func hasDuplicateSubscriptions(_ rows: [CustomerCenterPurchase]) -> Bool {
        var stores: [String: Set<StoreKind>] = [:]
        for row in rows where row.kind == .subscription && row.isActive {
            guard let t = row.latest, t.kind == .autoRenewable else { continue }
            for id in t.entitlementIds { stores[id, default: []].insert(t.store) }
        }
        return stores.values.contains { $0.count > 1 }
    }
}
