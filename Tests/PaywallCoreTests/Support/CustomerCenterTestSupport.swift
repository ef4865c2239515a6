import Foundation
import XCTest

@testable import PaywallCore

// MARK: - Strings, clock, catalog

/// The English string table from the repository's `locales` folder.
func ccStrings(_ locale: String = "en") throws -> StringTable {
    try StringTable(directory: TestPaths.locales, locale: locale)
}

enum CCFixture {
    /// The fixed "now" of the rules tests: 2026-03-01T12:00:00Z.
    static let now = utcDate(2026, 3, 1)
    static let day: TimeInterval = 24 * 60 * 60
    static let month = SubscriptionPeriod(value: 1, unit: .month)
    static let year = SubscriptionPeriod(value: 1, unit: .year)

    static let monthly = Product(
        id: "pro.monthly", displayName: "Pro Monthly", price: decimalPrice("7.99"), currencyCode: "USD",
        kind: .autoRenewable, period: month, subscriptionGroup: "pro", groupRank: 2, entitlements: ["pro"])
    static let yearly = Product(
        id: "pro.yearly", displayName: "Pro Yearly", price: decimalPrice("39.99"), currencyCode: "USD",
        kind: .autoRenewable, period: year, subscriptionGroup: "pro", groupRank: 1, entitlements: ["pro"])
    static let free = Product(
        id: "free.monthly", displayName: "Free Monthly", price: 0, currencyCode: "USD",
        kind: .autoRenewable, period: month, subscriptionGroup: "free", groupRank: 1, entitlements: ["basic"])
    static let lifetime = Product(
        id: "lifetime", displayName: "Lifetime", price: decimalPrice("99.99"), currencyCode: "USD",
        kind: .nonConsumable, entitlements: ["lifetime"])

    static let catalog = Catalog(products: [monthly, yearly, free, lifetime], groupNames: ["pro": "Pro"])

    /// A subscription period bought `daysAgo` days before `now`, lasting `length` days.
    static func sub(
        _ id: String, original: String? = nil, product: String = "pro.monthly", store: StoreKind = .appStore,
        daysAgo: Double = 3, length: Double = 30, willRenew: Bool = true, revoked: Bool = false,
        offer: OfferType? = nil, family: Bool = false, price: Decimal = decimalPrice("7.99"),
        entitlements: [String] = ["pro"], group: String? = "pro", kind: Product.Kind = .autoRenewable
    ) -> StoreTransaction {
        let bought = now.addingTimeInterval(-daysAgo * day)
        return StoreTransaction(
            id: id, originalId: original, productId: product, kind: kind, store: store, purchaseDate: bought,
            expirationDate: bought.addingTimeInterval(length * day), willRenew: willRenew,
            revocationDate: revoked ? now.addingTimeInterval(-day) : nil, offerType: offer,
            subscriptionGroupId: group, entitlementIds: entitlements, isFamilyShared: family, price: price)
    }

    /// A one-time purchase bought `daysAgo` days before `now`.
    static func oneTime(
        _ id: String, product: String = "lifetime", store: StoreKind = .appStore, daysAgo: Double = 10,
        entitlements: [String] = ["lifetime"]
    ) -> StoreTransaction {
        StoreTransaction(
            id: id, productId: product, kind: .nonConsumable, store: store,
            purchaseDate: now.addingTimeInterval(-daysAgo * day), entitlementIds: entitlements,
            price: decimalPrice("99.99"))
    }

    /// The customer-center rows of `transactions` at `now` (status from the transactions unless given).
    static func rows(
        _ transactions: [StoreTransaction], status: SubscriptionStatus? = nil,
        catalog: Catalog? = catalog, at moment: Date = now
    ) -> [CustomerCenterPurchase] {
        let info = CustomerInfo(transactions: transactions, now: moment)
        return CustomerCenterPurchase.rows(info: info, status: status ?? info.subscriptionStatus, catalog: catalog, now: moment)
    }

    /// The one row of `transactions` (fails the test when there is not exactly one).
    static func row(
        _ transactions: [StoreTransaction], catalog: Catalog? = catalog, at moment: Date = now,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> CustomerCenterPurchase {
        let all = rows(transactions, catalog: catalog, at: moment)
        XCTAssertEqual(all.count, 1, "expected one row, got \(all.map(\.key))", file: file, line: line)
        return try XCTUnwrap(all.first, file: file, line: line)
    }

    /// A controller acting on the App Store with every capability.
    static let appStoreController = StoreCapabilities(
        stores: [.appStore], canManageSubscriptions: true, canRequestRefunds: true, canChangePlans: true)

    static func device() -> DeviceInfo {
        DeviceInfo(osName: "Ubuntu", osVersion: "24.04", deviceModel: "Test PC", interfaceStyle: "light", appVersion: "1.2.3")
    }

    /// A screen over `rows` for model checks.
    static func screen(
        _ rows: [CustomerCenterPurchase], configuration: CustomerCenterConfiguration = .default,
        capabilities: StoreCapabilities = appStoreController, appVersion: String = "1.0.0", latestVersion: String? = nil,
        presentation: PresentationStyle = .sheet
    ) throws -> CustomerCenterScreen {
        CustomerCenterScreen(
            configuration: configuration, rows: rows, capabilities: capabilities, catalog: catalog, strings: try ccStrings(),
            locale: Locale(identifier: "en_US"), now: now, presentation: presentation, isDark: false, userId: "user-1",
            installedAt: nil, appVersion: appVersion, latestVersion: latestVersion)
    }
}

// MARK: - Reading screen models

extension JSONValue {
    /// Every row of every section of a screen model.
    var ccRows: [JSONValue] {
        (self["sections"]?.arrayValue ?? []).flatMap { $0["rows"]?.arrayValue ?? [] }
    }

    /// The `path_id`s of the `kind: path` rows of a screen model, in order.
    var ccPathIds: [String] {
        ccRows.filter { $0["kind"] == "path" }.compactMap { $0["path_id"]?.stringValue }
    }

    /// The `kind`s of a screen model's banners.
    var ccBannerKinds: [String] {
        (self["banners"]?.arrayValue ?? []).compactMap { $0["kind"]?.stringValue }
    }
}

// MARK: - Fakes

/// A delegate that records every call; it can refuse restores.
@MainActor
final class RecordingCustomerCenterDelegate: CustomerCenterDelegate {
    var selected: [(action: CustomerCenterAction, transactionId: String?)] = []
    var surveys: [(surveyId: String, optionId: String, action: CustomerCenterAction)] = []
    var refunds: [(productId: String, status: RefundRequestStatus)] = []
    var dismissCount = 0
    var restoreQuestions = 0
    /// What `shouldRestorePurchases` answers.
    var allowsRestore = true

    func customerCenter(shouldRestorePurchases resume: @escaping @MainActor (Bool) -> Void) {
        restoreQuestions += 1
        resume(allowsRestore)
    }
    func customerCenter(didSelect action: CustomerCenterAction, for purchase: StoreTransaction?) {
        selected.append((action, purchase?.id))
    }
    func customerCenter(didCompleteSurvey surveyId: String, optionId: String, for action: CustomerCenterAction) {
        surveys.append((surveyId, optionId, action))
    }
    func customerCenter(didCompleteRefundRequestFor productId: String, status: RefundRequestStatus) {
        refunds.append((productId, status))
    }
    func customerCenterDidDismiss() { dismissCount += 1 }
}

/// A purchase controller with configurable capabilities that records what it is asked.
@MainActor
final class CCController: PurchaseController, SubscriptionManaging {
    var stores: Set<StoreKind> = []
    var sandbox = false
    var manages = false
    var refunds = false
    var cancelled: [String] = []
    var refundRequests: [String] = []
    var refundStatus: RefundRequestStatus = .success

    func purchase(_ product: Product) async -> PurchaseResult { .cancelled }
    func restorePurchases() async -> RestorationResult { .restored }
    var canManageSubscriptions: Bool { manages }
    var canRequestRefunds: Bool { refunds }
    var managedStores: Set<StoreKind> { stores }
    var isSandbox: Bool { sandbox }
    func cancelSubscription(transactionId: String) async -> Bool {
        cancelled.append(transactionId)
        return true
    }
    func requestRefund(transactionId: String) async -> RefundRequestStatus {
        refundRequests.append(transactionId)
        return refundStatus
    }
}

// MARK: - A session over a real store

/// A customer-center session with a recording page, either over a real `FakeStore` (whose clock
/// stands at `FakeStoreFixture.start`) or over an app controller whose transactions are cached.
@MainActor
final class CCSessionRig {
    let dir: URL
    let dispatcher = EventDispatcher()
    let page = RecordingPageSurface()
    let purchases: Purchases
    let store: FakeStore?
    let session: CustomerCenterSession
    var events: [PaywallEvent] = []

    /// Over a fake store.
    init(dir: URL, configuration: CustomerCenterConfiguration = .default, updateCheck: UpdateCheck? = nil) throws {
        self.dir = dir
        let store = try makeFakeStore(in: dir)
        self.store = store
        purchases = try Purchases(
            controller: store, catalog: store.catalog,
            cache: EntitlementCache(path: dir.appendingPathComponent("cc-cache.sqlite").path),
            transactionSource: store, events: dispatcher)
        session = try Self.makeSession(configuration, purchases: purchases, dispatcher: dispatcher)
        session.updateCheck = updateCheck
        session.page = page
        dispatcher.observe { [unowned self] in self.events.append($0) }
    }

    /// Over `controller`, with `transactions` cached as the store's last word (real time: `Date()`).
    init(
        dir: URL, controller: PurchaseController, transactions: [StoreTransaction],
        configuration: CustomerCenterConfiguration = .default, updateCheck: UpdateCheck? = nil
    ) throws {
        self.dir = dir
        store = nil
        let cache = try EntitlementCache(path: dir.appendingPathComponent("cc-cache.sqlite").path)
        try cache.storeSynced(user: Purchases.anonymousUser, transactions: transactions, now: Date())
        purchases = try Purchases(
            controller: controller, catalog: CCFixture.catalog, cache: cache,
            transactionSource: nil, events: dispatcher)
        session = try Self.makeSession(configuration, purchases: purchases, dispatcher: dispatcher)
        session.updateCheck = updateCheck
        session.page = page
        dispatcher.observe { [unowned self] in self.events.append($0) }
    }

    private static func makeSession(
        _ configuration: CustomerCenterConfiguration, purchases: Purchases,
        dispatcher: EventDispatcher
    ) throws -> CustomerCenterSession {
        CustomerCenterSession(
            configuration: configuration, presentation: .sheet, purchases: purchases, strings: try ccStrings(),
            locale: Locale(identifier: "en_US"), events: dispatcher,
            environment: .init(appVersion: "1.0.0", userId: "app-user", device: CCFixture.device()))
    }

    var names: [EventName] { events.map(\.name) }

    func events(named name: EventName) -> [PaywallEvent] { events.filter { $0.name == name } }

    /// Starts the session and answers its first ping, as a loaded page does.
    func open() {
        session.start()
        send(#"{"event_name": "ping"}"#)
    }

    func send(_ event: String) { session.channel.receive(envelope([event])) }

    /// Buys `product` in the fake store and reads the store again.
    func buy(_ product: Product) async throws {
        let store = try XCTUnwrap(store)
        guard case .purchased = await store.purchase(product) else { return XCTFail("could not buy \(product.id)") }
        try purchases.refresh()
    }

    /// Waits until the action running on the controller has finished (at most about 5 s).
    func waitUntilIdle(file: StaticString = #filePath, line: UInt = #line) async throws {
        for _ in 0..<1000 {
            await Task.yield()
            if !session.isBusy { break }
            try await Task.sleep(nanoseconds: 5_000_000)
        }
        XCTAssertFalse(session.isBusy, "the action never finished", file: file, line: line)
        for _ in 0..<10 { await Task.yield() }
    }

    /// The fake store's latest transaction of `productId`.
    func latestStoreTransaction(_ productId: String) throws -> StoreTransaction? {
        try XCTUnwrap(store).currentTransactions().last { $0.productId == productId }
    }
}
