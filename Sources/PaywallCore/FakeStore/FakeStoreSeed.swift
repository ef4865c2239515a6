import Foundation

/// A purchase state a tester (`paywall store seed`) or an app's tests (`FakeStore.seed`) can
/// put a user in with one call.
public enum SeedState: String, CaseIterable, Sendable, CustomStringConvertible {
    /// In an introductory free trial.
    case trial
    /// Paying the regular price (after any introductory offer), renewing.
    case subscribed
    /// Renewed at least once at the regular price.
    case renewed
    /// Active, auto-renew off.
    case cancelled
    /// The renewal failed to bill; access continues for the grace period.
    case grace
    /// The renewal failed to bill and the grace period (if any) is over: no access.
    case billingRetry = "billing-retry"
    case expired
    /// Refunded: access ended.
    case revoked
    /// Waiting for approval (Ask to Buy): no access yet.
    case pending
    /// A one-time purchase that never expires.
    case lifetime

    public var description: String { rawValue }
}

/// One operation of the fake store's lifecycle, the same one a `paywall store` action runs.
public enum SeedStep: Equatable, Sendable {
    /// `set-outcome` then `buy`.
    case buy(PurchaseOutcome)
    /// `advance` to the end of the subscription's current period (a renewal, a failed renewal or an expiry).
    case advanceToPeriodEnd
    /// `advance` to the end of the grace period of a failed renewal.
    case advanceToGraceEnd
    case cancel
    case refund
    case billingIssue
}

/// Why a product cannot be seeded in a state, and what would work instead.
public struct SeedUnreachable: Error, Equatable, CustomStringConvertible {
    public var productId: String
    public var state: SeedState
    public var reason: String
    public var remedy: String

    public var description: String { "cannot seed \(productId) as \(state): \(reason); \(remedy)" }
}

extension FakeStore {
    /// Puts the current user in `state` for `product` through the lifecycle's own operations
    /// (`seedSteps`) and returns the steps it ran. They run on a clock of the user's own, which
    /// the seed's periods move on; then the user's new transactions are back-dated by as much,
    /// so the state holds at the store's time, which never moves: every user seeded into one
    /// data directory keeps their state. The next outcome a tester set is kept for the purchase
    /// after. Throws `SeedUnreachable` before changing anything when the product, the catalog
    /// or the user's history rules the state out.
    @discardableResult
    package func seed(_ product: Product, _ state: SeedState) throws -> [SeedStep] {
        let steps = try Self.seedSteps(state, for: product, settings: catalog.settings)
        if let first = try records(of: product).first {
            let what = product.subscriptionGroup.map { "its subscription group '\($0)'" } ?? "it"
            throw SeedUnreachable(
                productId: product.id, state: state,
                reason: "user \(userId) already has a purchase of \(what) (\(first.transaction.id))",
                remedy: "seed another user, or reset the fake store first")
        }
        // The seed's purchases use their own outcomes; the one a tester set waits for the next purchase.
        let savedOutcome = (try db.value("next_outcome"), try db.value("next_delay"))
        let restoreOutcome = {
            try self.db.database.transaction {
                try self.db.setValue("next_outcome", savedOutcome.0)
                try self.db.setValue("next_delay", savedOutcome.1)
            }
        }
        seedClock = 0
        defer { seedClock = nil }
        do {
            try run(steps, buying: product)
            try backDate(product, by: seedClock ?? 0)
        } catch {
            try? restoreOutcome()
            throw error
        }
        try restoreOutcome()
        return steps
    }

    /// Moves every date of the user's records of `product` (and its group) `seconds` earlier.
    private func backDate(_ product: Product, by seconds: TimeInterval) throws {
        guard seconds > 0 else { return }
        let earlier = { (date: Date?) in date?.addingTimeInterval(-seconds) }
        try db.database.transaction {
            for var record in try records(of: product) {
                let t = record.transaction
                record.transaction.purchaseDate = t.purchaseDate.addingTimeInterval(-seconds)
                record.transaction.expirationDate = earlier(t.expirationDate)
                record.transaction.revocationDate = earlier(t.revocationDate)
                record.transaction.billingIssueDate = earlier(t.billingIssueDate)
                record.transaction.gracePeriodEnd = earlier(t.gracePeriodEnd)
                record.transaction.billingRetryEnd = earlier(t.billingRetryEnd)
                try db.save(record)
            }
        }
    }

    private func run(_ steps: [SeedStep], buying product: Product) throws {
        var chain = ""
        for step in steps {
            switch step {
            case .buy(let outcome):
                try setNextOutcome(outcome)
                _ = try buy(product)
                chain = try seededRecord(of: product).transaction.originalId
            case .advanceToPeriodEnd:
                try advance(to: try seededRecord(of: product).transaction.expirationDate)
            case .advanceToGraceEnd:
                try advance(to: try seededRecord(of: product).transaction.gracePeriodEnd)
            case .cancel: try cancel(chain)
            case .refund: try refund(chain)
            case .billingIssue: try billingIssue(chain)
            }
        }
    }

    /// The lifecycle operations that lead a new buyer of `product` to `state`, or why none do.
    package nonisolated static func seedSteps(_ state: SeedState, for product: Product, settings: StoreSettings)
        throws(SeedUnreachable)
        -> [SeedStep]
    {
        if let reason = unreachableReason(state, for: product, settings: settings) {
            let reachable = SeedState.allCases.filter { unreachableReason($0, for: product, settings: settings) == nil }
            throw SeedUnreachable(
                productId: product.id, state: state, reason: reason,
                remedy: "it can be seeded as " + list(reachable.map(\.rawValue)))
        }
        // From a purchase to the regular paid plan: through every introductory period first.
        var introPeriods = 0
        if let offer = product.introductoryOffer, product.kind == .autoRenewable {
            introPeriods = offer.mode == .payAsYouGo ? offer.count : 1
        }
        let subscribed = [SeedStep.buy(.success)] + Array(repeating: .advanceToPeriodEnd, count: introPeriods)
        let failedRenewal = subscribed + [.billingIssue, .advanceToPeriodEnd]
        switch (state, product.kind) {
        case (.trial, _), (.lifetime, _), (.subscribed, .nonRenewing): return [.buy(.success)]
        case (.subscribed, _): return subscribed
        case (.renewed, _): return subscribed + [.advanceToPeriodEnd]
        case (.cancelled, _): return subscribed + [.cancel]
        case (.grace, _): return failedRenewal
        case (.billingRetry, _): return failedRenewal + (settings.gracePeriodDays > 0 ? [.advanceToGraceEnd] : [])
        case (.expired, .nonRenewing): return [.buy(.success), .advanceToPeriodEnd]
        case (.expired, _): return subscribed + [.cancel, .advanceToPeriodEnd]
        case (.revoked, .autoRenewable): return subscribed + [.refund]
        case (.revoked, _): return [.buy(.success), .refund]
        case (.pending, _): return [.buy(.pending)]
        }
    }

    /// Why `product` can never be in `state`, or nil when it can.
    private nonisolated static func unreachableReason(_ state: SeedState, for product: Product, settings: StoreSettings)
        -> String?
    {
        if state == .pending { return nil }
        switch product.kind {
        case .consumable:
            return "a consumable unlocks no entitlement, so it has no purchase state besides pending"
        case .nonConsumable:
            return [.lifetime, .revoked].contains(state)
                ? nil : "it is a one-time purchase, which never renews or expires"
        case .nonRenewing:
            if [.subscribed, .expired, .revoked].contains(state) { return nil }
            return state == .lifetime
                ? "a non-renewing subscription expires after its period; only a one-time (non-consumable) product is lifetime"
                : "a non-renewing subscription never renews: it has no trial, auto-renew or billing retry"
        case .autoRenewable:
            switch state {
            case .lifetime:
                return "it is a subscription; only a one-time (non-consumable) product is lifetime"
            case .trial:
                guard let offer = product.introductoryOffer else { return "it has no introductory offer" }
                return offer.mode == .freeTrial ? nil : "its introductory offer is \(offer.mode.rawValue), not a free trial"
            case .grace:
                return settings.gracePeriodDays > 0
                    ? nil
                    : "the catalog has no grace period (settings.grace_period_days, or _billingGracePeriodEnabled in a .storekit file)"
            case .billingRetry:
                let retry = max(1, settings.billingRetryDays)
                return retry > settings.gracePeriodDays
                    ? nil : "billing retry (\(retry) days) ends before the \(settings.gracePeriodDays)-day grace period does"
            default:
                return nil
            }
        }
    }

    /// "a, b or c".
    private nonisolated static func list(_ items: [String]) -> String {
        items.count < 2 ? items.joined() : items.dropLast().joined(separator: ", ") + " or " + items.last!
    }

    /// The user's records of `product` and its subscription group, oldest first: before a seed,
    /// what rules it out; during one, the chain it bought (renewals included), latest last.
    private func records(of product: Product) throws -> [FakeStoreDatabase.Record] {
        try db.records(
            where: "user_id = ? AND (product_id = ? OR subscription_group_id = ?)",
            [.text(userId), .text(product.id), .optional(product.subscriptionGroup)])
    }

    private func seededRecord(of product: Product) throws -> FakeStoreDatabase.Record {
        guard let latest = try records(of: product).last else { throw FakeStoreError.unknownTransaction(product.id) }
        return latest
    }

    /// Moves the seeded user's clock by whole seconds to `date` and applies what falls in
    /// between, as a tester's `advance` does for everyone.
    private func advance(to date: Date?) throws {
        guard let date else { return }
        let seconds = max(1, date.timeIntervalSince(try now()).rounded(.up))
        seedClock = (seedClock ?? 0) + seconds
        try db.database.transaction { try settle(at: try now()) }
    }
}
