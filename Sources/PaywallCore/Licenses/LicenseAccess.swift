import Foundation

/// What a license on this machine means for access at a moment: the rules of the mapping
/// `active` -> `subscribed` (a lifetime entitlement when the key has no expiry), `expired` ->
/// `expired`, `disabled` -> `revoked`, and an active key not validated within the offline grace
/// period -> `expired` with reason `not_validated`. A license the provider never answered for
/// (a row made by hand) or validated "after now" (a clock or a row moved ahead) has no grace:
/// it is `not_validated` until a validation answers. A signed license has no grace: it holds
/// for its term (`isSelfVerifying`). The transaction it makes carries the same
/// state for `CustomerInfo`, so the entitlement cache's cold start reads it right without the store.
struct LicenseAccess {
    let record: LicenseRecord
    let graceDays: Int

    /// A signed license is its own proof, checked here: it needs no validation to keep
    /// working for its whole term, so it has no offline grace to run out.
    var isSelfVerifying: Bool { record.store == .signedLicense }

    /// Whether the last validation can be trusted to give grace at `now` (a minute of slack
    /// for a date read back from the database and for clocks a little apart).
    func isTrusted(at now: Date) -> Bool {
        isSelfVerifying || (record.answered && record.validatedAt <= now.addingTimeInterval(60))
    }

    /// When access ends unless a validation succeeds first (at once without a trusted one); a
    /// signed license's term.
    func graceEndsAt(at now: Date) -> Date {
        if isSelfVerifying { return record.key.expiresAt ?? .distantFuture }
        return isTrusted(at: now)
            ? record.validatedAt.addingTimeInterval(Double(graceDays) * 86_400) : min(record.validatedAt, now)
    }

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
            if now >= graceEndsAt(at: now) { return (.expired, .notValidated) }
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
            validatedAt: record.validatedAt, graceEndsAt: graceEndsAt(at: now), store: record.store.storeKind,
            deactivationUnsupported: record.store.deactivationUnsupported)
    }

    /// The license as one transaction (its merchant's store, `LEMON_SQUEEZY`, `POLAR`, ...;
    /// a signed license's own entitlements when it names them): non-consumable for a key without
    /// expiry, non-renewing with one. Its end is the earlier of the key's expiry and the end of
    /// the grace period; a key that no longer gives access ended when it was last validated.
    func transaction(product: Product?, at now: Date) -> StoreTransaction {
        // Ended by the time the provider said so; a second before it, so a clock read back from
        // the database a hair earlier than the stored time still finds it ended.
        let lastWord = min(record.validatedAt, now).addingTimeInterval(-1)
        let stillActive = record.key.status == .active && !record.notFound && record.valid && isTrusted(at: now)
        let end =
            stillActive
            ? min(record.key.expiresAt ?? .distantFuture, graceEndsAt(at: now))
            : min(record.key.expiresAt ?? lastWord, lastWord)
        let id = "\(record.store.rawValue)_\(record.key.id)"
        return StoreTransaction(
            id: id, productId: record.productId, kind: record.key.expiresAt == nil ? .nonConsumable : .nonRenewing,
            store: record.store.storeKind, purchaseDate: min(record.key.createdAt ?? record.activatedAt, record.activatedAt),
            expirationDate: end, revocationDate: record.key.status == .disabled && !record.notFound ? lastWord : nil,
            entitlementIds: record.meta.entitlements ?? product?.entitlements ?? [], price: product?.price ?? 0,
            currencyCode: product?.currencyCode ?? "USD")
    }
}
