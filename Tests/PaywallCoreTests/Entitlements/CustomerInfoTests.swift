import Foundation
import XCTest

@testable import PaywallCore

/// Entitlements and status worked out from transactions alone.
final class CustomerInfoTests: XCTestCase {
    private let start = utcDate(2026, 1, 31)
    private let month = SubscriptionPeriod(value: 1, unit: .month)

    /// One monthly period of `pro.monthly` bought at `purchaseDate` (Jan 31 unless told).
    private func monthly(
        _ id: String = "t1", originalId: String? = nil, purchaseDate: Date? = nil, willRenew: Bool = true,
        store: StoreKind = .appStore
    ) -> StoreTransaction {
        let date = purchaseDate ?? start
        return StoreTransaction(
            id: id, originalId: originalId, productId: "pro.monthly", kind: .autoRenewable, store: store,
            purchaseDate: date, expirationDate: month.advance(date), willRenew: willRenew, subscriptionGroupId: "pro",
            entitlementIds: ["pro"], price: decimalPrice("7.99"))
    }

    private func lifetime(_ id: String, purchaseDate: Date, entitlement: String = "pro") -> StoreTransaction {
        StoreTransaction(
            id: id, productId: "lifetime", kind: .nonConsumable, store: .appStore,
            purchaseDate: purchaseDate, entitlementIds: [entitlement], price: decimalPrice("99.99"))
    }

    // MARK: state(of:now:)

    func testStateOfEachState() {
        let t = monthly()
        let expiry = utcDate(2026, 2, 28)
        XCTAssertEqual(CustomerInfo.state(of: t, now: start), .subscribed)
        XCTAssertEqual(CustomerInfo.state(of: t, now: expiry.addingTimeInterval(-1)), .subscribed)
        XCTAssertEqual(CustomerInfo.state(of: t, now: expiry), .expired, "the period ends at its expiry")

        var revoked = t
        revoked.revocationDate = utcDate(2026, 2, 10)
        XCTAssertEqual(CustomerInfo.state(of: revoked, now: utcDate(2026, 2, 11)), .revoked)

        var failing = t
        failing.billingIssueDate = expiry
        failing.gracePeriodEnd = utcDate(2026, 3, 16)
        failing.billingRetryEnd = utcDate(2026, 4, 29)
        XCTAssertEqual(CustomerInfo.state(of: failing, now: utcDate(2026, 2, 20)), .subscribed)
        XCTAssertEqual(CustomerInfo.state(of: failing, now: expiry), .inGracePeriod)
        XCTAssertEqual(CustomerInfo.state(of: failing, now: utcDate(2026, 3, 16)), .inBillingRetryPeriod)
        XCTAssertEqual(CustomerInfo.state(of: failing, now: utcDate(2026, 4, 29)), .expired)

        var noGrace = failing
        noGrace.gracePeriodEnd = nil
        XCTAssertEqual(CustomerInfo.state(of: noGrace, now: expiry), .inBillingRetryPeriod)

        let forever = lifetime("l1", purchaseDate: start)
        XCTAssertEqual(CustomerInfo.state(of: forever, now: utcDate(2099, 1, 1)), .subscribed)
        var refunded = forever
        refunded.revocationDate = utcDate(2026, 2, 1)
        XCTAssertEqual(CustomerInfo.state(of: refunded, now: utcDate(2026, 2, 2)), .revoked)
    }

    /// Auto-renew stays on through grace and billing retry (the store still tries to bill);
    /// an expired or refunded subscription renews no more.
    func testWillRenewWhileAutoRenewIsOnAndTheSubscriptionNeitherExpiredNorRevoked() {
        var failing = monthly()
        failing.billingIssueDate = utcDate(2026, 2, 28)
        failing.gracePeriodEnd = utcDate(2026, 3, 16)
        failing.billingRetryEnd = utcDate(2026, 4, 29)
        for (day, state, renews) in [
            (utcDate(2026, 2, 20), EntitlementState.subscribed, true), (utcDate(2026, 3, 1), .inGracePeriod, true),
            (utcDate(2026, 3, 20), .inBillingRetryPeriod, true), (utcDate(2026, 4, 30), .expired, false),
        ] {
            let entitlement = CustomerInfo(transactions: [failing], now: day).entitlements[0]
            XCTAssertEqual(entitlement.state, state)
            XCTAssertEqual(entitlement.willRenew, renews, "\(state)")
        }
        var refunded = monthly()
        refunded.revocationDate = utcDate(2026, 2, 10)
        XCTAssertFalse(CustomerInfo(transactions: [refunded], now: utcDate(2026, 2, 11)).entitlements[0].willRenew)
        XCTAssertFalse(
            CustomerInfo(transactions: [monthly(willRenew: false)], now: start).entitlements[0].willRenew, "auto-renew off")
    }

    func testOnlySubscribedAndGraceGrantAccess() {
        XCTAssertEqual(EntitlementState.allCases.filter(CustomerInfo.grantsAccess), [.subscribed, .inGracePeriod])
    }

    // MARK: Entitlements

    func testEntitlementPicksActiveLifetimeOverExpiredSubscription() {
        let now = utcDate(2026, 6, 1)
        let info = CustomerInfo(
            transactions: [lifetime("l1", purchaseDate: utcDate(2026, 3, 1)), monthly("m1", willRenew: false)],
            now: now)
        XCTAssertEqual(
            info.entitlements,
            [
                Entitlement(
                    id: "pro", isActive: true, productIds: ["pro.monthly", "lifetime"], latestProductId: "lifetime",
                    store: .appStore, startsAt: utcDate(2026, 3, 1), renewedAt: nil, expiresAt: nil, isLifetime: true,
                    willRenew: false, state: .subscribed, offerType: nil)
            ])
        XCTAssertEqual(info.subscriptionStatus, .active(["pro"]))
    }

    func testEntitlementPicksLifetimeOverAnActiveSubscription() {
        let info = CustomerInfo(
            transactions: [monthly("m1"), lifetime("l1", purchaseDate: utcDate(2026, 2, 1))], now: utcDate(2026, 2, 2))
        let pro = info.entitlements.first
        XCTAssertEqual(pro?.latestProductId, "lifetime")
        XCTAssertEqual(pro?.isLifetime, true)
        XCTAssertNil(pro?.expiresAt)
    }

    func testProductIdsListsEveryProductThatGrantedTheEntitlement() {
        let yearly = StoreTransaction(
            id: "y1", productId: "pro.yearly", kind: .autoRenewable, store: .appStore, purchaseDate: start,
            expirationDate: utcDate(2027, 1, 31), willRenew: true, subscriptionGroupId: "pro", entitlementIds: ["pro"])
        // The yearly plan was downgraded and renewed as monthly in the same chain; a lifetime came later.
        let renewal = monthly("y2", originalId: "y1", purchaseDate: utcDate(2027, 1, 31))
        let forever = lifetime("l1", purchaseDate: utcDate(2027, 2, 1))
        let info = CustomerInfo(transactions: [forever, renewal, yearly], now: utcDate(2027, 2, 2))

        XCTAssertEqual(info.entitlements.map(\.id), ["pro"])
        XCTAssertEqual(info.entitlements.first?.productIds, ["pro.yearly", "pro.monthly", "lifetime"])
        XCTAssertEqual(info.transactions.map(\.id), ["y1", "y2", "l1"], "transactions are sorted oldest first")
        XCTAssertEqual(info.subscriptions.map(\.id), ["y1", "y2"])
        XCTAssertEqual(info.nonSubscriptions.map(\.id), ["l1"])
    }

    func testRenewedAtIsNilForAFirstPeriodAndSetAfterARenewal() {
        let first = monthly("t1")
        let firstOnly = CustomerInfo(transactions: [first], now: utcDate(2026, 2, 1))
        XCTAssertNil(firstOnly.entitlements.first?.renewedAt)
        XCTAssertEqual(firstOnly.entitlements.first?.startsAt, start)

        let renewal = monthly("t2", originalId: "t1", purchaseDate: utcDate(2026, 2, 28))
        let renewed = CustomerInfo(transactions: [first, renewal], now: utcDate(2026, 3, 1))
        XCTAssertEqual(renewed.entitlements.first?.renewedAt, utcDate(2026, 2, 28))
        XCTAssertEqual(renewed.entitlements.first?.startsAt, start)
        XCTAssertEqual(renewed.entitlements.first?.expiresAt, utcDate(2026, 3, 28))
    }

    func testSubscriptionStatusListsActiveEntitlementsOrIsInactive() {
        XCTAssertEqual(CustomerInfo(transactions: [], now: start).subscriptionStatus, .inactive)

        let team = StoreTransaction(
            id: "w1", productId: "team.weekly", kind: .autoRenewable, store: .appStore, purchaseDate: start,
            expirationDate: utcDate(2026, 2, 7), willRenew: true, subscriptionGroupId: "team", entitlementIds: ["team"])
        let both = CustomerInfo(transactions: [monthly(), team], now: utcDate(2026, 2, 1))
        XCTAssertEqual(both.subscriptionStatus, .active(["pro", "team"]))
        XCTAssertEqual(both.subscriptionStatus.activeEntitlements, ["pro", "team"])

        let oneLeft = CustomerInfo(transactions: [monthly(), team], now: utcDate(2026, 2, 10))
        XCTAssertEqual(oneLeft.subscriptionStatus, .active(["pro"]))
        XCTAssertEqual(oneLeft.entitlements.map(\.id), ["pro", "team"], "inactive entitlements are kept")
        XCTAssertEqual(oneLeft.entitlements.map(\.isActive), [true, false])

        let none = CustomerInfo(transactions: [monthly(), team], now: utcDate(2026, 3, 1))
        XCTAssertEqual(none.subscriptionStatus, .inactive)
        XCTAssertEqual(none.subscriptionStatus.activeEntitlements, [])
    }

    func testFamilySharingAndStoreAreCarried() {
        var shared = monthly("s1", store: .playStore)
        shared.isFamilyShared = true
        let info = CustomerInfo(transactions: [shared], now: utcDate(2026, 2, 1))
        XCTAssertEqual(info.transactions.map(\.isFamilyShared), [true])
        XCTAssertEqual(info.transactions.map(\.store), [.playStore])
        XCTAssertEqual(info.entitlements.first?.store, .playStore)
        XCTAssertEqual(info.computedAt, utcDate(2026, 2, 1))
    }

    func testConsumablesGrantNoEntitlement() {
        let credits = StoreTransaction(
            id: "c1", productId: "credits", kind: .consumable, store: .appStore, purchaseDate: start,
            entitlementIds: ["pro"])
        let info = CustomerInfo(transactions: [credits], now: start)
        XCTAssertEqual(info.entitlements, [])
        XCTAssertEqual(info.subscriptionStatus, .inactive)
    }
}
