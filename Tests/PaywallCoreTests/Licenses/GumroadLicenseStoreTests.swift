import Foundation
import XCTest

@testable import PaywallCore

/// The license-key store selling through Gumroad (`"store": "gumroad"`, each product's
/// `gumroad: {product_id, max_uses}`), with `GumroadLicenseAPI` against the local stand-in of
/// Gumroad's license API and an injected clock.
@MainActor
final class GumroadLicenseStoreTests: XCTestCase {
    private var directory: URL!
    private var server: GumroadTestServer!
    private var clock: TestClock!
    private static let key = "85DB562A-C11D4B06-A2335A6B-8C079166"

    override func setUp() async throws {
        directory = try makeTemporaryDirectory("GumroadStore")
        server = try GumroadTestServer(directory: directory.appendingPathComponent("server"))
        server.licenses[Self.key] = GumroadTestServer.license()
        clock = TestClock()
    }

    override func tearDown() async throws {
        XCTAssertEqual(server?.violations ?? [], [], "requests broke Gumroad's documented form")
        server?.stop()
        removeTemporaryDirectory(directory)
    }

    /// A catalog selling `basic.lifetime` (P-BASIC) and `pro.lifetime` (P-PRO, two uses) through Gumroad.
    private func store() throws -> LicenseKeyStore {
        let text = """
            {"store": "gumroad", "gumroad": {"api_base_url": "\(server.baseURL.absoluteString)"}, "offline_grace_days": 14,
             "products": [
               {"id": "basic.lifetime", "display_name": "Lumen Basic", "price": "19.00", "currency": "USD",
                "kind": "non_consumable", "entitlements": ["basic"], "checkout_url": "https://lumen.gumroad.com/l/basic",
                "gumroad": {"product_id": "P-BASIC"}},
               {"id": "pro.lifetime", "display_name": "Lumen Pro", "price": "49.00", "currency": "USD",
                "kind": "non_consumable", "entitlements": ["pro"], "checkout_url": "https://lumen.gumroad.com/l/pro",
                "gumroad": {"product_id": "P-PRO", "max_uses": 2}}
             ]}
            """
        let catalog = try CatalogFile.parse(Data(text.utf8))
        let settings = try XCTUnwrap(catalog.licensing)
        let clock = self.clock!
        let provider = try GumroadLicenseAPI(
            productIds: catalog.products.compactMap { $0.merchant?.store == .gumroad ? $0.merchant?.productId : nil },
            baseURL: settings.gumroadAPIBaseURL, sleep: { _ in }, now: { clock.now })
        return try LicenseKeyStore(
            catalog: catalog, settings: settings, databasePath: directory.appendingPathComponent("licenses.sqlite").path,
            providers: [provider], events: EventDispatcher(),
            services: LicenseServices(now: { clock.now }, instanceName: { "Ada's ThinkPad" }, refreshesPeriodically: false))
    }

    private var counted: [String] { server.asked.filter { $0.hasSuffix("true") } }

    func testAKeyActivatesAsAGumroadTransactionWithTheProductsEntitlements() async throws {
        let store = try store()
        let status = try await store.redeem(key: Self.key)
        XCTAssertEqual(status.state, .subscribed)
        XCTAssertEqual(status.store, .gumroad)
        XCTAssertEqual(status.productId, "pro.lifetime")
        XCTAssertEqual(status.activationUsage, 1)
        XCTAssertEqual(status.activationLimit, 2, "the catalog's max_uses")
        XCTAssertEqual(status.instanceName, "Ada's ThinkPad")
        XCTAssertEqual(status.maskedKey, "****9166")
        XCTAssertEqual(status.deactivationUnsupported, LicenseSettings.Provider.gumroad.deactivationUnsupported)
        XCTAssertEqual(counted, ["P-PRO true"], "one use, counted on the product that knows the key")
        let transaction = try XCTUnwrap(try store.currentTransactions().first)
        XCTAssertEqual(transaction.store, .gumroad)
        XCTAssertEqual(transaction.entitlementIds, ["pro"])
        XCTAssertEqual(transaction.productId, "pro.lifetime")
        XCTAssertFalse(transaction.id.contains(Self.key), transaction.id)

        let before = server.requests.count
        let errors = await store.refresh()
        XCTAssertEqual(errors, [])
        XCTAssertEqual(Array(server.asked.dropFirst(before)), ["P-PRO false"], "a kept license validates with one request")
        XCTAssertEqual(try store.licenses().first?.activationLimit, 2, "max_uses stays the limit after a validation")
        XCTAssertEqual(try store.licenses().first?.state, .subscribed)
    }

    func testRedeemingAKeptKeyAgainValidatesItWithoutCountingAUse() async throws {
        let store = try store()
        try await store.redeem(key: Self.key)
        let before = server.requests.count
        let again = try await store.redeem(key: Self.key)
        XCTAssertEqual(Array(server.asked.dropFirst(before)), ["P-PRO false"])
        XCTAssertEqual(again.activationUsage, 1)
        XCTAssertEqual(counted, ["P-PRO true"])
    }

    /// A catalog selling through Gumroad and Lemon Squeezy: a key Gumroad's products do not know
    /// moves on to Lemon Squeezy; one Gumroad refuses (disabled) stops there.
    func testAKeyUnknownToGumroadMovesOnToTheNextMerchant() async throws {
        let lemon = try LemonSqueezyTestServer(directory: directory.appendingPathComponent("lemon"))
        defer {
            XCTAssertEqual(lemon.violations, [])
            lemon.stop()
        }
        lemon.keys["LEMON-KEY-0000-4d51"] = LemonSqueezyTestServer.key(id: 1)
        let text = """
            {"store": "gumroad", "gumroad": {"api_base_url": "\(server.baseURL.absoluteString)"},
             "license_api_base_url": "\(lemon.baseURL.absoluteString)",
             "products": [
               {"id": "basic.lifetime", "display_name": "Lumen Basic", "price": "19.00", "currency": "USD",
                "kind": "non_consumable", "entitlements": ["basic"], "checkout_url": "https://lumen.gumroad.com/l/basic",
                "gumroad": {"product_id": "P-BASIC"}},
               {"id": "pro.lifetime", "display_name": "Lumen Pro", "price": "49.00", "currency": "USD", "store": "lemon_squeezy",
                "kind": "non_consumable", "entitlements": ["pro"], "checkout_url": "https://lumen.lemonsqueezy.com/buy/abc",
                "lemon_squeezy": {"product_id": 10, "variant_id": 11}}
             ]}
            """
        let catalog = try CatalogFile.parse(Data(text.utf8))
        let settings = try XCTUnwrap(catalog.licensing)
        XCTAssertEqual(settings.merchants, [.gumroad, .lemonSqueezy])
        let store = try LicenseKeyStore(
            catalog: catalog, settings: settings, databasePath: directory.appendingPathComponent("both.sqlite").path,
            providers: [
                try GumroadLicenseAPI(productIds: ["P-BASIC"], baseURL: settings.gumroadAPIBaseURL, sleep: { _ in }),
                try LemonSqueezyLicenseAPI(baseURL: settings.apiBaseURL, sleep: { _ in }),
            ],
            events: EventDispatcher(), services: LicenseServices(instanceName: { "box" }, refreshesPeriodically: false))
        let status = try await store.redeem(key: "LEMON-KEY-0000-4d51")
        XCTAssertEqual(status.store, .lemonSqueezy)
        XCTAssertEqual(status.productId, "pro.lifetime")
        XCTAssertEqual(server.asked, ["P-BASIC false"])

        server.licenses[Self.key] = GumroadTestServer.license(productId: "P-BASIC", revision: 1, ["disabled": true])
        let lemonRequests = lemon.requests.count
        do {
            try await store.redeem(key: Self.key)
            XCTFail("a disabled key activated")
        } catch {
            XCTAssertEqual(error.kind, .rejected)
        }
        XCTAssertEqual(lemon.requests.count, lemonRequests, "Gumroad's refusal is its answer: no other merchant is asked")
    }

    func testAnUnknownKeyIsNotFoundAndCountsNothing() async throws {
        let store = try store()
        do {
            try await store.redeem(key: "NO-SUCH-KEY-00000000")
            XCTFail("an unknown key activated")
        } catch {
            XCTAssertEqual(error.kind, .notFound)
        }
        XCTAssertEqual(server.asked, ["P-BASIC false", "P-PRO false"])
    }

    func testAKeyAtMaxUsesIsRefusedBeforeAUseIsCounted() async throws {
        server.licenses[Self.key] = GumroadTestServer.license(uses: 2)
        let store = try store()
        do {
            try await store.redeem(key: Self.key)
            XCTFail("a key at its max_uses activated")
        } catch {
            XCTAssertEqual(error.kind, .rejected)
            XCTAssertTrue(error.message.contains("its limit of 2"), error.message)
        }
        XCTAssertEqual(counted, [])
    }

    func testAnExpiredSubscriptionIsRefusedAndOneThatEndsLaterExpires() async throws {
        server.licenses[Self.key] = GumroadTestServer.license([
            "subscription": true, "subscription_ended_at": "2020-01-01T00:00:00.000Z",
        ])
        let first = try store()
        do {
            try await first.redeem(key: Self.key)
            XCTFail("an ended subscription's key activated")
        } catch {
            XCTAssertEqual(error.kind, .rejected)
            XCTAssertTrue(error.message.contains("has expired"), error.message)
        }
        XCTAssertEqual(counted, [])

        let store = try store()
        server.licenses[Self.key] = GumroadTestServer.license(revision: 1, ["subscription": true])
        try await store.redeem(key: Self.key)
        let ends = clock.now.addingTimeInterval(3 * 86_400)
        server.licenses[Self.key] = GumroadTestServer.license(
            revision: 2, ["subscription": true, "subscription_cancelled_at": .string(ends.formatted(.iso8601))])
        await store.refresh()
        XCTAssertEqual(try store.licenses().first?.state, .subscribed, "cancelled: paid until its end")
        clock.advance(days: 4)
        let status = try XCTUnwrap(try store.licenses().first)
        XCTAssertEqual(status.state, .expired)
        XCTAssertEqual(status.reason, .expired)
    }

    func testARefundOrADisabledKeyRevokesTheLicense() async throws {
        let store = try store()
        try await store.redeem(key: Self.key)
        server.licenses[Self.key] = GumroadTestServer.license(uses: 1, revision: 1, ["refunded": true])
        await store.refresh()
        XCTAssertEqual(try store.licenses().first?.state, .revoked)
        XCTAssertEqual(try store.licenses().first?.reason, .disabled)
        XCTAssertNotNil(try store.currentTransactions().first?.revocationDate)

        server.licenses[Self.key] = GumroadTestServer.license(uses: 1, revision: 2)
        await store.refresh()
        XCTAssertEqual(try store.licenses().first?.state, .subscribed)
        server.licenses[Self.key] = GumroadTestServer.license(uses: 1, revision: 3, ["disabled": true])
        let errors = await store.refresh()
        XCTAssertEqual(errors, [], "Gumroad's 404 for a disabled key is an answer, not a failure")
        XCTAssertEqual(try store.licenses().first?.state, .revoked)
        XCTAssertEqual(try store.licenses().count, 1, "the same license, not a second row")
        let kept = try XCTUnwrap(store.licenses().first)
        XCTAssertEqual(kept.activationUsage, 1, "a refusal that counts no uses keeps the count")
        XCTAssertNotNil(kept.activationLimit, "and the catalog's max_uses")
    }

    func testNetworkDownKeepsTheLicenseUntilTheGracePeriodEnds() async throws {
        let store = try store()
        try await store.redeem(key: Self.key)
        server.stop()
        let errors = await store.refresh()
        XCTAssertEqual(errors.map(\.kind), [.network])
        XCTAssertEqual(try store.licenses().first?.state, .subscribed, "cached, within offline_grace_days")
        clock.advance(days: 13)
        XCTAssertEqual(try store.licenses().first?.state, .subscribed)
        clock.advance(days: 2)
        let status = try XCTUnwrap(try store.licenses().first)
        XCTAssertEqual(status.state, .expired)
        XCTAssertEqual(status.reason, .notValidated)
        XCTAssertEqual(try store.currentTransactions().first.map { $0.expirationDate! <= clock.now }, true)
    }

    func testDeactivatingIsRefusedWithTheReasonAndKeepsTheLicense() async throws {
        let store = try store()
        try await store.redeem(key: Self.key)
        do {
            try await store.deactivate(productId: "pro.lifetime")
            XCTFail("deactivated")
        } catch {
            XCTAssertEqual(error.kind, .unsupported)
            XCTAssertTrue(error.message.contains("no way for an app to give a use back"), error.message)
        }
        XCTAssertEqual(try store.licenses().count, 1)
        XCTAssertEqual(try store.licenses().first?.state, .subscribed)
        XCTAssertEqual(counted, ["P-PRO true"], "nothing more was asked of Gumroad")
    }
}
