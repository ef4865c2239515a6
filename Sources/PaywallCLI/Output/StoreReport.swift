import Foundation
import PaywallCore

/// The JSON that `paywall store ... --json` and `paywall status --json` print: a contract,
/// documented in the Selling article. Keys are snake_case; dates are ISO 8601 in UTC, or null.
package enum StoreReport {
    /// A date as the reports write it: ISO 8601 in UTC, or null.
    package static func date(_ date: Date?) -> JSONValue {
        date.map { .string($0.formatted(Date.ISO8601FormatStyle())) } ?? .null
    }

    package static func optional(_ text: String?) -> JSONValue {
        text.map(JSONValue.string) ?? .null
    }

    /// `{"subscription_status": ..., "active_entitlements": [...], "entitlements": [...]}`:
    /// what `paywall status --json` prints and `paywall serve`'s `getCustomerInfo` answers.
    /// `active_entitlements` are the status's (also what an app that owns the status set);
    /// `entitlements` are worked out from the store's transactions.
    package static func entitlements(_ info: CustomerInfo, status: SubscriptionStatus, userId: String) -> JSONValue {
        .object([
            "user_id": .string(userId),
            "subscription_status": .string(status.name),
            "active_entitlements": .array(status.activeEntitlements.sorted().map(JSONValue.string)),
            "entitlements": .array(info.entitlements.map(entitlement)),
        ])
    }

    /// What `paywall status --json` prints (and the sidecar's `getCustomerInfo` answers): the
    /// entitlements as `store entitlements --json` has them, plus `licenses` (keys masked) only
    /// when there are some, so that without licenses both print the same object.
    package static func status(_ info: CustomerInfo, status: SubscriptionStatus, userId: String, licenses: [LicenseStatus])
        -> JSONValue
    {
        var report = entitlements(info, status: status, userId: userId).objectValue ?? [:]
        if !licenses.isEmpty { report["licenses"] = .array(licenses.map(license)) }
        return .object(report)
    }

    package static func entitlement(_ e: Entitlement) -> JSONValue {
        .object([
            "id": .string(e.id), "is_active": .bool(e.isActive), "product_ids": .array(e.productIds.map(JSONValue.string)),
            "latest_product_id": optional(e.latestProductId), "expires_at": date(e.expiresAt),
            "starts_at": date(e.startsAt), "renewed_at": date(e.renewedAt), "is_lifetime": .bool(e.isLifetime),
            "state": optional(e.state?.rawValue), "will_renew": .bool(e.willRenew), "store": optional(e.store?.rawValue),
            "offer_type": optional(e.offerType?.rawValue),
        ])
    }

    /// A license on this machine (`paywall status`): its key masked, never whole.
    package static func license(_ l: LicenseStatus) -> JSONValue {
        .object([
            "license_key": .string(l.maskedKey), "product_id": .string(l.productId), "key_status": .string(l.keyStatus.rawValue),
            "state": .string(l.state.rawValue), "is_active": .bool(l.isActive), "reason": optional(l.reason?.rawValue),
            "activation_usage": .number(Double(l.activationUsage)),
            "activation_limit": l.activationLimit.map { .number(Double($0)) } ?? .null, "expires_at": date(l.expiresAt),
            "instance_name": .string(l.instanceName), "validated_at": date(l.validatedAt),
            "grace_ends_at": l.store == .signedLicense ? .null : date(l.graceEndsAt),
            "store": .string(l.store.rawValue), "deactivation_unsupported": optional(l.deactivationUnsupported),
        ])
    }

    package static func transaction(_ t: StoreTransaction, approval: String, userId: String, now: Date) -> JSONValue {
        .object([
            "user_id": .string(userId),
            "transaction_id": .string(t.id), "original_transaction_id": .string(t.originalId),
            "product_id": .string(t.productId), "kind": .string(t.kind.rawValue), "store": .string(t.store.rawValue),
            "purchase_date": date(t.purchaseDate), "expiration_date": date(t.expirationDate),
            "will_renew": .bool(t.willRenew), "is_revoked": .bool(t.isRevoked), "revocation_date": date(t.revocationDate),
            "offer_type": optional(t.offerType?.rawValue), "subscription_group_id": optional(t.subscriptionGroupId),
            "state": t.isSubscription && approval == "approved" ? .string(CustomerInfo.state(of: t, now: now).rawValue) : .null,
            "approval": .string(approval), "price": .string("\(t.price)"), "currency": .string(t.currencyCode),
        ])
    }

    package static func product(_ p: Product) -> JSONValue {
        var intro: JSONValue = .null
        if let offer = p.introductoryOffer {
            intro = .object([
                "mode": .string(offer.mode.rawValue), "period": .string(offer.period.iso8601),
                "count": .number(Double(offer.count)), "price": .string("\(offer.price)"),
            ])
        }
        return .object([
            "id": .string(p.id), "display_name": .string(p.displayName), "description": .string(p.description),
            "price": .string(p.priceText), "currency": .string(p.currencyCode), "kind": .string(p.kind.rawValue),
            "period": optional(p.period?.iso8601), "group": optional(p.subscriptionGroup),
            "group_rank": p.groupRank.map { .number(Double($0)) } ?? .null, "intro_offer": intro,
            "family_shareable": .bool(p.familyShareable), "entitlements": .array(p.entitlements.map(JSONValue.string)),
        ])
    }
}
