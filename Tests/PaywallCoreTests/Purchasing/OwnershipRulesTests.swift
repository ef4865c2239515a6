import Foundation
import XCTest

@testable import PaywallCore

/// The ownership and eligibility rules `Purchases` and the fake store share.
final class OwnershipRulesTests: XCTestCase {
    private typealias F = FakeStoreFixture
    private let day: TimeInterval = 24 * 60 * 60

    private func transaction(
        _ id: String, _ product: Product, bought: Date, expires: Date? = nil,
        original: String? = nil
    ) -> StoreTransaction {
        StoreTransaction(
            id: id, originalId: original, productId: product.id, kind: product.kind, store: .fakeStore,
            purchaseDate: bought, expirationDate: expires, subscriptionGroupId: product.subscriptionGroup,
            entitlementIds: product.entitlements, isFamilyShared: false, price: product.price,
            currencyCode: product.currencyCode)
    }

    func testASubscriptionIsHeldWhileItsLatestPeriodGrantsAccess() {
        let start = F.start
        let first = transaction("t1", F.monthly, bought: start, expires: start + 30 * day)
        let renewal = transaction("t2", F.monthly, bought: start + 30 * day, expires: start + 60 * day, original: "t1")
        XCTAssertTrue(OwnershipRules.holds(F.monthly, transactions: [first, renewal], now: start + 45 * day), "renewed")
        XCTAssertFalse(OwnershipRules.holds(F.monthly, transactions: [first], now: start + 45 * day), "lapsed")
        XCTAssertFalse(
            OwnershipRules.holds(F.yearly, transactions: [first, renewal], now: start + 45 * day),
            "another plan of the group is not this one")

        // An upgrade ends the old chain now and starts the new plan's.
        let ended = transaction("t1", F.monthly, bought: start, expires: start + 10 * day)
        let yearly = transaction("t3", F.yearly, bought: start + 10 * day, expires: start + 375 * day)
        XCTAssertFalse(OwnershipRules.holds(F.monthly, transactions: [ended, yearly], now: start + 10 * day))
        XCTAssertTrue(OwnershipRules.holds(F.yearly, transactions: [ended, yearly], now: start + 10 * day))
    }

    func testAOneTimePurchaseIsHeldUntilRefundedAndAConsumableNever() {
        var lifetime = transaction("t1", F.lifetime, bought: F.start)
        XCTAssertTrue(OwnershipRules.holds(F.lifetime, transactions: [lifetime], now: F.start + day))
        lifetime.revocationDate = F.start + day
        XCTAssertFalse(OwnershipRules.holds(F.lifetime, transactions: [lifetime], now: F.start + 2 * day))
        let credits = transaction("t2", F.credits, bought: F.start)
        XCTAssertFalse(OwnershipRules.holds(F.credits, transactions: [credits], now: F.start + day))
    }

    func testHavingEverythingNeedsEveryEntitlementAndIsNeverTrueForAConsumable() {
        XCTAssertTrue(OwnershipRules.hasEverything(F.yearly, activeEntitlements: ["pro", "team"]))
        XCTAssertFalse(OwnershipRules.hasEverything(F.yearly, activeEntitlements: ["team"]))
        XCTAssertFalse(OwnershipRules.hasEverything(F.credits, activeEntitlements: ["pro"]))
    }

    func testAnIntroductoryOfferIsForUsersWhoNeverSubscribedInTheGroup() {
        let lapsed = transaction("t1", F.monthly, bought: F.start, expires: F.start + day)
        XCTAssertFalse(OwnershipRules.isEligibleForIntroOffer(F.yearly, history: [lapsed]), "an expired one counts")
        XCTAssertTrue(OwnershipRules.isEligibleForIntroOffer(F.teamWeekly, history: [lapsed]), "another group")
        XCTAssertTrue(OwnershipRules.isEligibleForIntroOffer(F.yearly, history: []))
        XCTAssertFalse(OwnershipRules.isEligibleForIntroOffer(F.monthly, history: []), "no offer")
    }
}
