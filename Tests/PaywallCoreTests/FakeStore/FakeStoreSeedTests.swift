import Foundation
import XCTest

@testable import PaywallCore

/// `FakeStore.seed`: each purchase state through the store's own lifecycle, lived on the seeded
/// user's own clock and back-dated, so the store's clock stays at `FakeStoreFixture.start`.
final class FakeStoreSeedTests: FakeStoreTestCase {
    private let grace = StoreSettings(gracePeriodDays: 16, billingRetryDays: 60)

    /// Seeds `state` for `product` and returns the entitlement (if any) and the store's time after.
    @MainActor
    private func seed(
        _ product: Product, _ state: SeedState, settings: StoreSettings = StoreSettings(),
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> (Entitlement?, Date, FakeStore) {
        let store = try freshStore(settings)
        try store.seed(product, state)
        let info = try customerInfo(of: store)
        XCTAssertLessThanOrEqual(info.entitlements.count, 1, file: file, line: line)
        return (info.entitlements.first, try store.now(), store)
    }

    /// A store of its own, for tests that seed several stores.
    @MainActor
    private func freshStore(_ settings: StoreSettings) throws -> FakeStore {
        let dir = try makeTemporaryDirectory("FakeStoreSeedTests")
        addTeardownBlock { removeTemporaryDirectory(dir) }
        return try makeFakeStore(in: dir, settings: settings)
    }

    private func date(after periods: SubscriptionPeriod..., from start: Date = FakeStoreFixture.start) -> Date {
        periods.reduce(start) { $1.advance($0) }
    }

    /// `date` of a seed that lived until `lived` (on its own clock), back-dated to end now.
    private func backDated(_ date: Date, lived: Date) -> Date {
        date.addingTimeInterval(-lived.timeIntervalSince(F.start))
    }

    // MARK: Each state

    @MainActor
    func testTrialIsAFreeTrialThatWillConvert() async throws {
        let (e, now, _) = try seed(F.yearly, .trial)
        XCTAssertEqual(now, F.start)
        XCTAssertEqual(e?.state, .subscribed)
        XCTAssertEqual(e?.offerType, .trial)
        XCTAssertEqual(e?.isActive, true)
        XCTAssertEqual(e?.willRenew, true)
        XCTAssertEqual(e?.expiresAt, date(after: F.week))
    }

    @MainActor
    func testSubscribedIsTheRegularPlan() async throws {
        let (e, now, _) = try seed(F.monthly, .subscribed)
        XCTAssertEqual(now, F.start)
        XCTAssertEqual(e?.state, .subscribed)
        XCTAssertEqual(e?.isActive, true)
        XCTAssertEqual(e?.willRenew, true)
        XCTAssertEqual(e?.renewedAt, nil)
        XCTAssertEqual(e?.expiresAt, date(after: F.month))
    }

    @MainActor
    func testSubscribedRunsThroughAFreeTrialFirst() async throws {
        let (e, now, store) = try seed(F.yearly, .subscribed)
        XCTAssertEqual(now, F.start, "the store's clock did not move")
        XCTAssertEqual(e?.state, .subscribed)
        XCTAssertEqual(e?.offerType, nil, "the trial ran out and converted")
        XCTAssertEqual(e?.willRenew, true)
        XCTAssertEqual(e?.expiresAt, backDated(date(after: F.week, F.year), lived: date(after: F.week)))
        XCTAssertEqual(e?.startsAt, backDated(F.start, lived: date(after: F.week)))
        XCTAssertEqual(try store.currentTransactions().last?.price, decimalPrice("39.99"))
    }

    @MainActor
    func testSubscribedRunsThroughEveryPayAsYouGoPeriod() async throws {
        let (e, now, store) = try seed(F.teamWeekly, .subscribed)
        XCTAssertEqual(now, F.start)
        XCTAssertEqual(e?.expiresAt, date(after: F.week))
        XCTAssertEqual(
            try store.currentTransactions().map(\.price),
            [decimalPrice("0.99"), decimalPrice("0.99"), decimalPrice("0.99"), decimalPrice("2.99")])
    }

    @MainActor
    func testRenewedHasRenewedAtTheRegularPrice() async throws {
        let (e, now, store) = try seed(F.monthly, .renewed)
        XCTAssertEqual(now, F.start)
        XCTAssertEqual(e?.state, .subscribed)
        XCTAssertEqual(e?.isActive, true)
        XCTAssertEqual(e?.willRenew, true)
        XCTAssertEqual(e?.renewedAt, F.start, "it renewed just now")
        XCTAssertEqual(e?.expiresAt, backDated(date(after: F.month, F.month), lived: date(after: F.month)))
        XCTAssertEqual(try store.currentTransactions().count, 2)
    }

    @MainActor
    func testCancelledStaysActiveWithoutRenewing() async throws {
        let (e, now, _) = try seed(F.monthly, .cancelled)
        XCTAssertEqual(now, F.start)
        XCTAssertEqual(e?.state, .subscribed)
        XCTAssertEqual(e?.isActive, true)
        XCTAssertEqual(e?.willRenew, false)
        XCTAssertEqual(e?.expiresAt, date(after: F.month))
    }

    @MainActor
    func testGraceKeepsAccessUntilTheGracePeriodEnds() async throws {
        let (e, now, _) = try seed(F.monthly, .grace, settings: grace)
        XCTAssertEqual(now, F.start)
        XCTAssertEqual(e?.state, .inGracePeriod)
        XCTAssertEqual(e?.isActive, true)
        XCTAssertEqual(e?.willRenew, true)
        XCTAssertEqual(e?.expiresAt, date(after: SubscriptionPeriod(value: 16, unit: .day)), "the renewal just failed")
    }

    @MainActor
    func testBillingRetryComesAfterTheGracePeriod() async throws {
        let (e, now, _) = try seed(F.monthly, .billingRetry, settings: grace)
        let lived = date(after: F.month, SubscriptionPeriod(value: 16, unit: .day))
        XCTAssertEqual(now, F.start)
        XCTAssertEqual(e?.state, .inBillingRetryPeriod)
        XCTAssertEqual(e?.isActive, false)
        XCTAssertEqual(e?.willRenew, true, "the store still tries to bill")
        XCTAssertEqual(e?.expiresAt, backDated(date(after: F.month), lived: lived))
    }

    @MainActor
    func testBillingRetryWithoutAGracePeriodStartsAtThePeriodEnd() async throws {
        let (e, now, _) = try seed(F.monthly, .billingRetry)
        XCTAssertEqual(now, F.start)
        XCTAssertEqual(e?.expiresAt, F.start, "the period just ended")
        XCTAssertEqual(e?.state, .inBillingRetryPeriod)
        XCTAssertEqual(e?.isActive, false)
    }

    @MainActor
    func testExpiredRanOutWithoutRenewing() async throws {
        let (e, now, store) = try seed(F.monthly, .expired)
        XCTAssertEqual(now, F.start)
        XCTAssertEqual(e?.state, .expired)
        XCTAssertEqual(e?.isActive, false)
        XCTAssertEqual(e?.willRenew, false)
        XCTAssertEqual(e?.expiresAt, F.start)
        XCTAssertEqual(e?.startsAt, backDated(F.start, lived: date(after: F.month)))
        XCTAssertEqual(try store.currentTransactions().count, 1)
    }

    @MainActor
    func testRevokedEndedAccessNow() async throws {
        let (e, now, store) = try seed(F.monthly, .revoked)
        XCTAssertEqual(now, F.start)
        XCTAssertEqual(e?.state, .revoked)
        XCTAssertEqual(e?.isActive, false)
        XCTAssertEqual(e?.willRenew, false)
        XCTAssertEqual(try store.currentTransactions().first?.revocationDate, F.start)
    }

    @MainActor
    func testPendingWaitsForApprovalWithoutAccess() async throws {
        let (e, _, store) = try seed(F.monthly, .pending)
        XCTAssertNil(e)
        XCTAssertEqual(try store.allRecords().map(\.approval), ["pending"])
        XCTAssertEqual(try customerInfo(of: store).subscriptionStatus, .inactive)
    }

    @MainActor
    func testLifetimeNeverExpires() async throws {
        let (e, _, _) = try seed(F.lifetime, .lifetime)
        XCTAssertEqual(e?.isLifetime, true)
        XCTAssertEqual(e?.isActive, true)
        XCTAssertEqual(e?.willRenew, false)
        XCTAssertNil(e?.expiresAt)
    }

    @MainActor
    func testNonRenewingSubscribedExpiredAndRevoked() async throws {
        let (subscribed, _, _) = try seed(F.pass, .subscribed)
        XCTAssertEqual(subscribed?.isActive, true)
        XCTAssertEqual(subscribed?.willRenew, false)
        XCTAssertEqual(subscribed?.expiresAt, date(after: F.month))
        let (expired, now, _) = try seed(F.pass, .expired)
        XCTAssertEqual(expired?.state, .expired)
        XCTAssertEqual(now, F.start)
        XCTAssertEqual(expired?.expiresAt, F.start)
        let (revoked, _, _) = try seed(F.lifetime, .revoked)
        XCTAssertEqual(revoked?.state, .revoked)
        XCTAssertEqual(revoked?.isActive, false)
    }

    // MARK: Through the lifecycle, leaving the rest alone

    func testStepsAreTheTestersOperations() throws {
        XCTAssertEqual(
            try FakeStore.seedSteps(.grace, for: F.monthly, settings: grace),
            [.buy(.success), .billingIssue, .advanceToPeriodEnd])
        XCTAssertEqual(
            try FakeStore.seedSteps(.billingRetry, for: F.yearly, settings: grace),
            [.buy(.success), .advanceToPeriodEnd, .billingIssue, .advanceToPeriodEnd, .advanceToGraceEnd])
        XCTAssertEqual(
            try FakeStore.seedSteps(.expired, for: F.monthly, settings: grace),
            [.buy(.success), .cancel, .advanceToPeriodEnd])
        XCTAssertEqual(try FakeStore.seedSteps(.pending, for: F.credits, settings: grace), [.buy(.pending)])
    }

    @MainActor
    func testAskToBuyCatalogStillSeedsAPurchase() async throws {
        let (e, _, _) = try seed(F.monthly, .subscribed, settings: StoreSettings(askToBuy: true))
        XCTAssertEqual(e?.isActive, true)
    }

    @MainActor
    func testTheTestersNextOutcomeIsKept() async throws {
        let store = try makeStore()
        try store.setNextOutcome(.failed(reason: "card_declined"), delay: 1.5)
        try store.seed(F.monthly, .renewed)
        XCTAssertEqual(try store.nextOutcome().outcome, .failed(reason: "card_declined"))
        XCTAssertEqual(try store.nextOutcome().delay, 1.5)
    }

    @MainActor
    func testAUserWithThePurchaseAlreadyIsRefusedAndAnotherUserIsNot() async throws {
        let store = try makeStore()
        try store.seed(F.monthly, .subscribed)
        XCTAssertThrowsError(try store.seed(F.yearly, .trial)) { error in
            let refused = error as? SeedUnreachable
            XCTAssertEqual(
                refused?.reason, "user $anonymous already has a purchase of its subscription group 'pro' (fake_000001)")
            XCTAssertEqual(refused?.remedy, "seed another user, or reset the fake store first")
        }
        store.switchUser("bob")
        try store.seed(F.yearly, .trial)
        XCTAssertEqual(try customerInfo(of: store).entitlements.first?.offerType, .trial)
    }

    /// Every state seeded for its own user in one store: each user keeps their state, since
    /// no seed moves the clock the others share (`advance` still moves everyone).
    @MainActor
    func testEveryStateSeededForItsOwnUserInOneStoreKeepsItsState() async throws {
        let store = try freshStore(grace)
        let seeds: [(String, Product, SeedState, EntitlementState?)] = [
            ("trial", F.yearly, .trial, .subscribed), ("subscribed", F.monthly, .subscribed, .subscribed),
            ("renewed", F.monthly, .renewed, .subscribed), ("cancelled", F.monthly, .cancelled, .subscribed),
            ("grace", F.monthly, .grace, .inGracePeriod), ("retry", F.monthly, .billingRetry, .inBillingRetryPeriod),
            ("expired", F.monthly, .expired, .expired), ("revoked", F.monthly, .revoked, .revoked),
            ("pending", F.monthly, .pending, nil), ("lifetime", F.lifetime, .lifetime, .subscribed),
        ]
        for (user, product, state, _) in seeds {
            store.switchUser(user)
            try store.seed(product, state)
        }
        XCTAssertEqual(try store.now(), F.start)
        for (user, _, state, expected) in seeds {
            store.switchUser(user)
            let info = try customerInfo(of: store)
            XCTAssertEqual(info.entitlements.first?.state, expected, "\(user) seeded as \(state)")
            if state == .trial { XCTAssertEqual(info.entitlements.first?.offerType, .trial, "still in its trial") }
        }
    }

    // MARK: Unreachable states

    @MainActor
    func testUnreachableStatesSayWhyAndChangeNothing() async throws {
        let cases: [(Product, SeedState, StoreSettings, String, String)] = [
            (
                F.monthly, .trial, grace, "it has no introductory offer",
                "it can be seeded as subscribed, renewed, cancelled, grace, billing-retry, expired, revoked or pending"
            ),
            (
                F.teamWeekly, .trial, grace, "its introductory offer is pay_as_you_go, not a free trial",
                "it can be seeded as subscribed, renewed, cancelled, grace, billing-retry, expired, revoked or pending"
            ),
            (
                F.monthly, .lifetime, grace, "it is a subscription; only a one-time (non-consumable) product is lifetime",
                "it can be seeded as subscribed, renewed, cancelled, grace, billing-retry, expired, revoked or pending"
            ),
            (
                F.lifetime, .subscribed, grace, "it is a one-time purchase, which never renews or expires",
                "it can be seeded as revoked, pending or lifetime"
            ),
            (
                F.pass, .renewed, grace, "a non-renewing subscription never renews: it has no trial, auto-renew or billing retry",
                "it can be seeded as subscribed, expired, revoked or pending"
            ),
            (
                F.credits, .subscribed, grace, "a consumable unlocks no entitlement, so it has no purchase state besides pending",
                "it can be seeded as pending"
            ),
            (
                F.monthly, .grace, StoreSettings(),
                "the catalog has no grace period (settings.grace_period_days, or _billingGracePeriodEnabled in a .storekit file)",
                "it can be seeded as subscribed, renewed, cancelled, billing-retry, expired, revoked or pending"
            ),
            (
                F.monthly, .billingRetry, StoreSettings(gracePeriodDays: 16, billingRetryDays: 16),
                "billing retry (16 days) ends before the 16-day grace period does",
                "it can be seeded as subscribed, renewed, cancelled, grace, expired, revoked or pending"
            ),
        ]
        for (product, state, settings, reason, remedy) in cases {
            let store = try freshStore(settings)
            try store.setNextOutcome(.pending)
            XCTAssertThrowsError(try store.seed(product, state), "\(product.id) \(state)") { error in
                XCTAssertEqual(
                    error as? SeedUnreachable,
                    SeedUnreachable(productId: product.id, state: state, reason: reason, remedy: remedy))
            }
            XCTAssertEqual(try store.allRecords().count, 0, "\(product.id) \(state)")
            XCTAssertEqual(try store.now(), F.start)
            XCTAssertEqual(try store.nextOutcome().outcome, .pending)
        }
    }
}
