import Foundation

/// What a license on this machine means for access at a moment: the rules of the mapping
/// `active` -> `subscribed` (a lifetime entitlement when the key has no expiry), `expired` ->
/// `expired`, `disabled` -> `revoked`, and an active key not validated within the offline grace
/// period -> `expired` with reason `not_validated`. The transaction it makes carries the same
/// state for `CustomerInfo`, so the entitlement cache's cold start reads it right without the store.
struct LicenseAccess {
    let record: LicenseRecord
    let graceDays: Int

    /// When access ends unless a validation succeeds first.
    var graceEndsAt: Date { record.validatedAt.addingTimeInterval(Double(graceDays) * 86_400) }

    /// The state and, when it gives no access, why.
    func state(at now: Date) -> (EntitlementState, LicenseStatus.Reason?) {
        if record.notFound { return (.expired, .notFound) }
        switch record.key.status {
        case .disabled: return (.revoked, .disabled)
        case .expired: return (.expired, .expired)
        case .inactive: return (.expired, .inactive)
        case .active:
            if !record.valid { return (.expired, .inactive) }
            if let expiry = record.key.expiresAt, now >= expiry { return (.expired, .expired) }
            if now >= graceEndsAt { return (.expired, .notValidated) }
            return (.subscribed, nil)
        }
    }

    func status(at now: Date) -> LicenseStatus {
        let (state, reason) = state(at: now)
        return LicenseStatus(
            maskedKey: LicenseKeyMask.mask(record.key.key), keyStatus: record.key.status, state: state, reason: reason,
            activationUsage: record.key.activationUsage, activationLimit: record.key.activationLimit,
            expiresAt: record.key.expiresAt, productId: record.productId, productName: record.meta.productName,
            variantName: record.meta.variantName, instanceName: record.instance.name, activatedAt: record.activatedAt,
            validatedAt: record.validatedAt, graceEndsAt: graceEndsAt)
    }

    /// The license as one transaction (`LEMON_SQUEEZY`): non-consumable for a key without
    /// expiry, non-renewing with one. Its end is the earlier of the key's expiry and the end of
    /// the grace period; a key that no longer gives access ended when it was last validated.
    func transaction(product: Product?) -> StoreTransaction {
        // Ended by the time the provider said so; a second before it, so a clock read back from
        // the database a hair earlier than the stored time still finds it ended.
        let lastWord = record.validatedAt.addingTimeInterval(-1)
        let stillActive = record.key.status == .active && !record.notFound && record.valid
        let end =
            stillActive
            ? min(record.key.expiresAt ?? .distantFuture, graceEndsAt)
            : min(record.key.expiresAt ?? lastWord, lastWord)
        let id = "lemon_squeezy_\(record.key.id)"
        return StoreTransaction(
            id: id, productId: record.productId, kind: record.key.expiresAt == nil ? .nonConsumable : .nonRenewing,
            store: .lemonSqueezy, purchaseDate: min(record.key.createdAt ?? record.activatedAt, record.activatedAt),
            expirationDate: end, revocationDate: record.key.status == .disabled && !record.notFound ? lastWord : nil,
            entitlementIds: product?.entitlements ?? [], price: product?.price ?? 0, currencyCode: product?.currencyCode ?? "USD")
    }
}
