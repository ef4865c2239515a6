import Foundation
import XCTest

@testable import PaywallCore

/// Scripted outcomes and the tester's controls (`approve`, `decline`, `cancel`, `reset`, ...).
final class FakeStoreControlsTests: FakeStoreTestCase {
    // MARK: Scripted outcomes

    @MainActor
    func testCancelledOutcomeMakesNoTransaction() async throws {
        let store = try makeStore()
        try store.setNextOutcome(.cancelled)
        await expectPurchase(F.monthly, on: store, "cancelled")
        XCTAssertEqual(try store.allRecords().count, 0)
        XCTAssertEqual(try customerInfo(of: store).subscriptionStatus, .inactive)
    }

    @MainActor
    func testFailedOutcomeFailsWithItsReasonAndMakesNoTransaction() async throws {
        let store = try makeStore()
        try store.setNextOutcome(.failed(reason: "card_declined"))
        let result = await store.purchase(F.monthly)
        guard case .failed(let error) = result else {
            return XCTFail("expected .failed, got \(resultName(result))")
        }
        XCTAssertEqual(error as? FakeStoreError, .purchaseFailed(reason: "card_declined"))
        XCTAssertTrue("\(error)".contains("card_declined"), "\(error)")
        XCTAssertEqual(try store.allRecords().count, 0)
    }

    @MainActor
    func testOutcomeIsUsedOnce() async throws {
        let store = try makeStore()
        try store.setNextOutcome(.failed(reason: "card_declined"))
        await expectPurchase(F.monthly, on: store, "failed: the store declined the purchase (card_declined)")
        XCTAssertEqual(try store.nextOutcome().outcome, .success)
        XCTAssertEqual(try store.nextOutcome().delay, 0)
        await expectPurchase(F.monthly, on: store, "purchased")
        XCTAssertEqual(try store.currentTransactions().map(\.id), ["fake_000001"])
    }

    @MainActor
    func testDelayedOutcomeStillPurchases() async throws {
        let store = try makeStore()
        try store.setNextOutcome(.success, delay: 0.2)
        XCTAssertEqual(try store.nextOutcome().outcome, .success)
        XCTAssertEqual(try store.nextOutcome().delay, 0.2)
        await expectPurchase(F.monthly, on: store, "purchased")
        XCTAssertEqual(try store.currentTransactions().map(\.productId), ["pro.monthly"])
        XCTAssertEqual(try store.nextOutcome().delay, 0, "the delay is used once too")
    }

    // MARK: Pending purchases

    @MainActor
    func testPendingOutcomeWaitsForApprovalWithoutAccess() async throws {
        let store = try makeStore()
        try store.setNextOutcome(.pending)
        await expectPurchase(F.monthly, on: store, "pending")

        let records = try store.allRecords()
        XCTAssertEqual(records.count, 1)
        XCTAssertEqual(records.first?.approval, "pending")
        XCTAssertEqual(records.first?.transaction.id, "fake_000001")
        XCTAssertEqual(records.first?.transaction.productId, "pro.monthly")
        XCTAssertEqual(try store.currentTransactions(), [])
        let info = try customerInfo(of: store)
        XCTAssertEqual(info.entitlements, [])
        XCTAssertEqual(info.subscriptionStatus, .inactive)

        try store.advance(ClockAdvance(value: 2, unit: .month))
        XCTAssertEqual(try store.allRecords().count, 1, "a pending subscription does not renew")
    }

    @MainActor
    func testApproveStartsAccessAtApprovalTime() async throws {
        let store = try makeStore()
        try store.setNextOutcome(.pending)
        await expectPurchase(F.monthly, on: store, "pending")
        try store.advance(ClockAdvance(value: 3, unit: .day))
        let approvedAt = try store.now()
        XCTAssertEqual(approvedAt, utcDate(2026, 2, 3))

        try store.approve("fake_000001")

        let records = try store.allRecords()
        XCTAssertEqual(records.map(\.approval), ["approved"])
        XCTAssertEqual(
            try store.currentTransactions(),
            [
                StoreTransaction(
                    id: "fake_000001", productId: "pro.monthly", kind: .autoRenewable, store: .fakeStore,
                    purchaseDate: approvedAt, expirationDate: F.month.advance(approvedAt), willRenew: true,
                    subscriptionGroupId: "pro", entitlementIds: ["pro"], price: decimalPrice("7.99"), currencyCode: "USD")
            ])
        let info = try customerInfo(of: store)
        XCTAssertEqual(info.subscriptionStatus, .active(["pro"]))
        XCTAssertEqual(info.entitlements.first?.startsAt, approvedAt)
        XCTAssertEqual(info.entitlements.first?.expiresAt, utcDate(2026, 3, 3))
    }

    @MainActor
    func testDeclineLeavesNoAccess() async throws {
        let store = try makeStore()
        try store.setNextOutcome(.pending)
        await expectPurchase(F.lifetime, on: store, "pending")
        try store.decline("fake_000001")

        let records = try store.allRecords()
        XCTAssertEqual(records.map(\.approval), ["declined"])
        XCTAssertEqual(records.map(\.transaction.id), ["fake_000001"])
        XCTAssertEqual(try store.currentTransactions(), [])
        XCTAssertEqual(try customerInfo(of: store).subscriptionStatus, .inactive)
    }

    @MainActor
    func testApproveOrDeclineOfANonPendingTransactionThrowsNotPending() async throws {
        let store = try makeStore()
        await expectPurchase(F.monthly, on: store, "purchased")
        XCTAssertEqual(fakeStoreError { try store.approve("fake_000001") }, .notPending("fake_000001"))
        XCTAssertEqual(fakeStoreError { try store.decline("fake_000001") }, .notPending("fake_000001"))

        try store.setNextOutcome(.pending)
        await expectPurchase(F.lifetime, on: store, "pending")
        try store.decline("fake_000002")
        XCTAssertEqual(fakeStoreError { try store.approve("fake_000002") }, .notPending("fake_000002"))
        XCTAssertEqual(fakeStoreError { try store.decline("fake_000002") }, .notPending("fake_000002"))
        XCTAssertEqual(try store.allRecords().map(\.approval), ["approved", "declined"], "nothing changed")
    }

    @MainActor
    func testAskToBuyMakesPurchasesPendingByDefault() async throws {
        let store = try makeStore(settings: StoreSettings(askToBuy: true))
        XCTAssertEqual(try store.nextOutcome().outcome, .pending)
        await expectPurchase(F.monthly, on: store, "pending")
        await expectPurchase(F.credits, on: store, "pending")
        XCTAssertEqual(try store.allRecords().map(\.approval), ["pending", "pending"])
        XCTAssertEqual(try store.currentTransactions(), [])

        try store.setNextOutcome(.success)
        await expectPurchase(F.lifetime, on: store, "purchased")  // a scripted outcome overrides it
        XCTAssertEqual(try store.currentTransactions().map(\.productId), ["lifetime"])
        XCTAssertEqual(try store.nextOutcome().outcome, .pending, "and only once")
    }

    // MARK: Errors

    @MainActor
    func testControlsOnAnUnknownIdThrowUnknownTransaction() async throws {
        let store = try makeStore()
        await expectPurchase(F.monthly, on: store, "purchased")
        let unknown = FakeStoreError.unknownTransaction("fake_999999")
        XCTAssertEqual(fakeStoreError { try store.approve("fake_999999") }, unknown)
        XCTAssertEqual(fakeStoreError { try store.decline("fake_999999") }, unknown)
        XCTAssertEqual(fakeStoreError { try store.refund("fake_999999") }, unknown)
        XCTAssertEqual(fakeStoreError { try store.cancel("fake_999999") }, unknown)
        XCTAssertEqual(fakeStoreError { try store.expire("fake_999999") }, unknown)
        XCTAssertEqual(fakeStoreError { try store.billingIssue("fake_999999") }, unknown)
        XCTAssertEqual(fakeStoreError { try store.billingRecover("fake_999999") }, unknown)
        let refund = await store.requestRefund(transactionId: "fake_999999")
        XCTAssertEqual(refund, .error)
    }

    @MainActor
    func testSubscriptionControlsOnAConsumableThrowNotASubscription() async throws {
        let store = try makeStore()
        await expectPurchase(F.credits, on: store, "purchased")
        XCTAssertEqual(fakeStoreError { try store.cancel("fake_000001") }, .notASubscription("fake_000001"))
        XCTAssertEqual(fakeStoreError { try store.expire("fake_000001") }, .notASubscription("fake_000001"))
        XCTAssertEqual(fakeStoreError { try store.billingIssue("fake_000001") }, .notASubscription("fake_000001"))
        XCTAssertEqual(try store.currentTransactions().map(\.id), ["fake_000001"])
    }

    @MainActor
    func testBillingRecoverWithoutABillingIssueThrowsNotInBillingTrouble() async throws {
        let store = try makeStore()
        await expectPurchase(F.monthly, on: store, "purchased")
        XCTAssertEqual(fakeStoreError { try store.billingRecover("fake_000001") }, .notInBillingTrouble("fake_000001"))
    }

    // MARK: Persistence and ids

    @MainActor
    func testResetForgetsTransactionsAndClockButNeverReusesAnId() async throws {
        let store = try makeStore()
        await expectPurchase(F.yearly, on: store, "purchased")
        await expectPurchase(F.credits, on: store, "purchased")
        try store.advance(ClockAdvance(value: 2, unit: .week))  // the trial renews: fake_000003
        try store.setNextOutcome(.cancelled, delay: 1)
        let oldIds = Set(try store.allRecords().map(\.transaction.id))
        XCTAssertEqual(oldIds, ["fake_000001", "fake_000002", "fake_000003"])

        try store.reset()

        XCTAssertEqual(try store.allRecords().count, 0)
        XCTAssertEqual(try store.now(), F.start)
        XCTAssertEqual(try store.nextOutcome().outcome, .success)
        XCTAssertEqual(try store.nextOutcome().delay, 0)
        XCTAssertTrue(try store.isEligibleForIntroOffer(F.yearly), "the forgotten subscription no longer counts")

        await expectPurchase(F.monthly, on: store, "purchased")
        let newIds = try store.currentTransactions().map(\.id)
        XCTAssertEqual(newIds, ["fake_000004"])
        XCTAssertTrue(oldIds.isDisjoint(with: newIds))
    }

    @MainActor
    func testStateSurvivesReopeningTheDatabase() async throws {
        var transactions: [StoreTransaction] = []
        do {
            let store = try makeStore()
            await expectPurchase(F.monthly, on: store, "purchased")
            await expectPurchase(F.lifetime, on: store, "purchased")
            try store.advance(ClockAdvance(value: 40, unit: .day))  // renews on Feb 28
            try store.setNextOutcome(.failed(reason: "card_declined"), delay: 1.5)
            transactions = try store.currentTransactions()
            XCTAssertEqual(transactions.count, 3)
        }

        let reopened = try makeStore()
        XCTAssertNil(reopened.recovery)
        XCTAssertEqual(try reopened.now(), utcDate(2026, 3, 12))
        XCTAssertEqual(try reopened.currentTransactions(), transactions)
        XCTAssertEqual(try reopened.nextOutcome().outcome, .failed(reason: "card_declined"))
        XCTAssertEqual(try reopened.nextOutcome().delay, 1.5)
        XCTAssertEqual(try customerInfo(of: reopened).subscriptionStatus, .active(["lifetime", "pro"]))
    }

    @MainActor
    func testTransactionIdsAreUniqueAcrossManyPurchases() async throws {
        let store = try makeStore()
        for _ in 0..<25 {
            await expectPurchase(F.credits, on: store, "purchased")
        }
        await expectPurchase(F.teamWeekly, on: store, "purchased")
        try store.advance(ClockAdvance(value: 10, unit: .week))  // ten renewals
        try store.setNextOutcome(.pending)
        await expectPurchase(F.lifetime, on: store, "pending")

        let ids = try store.allRecords().map(\.transaction.id)
        XCTAssertEqual(ids.count, 37)
        XCTAssertEqual(Set(ids).count, 37)
        XCTAssertEqual(ids.sorted(), (1...37).map { String(format: "fake_%06d", $0) })
    }
}

/// Each app user's purchases are their own.
final class FakeStoreUserTests: FakeStoreTestCase {
    @MainActor
    func testUsersDoNotShareTransactions() async throws {
        let store = try makeStore()
        store.switchUser("alice")
        await expectPurchase(F.monthly, on: store, "purchased")
        store.switchUser("bob")
        XCTAssertEqual(try store.currentTransactions(), [])
        XCTAssertTrue(try store.isEligibleForIntroOffer(F.yearly), "bob never subscribed")
        await expectPurchase(F.monthly, on: store, "purchased")
        XCTAssertEqual(try store.currentTransactions().map(\.id), ["fake_000002"], "bob is charged: alice's plan is not his")
        store.switchUser("alice")
        XCTAssertEqual(try store.currentTransactions().map(\.id), ["fake_000001"])
        XCTAssertEqual(try store.allRecords().map(\.userId), ["alice", "bob"])
        try advance(store, 40, .day)
        store.switchUser("bob")
        XCTAssertEqual(
            try store.currentTransactions().map(\.productId), ["pro.monthly", "pro.monthly"], "renewals stay with their user")
    }

    /// Restoring gives the store account's active purchases of other app users to this one
    /// (RevenueCat's default transfer); lapsed ones stay where they were.
    @MainActor
    func testRestoreTransfersTheAccountsActivePurchases() async throws {
        let store = try makeStore()
        store.switchUser("alice")
        await expectPurchase(F.monthly, on: store, "purchased")
        await expectPurchase(F.lifetime, on: store, "purchased")
        store.switchUser("old")
        await expectPurchase(F.teamWeekly, on: store, "purchased")
        try advance(store, 10, .day)
        try store.cancel(try store.currentTransactions().first { $0.productId == F.teamWeekly.id }!.id)
        try advance(store, 10, .day)  // old's weekly has lapsed
        store.switchUser("bob")
        XCTAssertEqual(try store.currentTransactions(), [])
        guard case .restored = await store.restorePurchases() else { return XCTFail("restore failed") }
        XCTAssertEqual(Set(try store.currentTransactions().map(\.productId)), [F.monthly.id, F.lifetime.id])
        store.switchUser("alice")
        XCTAssertEqual(try store.currentTransactions(), [], "they moved to bob")
        store.switchUser("old")
        XCTAssertFalse(try store.currentTransactions().isEmpty, "a lapsed purchase stays with its user")
        try advance(store, 40, .day)
        store.switchUser("bob")
        XCTAssertTrue(try store.currentTransactions().filter { $0.productId == F.monthly.id }.count >= 2, "renewals follow")
    }

    @MainActor
    func testApprovalCompletesForTheUserWhoBought() async throws {
        let store = try makeStore()
        store.switchUser("kid")
        try store.setNextOutcome(.pending)
        await expectPurchase(F.lifetime, on: store, "pending")
        store.switchUser("parent")
        try store.approve("fake_000001")
        XCTAssertEqual(try store.currentTransactions(), [])
        store.switchUser("kid")
        XCTAssertEqual(try store.currentTransactions().map(\.productId), ["lifetime"])
    }
}
