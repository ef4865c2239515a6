import Foundation
import XCTest

@testable import PaywallCore

// MARK: - Shared fixture for the fake-store tests

/// A point in time in UTC (the fake store bills in UTC).
func utcDate(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 12) -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    return calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour))!
}

/// A price written as text, so `7.99` is exactly 7.99.
func decimalPrice(_ text: String) -> Decimal {
    Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))!
}

/// The catalog every fake-store test buys from, and the fixed moment its clock starts at.
enum FakeStoreFixture {
    /// 2026-01-31T12:00:00Z: a month end, so a month later is Feb 28.
    static let start = utcDate(2026, 1, 31)

    static let day = SubscriptionPeriod(value: 1, unit: .day)
    static let week = SubscriptionPeriod(value: 1, unit: .week)
    static let month = SubscriptionPeriod(value: 1, unit: .month)
    static let year = SubscriptionPeriod(value: 1, unit: .year)

    static let yearly = Product(
        id: "pro.yearly", displayName: "Pro Yearly", price: decimalPrice("39.99"), currencyCode: "USD",
        kind: .autoRenewable, period: year, subscriptionGroup: "pro", groupRank: 1,
        introductoryOffer: IntroductoryOffer(mode: .freeTrial, period: week), entitlements: ["pro"])
    static let monthly = Product(
        id: "pro.monthly", displayName: "Pro Monthly", price: decimalPrice("7.99"), currencyCode: "USD",
        kind: .autoRenewable, period: month, subscriptionGroup: "pro", groupRank: 2, entitlements: ["pro"])
    static let teamWeekly = Product(
        id: "team.weekly", displayName: "Team Weekly", price: decimalPrice("2.99"), currencyCode: "USD",
        kind: .autoRenewable, period: week, subscriptionGroup: "team", groupRank: 1,
        introductoryOffer: IntroductoryOffer(mode: .payAsYouGo, period: week, count: 3, price: decimalPrice("0.99")),
        entitlements: ["team"])
    static let pass = Product(
        id: "pass.month", displayName: "Month Pass", price: decimalPrice("4.99"), currencyCode: "USD",
        kind: .nonRenewing, period: month, entitlements: ["pass"])
    static let lifetime = Product(
        id: "lifetime", displayName: "Lifetime", price: decimalPrice("99.99"), currencyCode: "USD",
        kind: .nonConsumable, entitlements: ["lifetime"])
    static let credits = Product(
        id: "credits", displayName: "Credits", price: decimalPrice("0.99"), currencyCode: "USD", kind: .consumable)

    static func catalog(_ settings: StoreSettings = StoreSettings()) -> Catalog {
        Catalog(
            products: [yearly, monthly, teamWeekly, pass, lifetime, credits],
            groupNames: ["pro": "Pro", "team": "Team"], settings: settings)
    }
}

/// A fake store on `fake-store.sqlite` in `directory`, whose real clock stands still at `FakeStoreFixture.start`.
@MainActor
func makeFakeStore(in directory: URL, settings: StoreSettings = StoreSettings()) throws -> FakeStore {
    let start = FakeStoreFixture.start
    return try FakeStore(
        catalog: FakeStoreFixture.catalog(settings),
        databasePath: directory.appendingPathComponent("fake-store.sqlite").path,
        realClock: { start })
}

/// What the store's current transactions add up to at the store's time.
@MainActor
func customerInfo(of store: FakeStore) throws -> CustomerInfo {
    CustomerInfo(transactions: try store.currentTransactions(), now: try store.now())
}

/// A `PurchaseResult` as text (`purchased`, `cancelled`, `pending`, `failed: <error>`), to compare exactly.
func resultName(_ result: PurchaseResult) -> String {
    switch result {
    case .purchased: "purchased"
    case .alreadyOwned: "already owned"
    case .cancelled: "cancelled"
    case .pending: "pending"
    case .failed(let error): "failed: \(error)"
    }
}

/// Buys `product` and checks what came of it (`resultName`).
@MainActor
func expectPurchase(
    _ product: Product, on store: FakeStore, _ expected: String = "purchased",
    file: StaticString = #filePath, line: UInt = #line
) async {
    let result = await store.purchase(product)
    XCTAssertEqual(resultName(result), expected, "buying \(product.id)", file: file, line: line)
}

/// The `FakeStoreError` `body` throws, or nil when it throws nothing (or something else).
func fakeStoreError(_ body: () throws -> Void) -> FakeStoreError? {
    do {
        try body()
        return nil
    } catch {
        return error as? FakeStoreError
    }
}

// MARK: - Lifecycle

/// A fresh fake-store database per test, on the fixture's fixed clock.
class FakeStoreTestCase: XCTestCase {
    typealias F = FakeStoreFixture
    private var dir: URL!

    override func setUpWithError() throws { dir = try makeTemporaryDirectory(String(describing: type(of: self))) }
    override func tearDown() { removeTemporaryDirectory(dir) }

    @MainActor
    func makeStore(settings: StoreSettings = StoreSettings()) throws -> FakeStore {
        try makeFakeStore(in: dir, settings: settings)
    }

    @MainActor
    func advance(_ store: FakeStore, _ value: Int, _ unit: ClockAdvance.Unit) throws {
        try store.advance(ClockAdvance(value: value, unit: unit))
    }
}

/// The subscription lifecycle of the fake store, driven by its clock.
final class FakeStoreLifecycleTests: FakeStoreTestCase {

    // MARK: Purchases

    @MainActor
    func testPlainMonthlyPurchaseIsActiveForOneCalendarMonth() async throws {
        let store = try makeStore()
        let result = await store.purchase(F.monthly)
        XCTAssertEqual(resultName(result), "purchased")

        let expiry = F.month.advance(F.start)
        XCTAssertEqual(expiry, utcDate(2026, 2, 28), "a month from Jan 31 is Feb 28")
        XCTAssertEqual(
            try store.currentTransactions(),
            [
                StoreTransaction(
                    id: "fake_000001", productId: "pro.monthly", kind: .autoRenewable, store: .fakeStore,
                    purchaseDate: F.start, expirationDate: expiry, willRenew: true, subscriptionGroupId: "pro",
                    entitlementIds: ["pro"], price: decimalPrice("7.99"), currencyCode: "USD")
            ])

        let info = try customerInfo(of: store)
        XCTAssertEqual(info.subscriptionStatus, .active(["pro"]))
        XCTAssertEqual(
            info.entitlements,
            [
                Entitlement(
                    id: "pro", isActive: true, productIds: ["pro.monthly"], latestProductId: "pro.monthly",
                    store: .fakeStore, startsAt: F.start, renewedAt: nil, expiresAt: expiry, isLifetime: false,
                    willRenew: true, state: .subscribed, offerType: nil)
            ])
    }

    @MainActor
    func testFreeTrialConvertsToPaidRenewalAtTrialEnd() async throws {
        let store = try makeStore()
        XCTAssertTrue(try store.isEligibleForIntroOffer(F.yearly))
        await expectPurchase(F.yearly, on: store, "purchased")

        let trialEnd = F.week.advance(F.start)
        XCTAssertEqual(trialEnd, utcDate(2026, 2, 7))
        let trial = try XCTUnwrap(try store.currentTransactions().first)
        XCTAssertEqual(try store.currentTransactions().count, 1)
        XCTAssertEqual(trial.id, "fake_000001")
        XCTAssertEqual(trial.offerType, .trial)
        XCTAssertEqual(trial.price, 0)
        XCTAssertEqual(trial.purchaseDate, F.start)
        XCTAssertEqual(trial.expirationDate, trialEnd)
        XCTAssertTrue(trial.willRenew)
        XCTAssertEqual(try customerInfo(of: store).entitlements.first?.offerType, .trial)

        try advance(store, 8, .day)

        let transactions = try store.currentTransactions()
        XCTAssertEqual(transactions.count, 2)
        XCTAssertEqual(transactions[0], trial, "the trial period itself is left as it was")
        let paid = transactions[1]
        XCTAssertEqual(paid.id, "fake_000002")
        XCTAssertEqual(paid.originalId, "fake_000001")
        XCTAssertEqual(paid.productId, "pro.yearly")
        XCTAssertNil(paid.offerType)
        XCTAssertEqual(paid.price, decimalPrice("39.99"))
        XCTAssertEqual(paid.purchaseDate, trialEnd)
        XCTAssertEqual(paid.expirationDate, F.year.advance(trialEnd))
        XCTAssertEqual(paid.expirationDate, utcDate(2027, 2, 7))
        XCTAssertTrue(paid.willRenew)

        let pro = try XCTUnwrap(try customerInfo(of: store).entitlements.first)
        XCTAssertEqual(pro.state, .subscribed)
        XCTAssertTrue(pro.isActive)
        XCTAssertEqual(pro.startsAt, F.start)
        XCTAssertEqual(pro.renewedAt, trialEnd)
        XCTAssertEqual(pro.expiresAt, utcDate(2027, 2, 7))
        XCTAssertNil(pro.offerType)
    }

    @MainActor
    func testLongAdvanceAppliesEveryRenewalChainedFromThePreviousExpiry() async throws {
        let store = try makeStore()
        await expectPurchase(F.monthly, on: store, "purchased")

        try advance(store, 1, .year)  // to 2027-01-31T12:00Z
        XCTAssertEqual(try store.now(), utcDate(2027, 1, 31))

        let transactions = try store.currentTransactions()
        // Periods start Jan 31, Feb 28, Mar 28, ..., Dec 28 2026, Jan 28 2027: 13 of them.
        XCTAssertEqual(transactions.count, 13)
        XCTAssertEqual(transactions.map(\.id), (1...13).map { String(format: "fake_%06d", $0) })
        var start = F.start
        for t in transactions {
            XCTAssertEqual(t.originalId, "fake_000001")
            XCTAssertEqual(t.productId, "pro.monthly")
            XCTAssertEqual(t.price, decimalPrice("7.99"))
            XCTAssertEqual(t.purchaseDate, start, t.id)
            XCTAssertEqual(t.expirationDate, F.month.advance(start), t.id)
            start = F.month.advance(start)
        }
        XCTAssertEqual(transactions[1].purchaseDate, utcDate(2026, 2, 28))
        XCTAssertEqual(transactions[2].purchaseDate, utcDate(2026, 3, 28))
        XCTAssertEqual(transactions.last?.purchaseDate, utcDate(2027, 1, 28))
        XCTAssertEqual(transactions.last?.expirationDate, utcDate(2027, 2, 28))
        XCTAssertEqual(transactions.dropLast().map(\.willRenew), Array(repeating: true, count: 12))

        let pro = try XCTUnwrap(try customerInfo(of: store).entitlements.first)
        XCTAssertEqual(pro.renewedAt, utcDate(2027, 1, 28))
        XCTAssertEqual(pro.expiresAt, utcDate(2027, 2, 28))
        XCTAssertEqual(pro.state, .subscribed)
    }

    // MARK: Controls over the lifecycle

    @MainActor
    func testCancelKeepsAccessUntilExpiryThenExpiresWithoutRenewal() async throws {
        let store = try makeStore()
        await expectPurchase(F.monthly, on: store, "purchased")
        try advance(store, 10, .day)
        try store.cancel("fake_000001")

        let expiry = F.month.advance(F.start)
        var t = try XCTUnwrap(try store.currentTransactions().first)
        XCTAssertFalse(t.willRenew)
        XCTAssertEqual(t.expirationDate, expiry, "cancelling leaves the period as it was")
        XCTAssertEqual(CustomerInfo.state(of: t, now: try store.now()), .subscribed)
        var pro = try XCTUnwrap(try customerInfo(of: store).entitlements.first)
        XCTAssertTrue(pro.isActive)
        XCTAssertFalse(pro.willRenew)
        XCTAssertEqual(pro.expiresAt, expiry)

        try advance(store, 1, .month)  // past Feb 28
        XCTAssertEqual(try store.currentTransactions().count, 1, "no renewal after cancelling")
        t = try XCTUnwrap(try store.currentTransactions().first)
        XCTAssertEqual(CustomerInfo.state(of: t, now: try store.now()), .expired)
        let info = try customerInfo(of: store)
        pro = try XCTUnwrap(info.entitlements.first)
        XCTAssertFalse(pro.isActive)
        XCTAssertEqual(pro.state, .expired)
        XCTAssertEqual(info.subscriptionStatus, .inactive)

        try advance(store, 6, .month)
        XCTAssertEqual(try store.currentTransactions().count, 1)
    }

    @MainActor
    func testCancelSubscriptionThroughThePurchaseControllerTurnsAutoRenewOff() async throws {
        let store = try makeStore()
        await expectPurchase(F.monthly, on: store, "purchased")
        let cancelled = await store.cancelSubscription(transactionId: "fake_000001")
        XCTAssertTrue(cancelled)
        XCTAssertEqual(try store.currentTransactions().map(\.willRenew), [false])
        let cancelledUnknown = await store.cancelSubscription(transactionId: "fake_999999")
        XCTAssertFalse(cancelledUnknown)
    }

    @MainActor
    func testExpireEndsTheSubscriptionAtOnce() async throws {
        let store = try makeStore()
        await expectPurchase(F.monthly, on: store, "purchased")
        try advance(store, 3, .day)
        let now = try store.now()
        try store.expire("fake_000001")

        let t = try XCTUnwrap(try store.currentTransactions().first)
        XCTAssertEqual(t.expirationDate, now)
        XCTAssertFalse(t.willRenew)
        XCTAssertEqual(CustomerInfo.state(of: t, now: now), .expired)
        let info = try customerInfo(of: store)
        XCTAssertEqual(info.subscriptionStatus, .inactive)
        XCTAssertEqual(info.entitlements.first?.state, .expired)
        XCTAssertEqual(info.entitlements.first?.expiresAt, now)

        try advance(store, 3, .month)
        XCTAssertEqual(try store.currentTransactions().count, 1, "an expired subscription does not renew")
    }

    @MainActor
    func testBillingIssueWithGracePeriodGoesThroughGraceThenRetryThenExpiry() async throws {
        let store = try makeStore(settings: StoreSettings(gracePeriodDays: 16, billingRetryDays: 60))
        await expectPurchase(F.monthly, on: store, "purchased")
        try store.billingIssue("fake_000001")

        let expiry = F.month.advance(F.start)  // Feb 28
        let graceEnd = SubscriptionPeriod(value: 16, unit: .day).advance(expiry)
        let retryEnd = SubscriptionPeriod(value: 60, unit: .day).advance(expiry)
        XCTAssertEqual(graceEnd, utcDate(2026, 3, 16))
        XCTAssertEqual(retryEnd, utcDate(2026, 4, 29))

        // Until the period ends nothing changes.
        XCTAssertEqual(try customerInfo(of: store).entitlements.first?.state, .subscribed)

        try advance(store, 1, .month)  // exactly Feb 28, the period's end
        XCTAssertEqual(try store.now(), expiry)
        var transactions = try store.currentTransactions()
        XCTAssertEqual(transactions.count, 1, "a failed renewal makes no new transaction")
        let t = transactions[0]
        XCTAssertEqual(t.billingIssueDate, expiry)
        XCTAssertEqual(t.gracePeriodEnd, graceEnd)
        XCTAssertEqual(t.billingRetryEnd, retryEnd)
        XCTAssertEqual(CustomerInfo.state(of: t, now: expiry), .inGracePeriod)
        var info = try customerInfo(of: store)
        XCTAssertEqual(info.subscriptionStatus, .active(["pro"]), "access continues during the grace period")
        XCTAssertEqual(info.entitlements.first?.state, .inGracePeriod)
        XCTAssertEqual(info.entitlements.first?.expiresAt, graceEnd)

        try advance(store, 15, .day)  // Mar 15: still in grace
        XCTAssertEqual(try customerInfo(of: store).entitlements.first?.state, .inGracePeriod)

        try advance(store, 1, .day)  // Mar 16: grace over
        XCTAssertEqual(try store.now(), graceEnd)
        info = try customerInfo(of: store)
        XCTAssertEqual(info.entitlements.first?.state, .inBillingRetryPeriod)
        XCTAssertEqual(info.entitlements.first?.isActive, false)
        XCTAssertEqual(info.subscriptionStatus, .inactive, "billing retry gives no access")

        try advance(store, 43, .day)  // Apr 28: still retrying
        XCTAssertEqual(try customerInfo(of: store).entitlements.first?.state, .inBillingRetryPeriod)

        try advance(store, 1, .day)  // Apr 29: 60 days after the period's end
        XCTAssertEqual(try store.now(), retryEnd)
        transactions = try store.currentTransactions()
        XCTAssertEqual(transactions.count, 1)
        XCTAssertEqual(CustomerInfo.state(of: transactions[0], now: retryEnd), .expired)
        info = try customerInfo(of: store)
        XCTAssertEqual(info.entitlements.first?.state, .expired)
        XCTAssertEqual(info.subscriptionStatus, .inactive)
    }

    @MainActor
    func testBillingIssueWithoutGracePeriodGoesStraightToBillingRetry() async throws {
        let store = try makeStore(settings: StoreSettings(gracePeriodDays: 0, billingRetryDays: 60))
        await expectPurchase(F.monthly, on: store, "purchased")
        try store.billingIssue("fake_000001")
        try advance(store, 1, .month)

        let expiry = F.month.advance(F.start)
        let t = try XCTUnwrap(try store.currentTransactions().first)
        XCTAssertEqual(try store.currentTransactions().count, 1)
        XCTAssertEqual(t.billingIssueDate, expiry)
        XCTAssertNil(t.gracePeriodEnd)
        XCTAssertEqual(t.billingRetryEnd, SubscriptionPeriod(value: 60, unit: .day).advance(expiry))
        XCTAssertEqual(CustomerInfo.state(of: t, now: try store.now()), .inBillingRetryPeriod)
        let info = try customerInfo(of: store)
        XCTAssertEqual(info.subscriptionStatus, .inactive)
        XCTAssertEqual(info.entitlements.first?.state, .inBillingRetryPeriod)
        XCTAssertEqual(info.entitlements.first?.expiresAt, expiry)
    }

    @MainActor
    func testBillingRecoverDuringRetryRenewsFromNow() async throws {
        let store = try makeStore()
        await expectPurchase(F.monthly, on: store, "purchased")
        try store.billingIssue("fake_000001")
        try advance(store, 1, .month)  // Feb 28: billing retry
        try advance(store, 10, .day)  // Mar 10
        let recoveredAt = try store.now()
        XCTAssertEqual(recoveredAt, utcDate(2026, 3, 10))
        XCTAssertEqual(try customerInfo(of: store).entitlements.first?.state, .inBillingRetryPeriod)

        try store.billingRecover("fake_000001")

        var transactions = try store.currentTransactions()
        XCTAssertEqual(transactions.count, 2)
        XCTAssertNil(transactions[0].billingIssueDate)
        XCTAssertNil(transactions[0].billingRetryEnd)
        XCTAssertEqual(transactions[0].expirationDate, recoveredAt)
        let renewal = transactions[1]
        XCTAssertEqual(renewal.id, "fake_000002")
        XCTAssertEqual(renewal.originalId, "fake_000001")
        XCTAssertEqual(renewal.purchaseDate, recoveredAt)
        XCTAssertEqual(renewal.expirationDate, F.month.advance(recoveredAt))
        XCTAssertEqual(renewal.price, decimalPrice("7.99"))
        XCTAssertNil(renewal.billingIssueDate)
        XCTAssertTrue(renewal.willRenew)
        let info = try customerInfo(of: store)
        XCTAssertEqual(info.subscriptionStatus, .active(["pro"]))
        XCTAssertEqual(info.entitlements.first?.state, .subscribed)
        XCTAssertEqual(info.entitlements.first?.renewedAt, recoveredAt)

        try advance(store, 1, .month)  // Apr 10: bills normally again
        transactions = try store.currentTransactions()
        XCTAssertEqual(transactions.count, 3)
        XCTAssertEqual(transactions[2].purchaseDate, utcDate(2026, 4, 10))
        XCTAssertNil(transactions[2].billingIssueDate)
        XCTAssertEqual(try customerInfo(of: store).entitlements.first?.state, .subscribed)
    }

    @MainActor
    func testRefundRevokesAccessAtOnceAndStopsRenewal() async throws {
        let store = try makeStore()
        await expectPurchase(F.monthly, on: store, "purchased")
        try advance(store, 10, .day)
        let refundedAt = try store.now()
        try store.refund("fake_000001")

        let t = try XCTUnwrap(try store.currentTransactions().first)
        XCTAssertEqual(t.revocationDate, refundedAt)
        XCTAssertFalse(t.willRenew)
        XCTAssertEqual(CustomerInfo.state(of: t, now: refundedAt), .revoked)
        let info = try customerInfo(of: store)
        XCTAssertEqual(info.subscriptionStatus, .inactive)
        XCTAssertEqual(info.entitlements.first?.state, .revoked)
        XCTAssertEqual(info.entitlements.first?.isActive, false)
        XCTAssertEqual(info.entitlements.first?.willRenew, false)

        try advance(store, 2, .month)
        XCTAssertEqual(try store.currentTransactions().count, 1, "a refunded subscription does not renew")
        XCTAssertEqual(try customerInfo(of: store).entitlements.first?.state, .revoked)
    }

    // MARK: Plan changes

    @MainActor
    func testUpgradeMonthlyToYearlyEndsTheMonthlyPeriodNow() async throws {
        let store = try makeStore()
        await expectPurchase(F.monthly, on: store, "purchased")
        try advance(store, 10, .day)
        let upgradedAt = try store.now()  // Feb 10
        await expectPurchase(F.yearly, on: store, "purchased")

        let transactions = try store.currentTransactions()
        XCTAssertEqual(transactions.count, 2)
        let monthly = transactions[0]
        XCTAssertEqual(monthly.productId, "pro.monthly")
        XCTAssertEqual(monthly.expirationDate, upgradedAt)
        XCTAssertFalse(monthly.willRenew)
        XCTAssertEqual(CustomerInfo.state(of: monthly, now: upgradedAt), .expired)
        let yearly = transactions[1]
        XCTAssertEqual(yearly.id, "fake_000002")
        XCTAssertEqual(yearly.originalId, "fake_000002")
        XCTAssertEqual(yearly.productId, "pro.yearly")
        XCTAssertEqual(yearly.purchaseDate, upgradedAt)
        XCTAssertEqual(yearly.expirationDate, F.year.advance(upgradedAt))
        XCTAssertNil(yearly.offerType, "no trial for someone who already subscribed in the group")
        XCTAssertEqual(yearly.price, decimalPrice("39.99"))
        XCTAssertTrue(yearly.willRenew)

        let pro = try XCTUnwrap(try customerInfo(of: store).entitlements.first)
        XCTAssertTrue(pro.isActive)
        XCTAssertEqual(pro.latestProductId, "pro.yearly")
        XCTAssertEqual(pro.productIds, ["pro.monthly", "pro.yearly"])
        XCTAssertEqual(pro.expiresAt, utcDate(2027, 2, 10))

        try advance(store, 1, .month)
        XCTAssertEqual(
            try store.currentTransactions().map(\.productId), ["pro.monthly", "pro.yearly"],
            "the monthly plan no longer renews")
    }

    @MainActor
    func testDowngradeYearlyToMonthlyTakesEffectAtTheNextRenewal() async throws {
        let store = try makeStore()
        await expectPurchase(F.yearly, on: store, "purchased")
        try advance(store, 8, .day)  // the trial converted on Feb 7 to a paid year
        let paidStart = F.week.advance(F.start)
        let yearEnd = F.year.advance(paidStart)  // 2027-02-07
        XCTAssertEqual(try store.currentTransactions().count, 2)

        await expectPurchase(F.monthly, on: store, "purchased")
        var transactions = try store.currentTransactions()
        XCTAssertEqual(transactions.count, 2, "a downgrade makes no transaction until the renewal")
        XCTAssertEqual(transactions[1].productId, "pro.yearly")
        XCTAssertEqual(transactions[1].expirationDate, yearEnd)
        XCTAssertTrue(transactions[1].willRenew)
        var pro = try XCTUnwrap(try customerInfo(of: store).entitlements.first)
        XCTAssertEqual(pro.latestProductId, "pro.yearly")
        XCTAssertEqual(pro.state, .subscribed)

        try advance(store, 1, .year)  // 2027-02-08
        transactions = try store.currentTransactions()
        XCTAssertEqual(transactions.count, 3)
        let monthly = transactions[2]
        XCTAssertEqual(monthly.id, "fake_000003")
        XCTAssertEqual(monthly.originalId, "fake_000001")
        XCTAssertEqual(monthly.productId, "pro.monthly")
        XCTAssertEqual(monthly.purchaseDate, yearEnd)
        XCTAssertEqual(monthly.expirationDate, F.month.advance(yearEnd))
        XCTAssertEqual(monthly.expirationDate, utcDate(2027, 3, 7))
        XCTAssertEqual(monthly.price, decimalPrice("7.99"))
        XCTAssertNil(monthly.offerType)
        XCTAssertTrue(monthly.willRenew)
        pro = try XCTUnwrap(try customerInfo(of: store).entitlements.first)
        XCTAssertEqual(pro.latestProductId, "pro.monthly")
        XCTAssertEqual(pro.productIds, ["pro.yearly", "pro.monthly"])

        try advance(store, 1, .month)  // 2027-03-08: renews monthly again
        transactions = try store.currentTransactions()
        XCTAssertEqual(transactions.count, 4)
        XCTAssertEqual(transactions[3].productId, "pro.monthly")
        XCTAssertEqual(transactions[3].purchaseDate, utcDate(2027, 3, 7))
    }

    @MainActor
    func testBuyingTheCurrentPlanAgainCancelsAPendingDowngrade() async throws {
        let store = try makeStore()
        await expectPurchase(F.yearly, on: store, "purchased")
        try advance(store, 8, .day)  // paid yearly from Feb 7
        await expectPurchase(F.monthly, on: store, "purchased")  // downgrade at the next renewal
        await expectPurchase(F.yearly, on: store, "already owned")  // changed their mind: stay yearly
        XCTAssertEqual(try store.currentTransactions().count, 2)

        try advance(store, 1, .year)
        let renewal = try XCTUnwrap(try store.currentTransactions().last)
        XCTAssertEqual(renewal.id, "fake_000003")
        XCTAssertEqual(renewal.purchaseDate, utcDate(2027, 2, 7))
        // Choosing the current plan again cancels the pending downgrade: the renewal stays yearly.
        XCTAssertEqual(renewal.productId, "pro.yearly")
    }

    @MainActor
    func testUpgradeDuringGracePeriodEndsTheOldPlan() async throws {
        let store = try makeStore(settings: StoreSettings(gracePeriodDays: 16, billingRetryDays: 60))
        await expectPurchase(F.monthly, on: store, "purchased")
        try store.billingIssue("fake_000001")
        try advance(store, 1, .month)  // Feb 28: grace period
        try advance(store, 2, .day)  // Mar 2
        let upgradedAt = try store.now()
        await expectPurchase(F.yearly, on: store, "purchased")

        let transactions = try store.currentTransactions()
        XCTAssertEqual(transactions.map(\.productId), ["pro.monthly", "pro.yearly"])
        XCTAssertEqual(transactions[0].expirationDate, upgradedAt)
        XCTAssertFalse(transactions[0].willRenew)
        XCTAssertEqual(CustomerInfo.state(of: transactions[1], now: upgradedAt), .subscribed)
        // An upgrade ends the old plan's billing problem with it: the replaced plan reads expired.
        XCTAssertEqual(CustomerInfo.state(of: transactions[0], now: upgradedAt), .expired)
    }

    // MARK: Other kinds of product

    @MainActor
    func testNonRenewingExpiresAfterItsPeriodAndNeverRenews() async throws {
        let store = try makeStore()
        await expectPurchase(F.pass, on: store, "purchased")
        let expiry = F.month.advance(F.start)
        XCTAssertEqual(
            try store.currentTransactions(),
            [
                StoreTransaction(
                    id: "fake_000001", productId: "pass.month", kind: .nonRenewing, store: .fakeStore,
                    purchaseDate: F.start, expirationDate: expiry, willRenew: false, entitlementIds: ["pass"],
                    price: decimalPrice("4.99"), currencyCode: "USD")
            ])
        var pass = try XCTUnwrap(try customerInfo(of: store).entitlements.first)
        XCTAssertEqual(pass.id, "pass")
        XCTAssertTrue(pass.isActive)
        XCTAssertFalse(pass.willRenew)
        XCTAssertEqual(pass.expiresAt, expiry)

        try advance(store, 1, .month)
        XCTAssertEqual(try store.currentTransactions().count, 1)
        pass = try XCTUnwrap(try customerInfo(of: store).entitlements.first)
        XCTAssertFalse(pass.isActive)
        XCTAssertEqual(pass.state, .expired)

        try advance(store, 3, .month)
        XCTAssertEqual(try store.currentTransactions().count, 1, "a non-renewing subscription never renews")
    }

    @MainActor
    func testConsumableBoughtTwiceMakesTwoTransactionsAndNoEntitlement() async throws {
        let store = try makeStore()
        await expectPurchase(F.credits, on: store, "purchased")
        await expectPurchase(F.credits, on: store, "purchased")

        let transactions = try store.currentTransactions()
        XCTAssertEqual(transactions.map(\.id), ["fake_000001", "fake_000002"])
        XCTAssertEqual(transactions.map(\.originalId), ["fake_000001", "fake_000002"])
        XCTAssertEqual(transactions.map(\.kind), [.consumable, .consumable])
        XCTAssertEqual(transactions.map(\.price), [decimalPrice("0.99"), decimalPrice("0.99")])
        XCTAssertEqual(transactions.map(\.expirationDate), [nil, nil])
        let info = try customerInfo(of: store)
        XCTAssertEqual(info.entitlements, [])
        XCTAssertEqual(info.subscriptionStatus, .inactive)
        XCTAssertEqual(info.nonSubscriptions.count, 2)
    }

    @MainActor
    func testNonConsumableGrantsLifetimeAccessAndIsNotChargedTwice() async throws {
        let store = try makeStore()
        await expectPurchase(F.lifetime, on: store, "purchased")
        await expectPurchase(F.lifetime, on: store, "already owned")
        XCTAssertEqual(try store.currentTransactions().map(\.id), ["fake_000001"], "no second transaction")

        try advance(store, 10, .year)
        let info = try customerInfo(of: store)
        XCTAssertEqual(
            info.entitlements,
            [
                Entitlement(
                    id: "lifetime", isActive: true, productIds: ["lifetime"], latestProductId: "lifetime", store: .fakeStore,
                    startsAt: F.start, renewedAt: nil, expiresAt: nil, isLifetime: true, willRenew: false,
                    state: .subscribed, offerType: nil)
            ])
        XCTAssertEqual(info.subscriptionStatus, .active(["lifetime"]))
    }

    @MainActor
    func testBuyingAnActiveSubscriptionAgainMakesNoNewTransaction() async throws {
        let store = try makeStore()
        await expectPurchase(F.monthly, on: store, "purchased")
        try advance(store, 5, .day)
        await expectPurchase(F.monthly, on: store, "already owned")
        let transactions = try store.currentTransactions()
        XCTAssertEqual(transactions.map(\.id), ["fake_000001"])
        XCTAssertEqual(transactions[0].expirationDate, F.month.advance(F.start), "the period is unchanged")
    }

    // MARK: Introductory offers

    @MainActor
    func testNoTrialForSecondSubscriptionInAGroupAlreadySubscribedTo() async throws {
        let store = try makeStore()
        await expectPurchase(F.monthly, on: store, "purchased")
        try store.expire("fake_000001")
        XCTAssertEqual(try customerInfo(of: store).subscriptionStatus, .inactive)
        XCTAssertFalse(try store.isEligibleForIntroOffer(F.yearly))
        XCTAssertTrue(try store.isEligibleForIntroOffer(F.teamWeekly), "another group is still eligible")
        XCTAssertFalse(try store.isEligibleForIntroOffer(F.monthly), "no offer to be eligible for")

        try advance(store, 1, .day)
        let now = try store.now()
        await expectPurchase(F.yearly, on: store, "purchased")
        let yearly = try XCTUnwrap(try store.currentTransactions().last)
        XCTAssertEqual(yearly.id, "fake_000002")
        XCTAssertEqual(yearly.productId, "pro.yearly")
        XCTAssertNil(yearly.offerType)
        XCTAssertEqual(yearly.price, decimalPrice("39.99"))
        XCTAssertEqual(yearly.expirationDate, F.year.advance(now))
    }

    @MainActor
    func testPayAsYouGoBillsThreeIntroPeriodsThenTheRegularPrice() async throws {
        let store = try makeStore()
        await expectPurchase(F.teamWeekly, on: store, "purchased")
        let first = try XCTUnwrap(try store.currentTransactions().first)
        XCTAssertEqual(first.price, decimalPrice("0.99"))
        XCTAssertEqual(first.expirationDate, F.week.advance(F.start))

        try advance(store, 4, .week)  // Feb 28: periods started Jan 31, Feb 7, 14, 21 and 28
        let transactions = try store.currentTransactions()
        XCTAssertEqual(transactions.count, 5)
        XCTAssertEqual(transactions.map(\.price), ["0.99", "0.99", "0.99", "2.99", "2.99"].map(decimalPrice))
        XCTAssertEqual(transactions.map(\.purchaseDate), (0..<5).map { F.week.advance(F.start, times: $0) })
        XCTAssertEqual(transactions.map(\.expirationDate), (1...5).map { F.week.advance(F.start, times: $0) })
        XCTAssertEqual(Set(transactions.map(\.originalId)), ["fake_000001"])
        XCTAssertEqual(transactions.map(\.productId), Array(repeating: "team.weekly", count: 5))
    }

    // MARK: Pending purchases meeting the lifecycle

    @MainActor
    func testApprovingAPendingTrialStartsAOneWeekTrialAtApproval() async throws {
        let store = try makeStore()
        try store.setNextOutcome(.pending)
        await expectPurchase(F.yearly, on: store, "pending")
        try advance(store, 2, .day)
        let approvedAt = try store.now()
        try store.approve("fake_000001")

        let t = try XCTUnwrap(try store.currentTransactions().first)
        XCTAssertEqual(t.purchaseDate, approvedAt)
        XCTAssertEqual(t.offerType, .trial)
        XCTAssertEqual(t.price, 0)
        // An approved trial starts at approval and lasts the offer's length (one week).
        XCTAssertEqual(t.expirationDate, F.week.advance(approvedAt))
    }

    @MainActor
    func testApprovingAPendingUpgradeEndsTheCurrentPlan() async throws {
        let store = try makeStore()
        await expectPurchase(F.monthly, on: store, "purchased")
        try advance(store, 5, .day)
        try store.setNextOutcome(.pending)
        await expectPurchase(F.yearly, on: store, "pending")
        let approvedAt = try store.now()
        try store.approve("fake_000002")

        let transactions = try store.currentTransactions()
        XCTAssertEqual(transactions.map(\.productId), ["pro.monthly", "pro.yearly"])
        XCTAssertEqual(transactions[1].expirationDate, F.year.advance(approvedAt))
        // An approved upgrade ends the current plan at approval, as a direct upgrade does.
        XCTAssertEqual(transactions[0].expirationDate, approvedAt)
        XCTAssertFalse(transactions[0].willRenew)
    }
}
