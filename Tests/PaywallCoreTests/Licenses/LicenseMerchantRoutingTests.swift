import Foundation
import XCTest

@testable import PaywallCore

/// One catalog selling through several merchants: which provider a key goes to, which one
/// answers for a kept license afterwards, and the merchant rules the store keeps itself
/// (Gumroad's `max_uses`, no deactivation where a merchant has none). The providers here are
/// scripted in memory; each merchant's own API is tested against its stand-in elsewhere.
@MainActor
final class LicenseMerchantRoutingTests: XCTestCase {
    private var directory: URL!
    private var clock: TestClock!

    override func setUp() async throws {
        directory = try makeTemporaryDirectory("LicenseMerchantRouting")
        clock = TestClock()
    }

    override func tearDown() async throws { removeTemporaryDirectory(directory) }

    /// Answers for the keys it knows, `notFound` for the rest, or `failure` for every call;
    /// records each call as `ACTION KEY`.
    final class ScriptedProvider: LicenseProvider, @unchecked Sendable {
        let store: LicenseSettings.Provider
        var name: String { store.displayName }
        var keys: [String: (productId: String, usage: Int)] = [:]
        var failure: LicenseError?
        private(set) var calls: [String] = []

        init(_ store: LicenseSettings.Provider) { self.store = store }

        private func answer(_ action: String, _ key: String, instance: Bool) throws(LicenseError) -> LicenseResponse {
            calls.append("\(action) \(key)")
            if let failure { throw failure }
            guard let known = keys[key] else { throw LicenseError(.notFound, "\(name) does not know the key") }
            return LicenseResponse(
                succeeded: true,
                licenseKey: LicenseKeyDetails(
                    id: "\(store.rawValue)-\(key)", status: .active, key: key, activationLimit: nil,
                    activationUsage: known.usage + (action == "activate" ? 1 : 0), createdAt: nil, expiresAt: nil),
                instance: instance ? LicenseInstance(id: "instance-\(key)", name: "Ada's ThinkPad", createdAt: nil) : nil,
                meta: LicenseMeta(storeId: store == .polar ? "org-1" : nil, productId: known.productId))
        }

        func activate(key: String, instanceName: String) async throws(LicenseError) -> LicenseResponse {
            try answer("activate", key, instance: true)
        }
        func validate(key: String, instanceId: String?) async throws(LicenseError) -> LicenseResponse {
            try answer("validate", key, instance: instanceId != nil)
        }
        func deactivate(key: String, instanceId: String) async throws(LicenseError) -> LicenseResponse {
            try answer("deactivate", key, instance: true)
        }
    }

    /// A catalog whose default store is Polar, with an older Lemon Squeezy product beside it
    /// (a seller who moved) and a Gumroad product allowing two uses.
    private func catalog() throws -> Catalog {
        let product = { (id: String, ids: String) in
            #"{"id": "\#(id)", "display_name": "Lumen \#(id)", "price": "49.00", "currency": "USD", "kind": "non_consumable", "entitlements": ["\#(id)"], "checkout_url": "https://shop.example/\#(id)", \#(ids)}"#
        }
        let path = directory.appendingPathComponent("catalog.json").path
        try """
        {"store": "polar", "polar": {"organization_id": "org-1"}, "products": [
          \(product("new", #""polar": {"benefit_id": "benefit-1"}"#)),
          \(product("old", #""store": "lemon_squeezy", "lemon_squeezy": {"product_id": 10}"#)),
          \(product("gum", #""store": "gumroad", "gumroad": {"product_id": "g-1", "max_uses": 2}"#))]}
        """.write(toFile: path, atomically: true, encoding: .utf8)
        return try CatalogLoader.load(path: path)
    }

    private func store(_ providers: [ScriptedProvider], catalog: Catalog? = nil) throws -> LicenseKeyStore {
        let catalog = try catalog ?? self.catalog()
        let clock = self.clock!
        return try LicenseKeyStore(
            catalog: catalog, settings: try XCTUnwrap(catalog.licensing),
            databasePath: directory.appendingPathComponent("licenses.sqlite").path, providers: providers,
            events: EventDispatcher(),
            services: LicenseServices(now: { clock.now }, instanceName: { "Ada's ThinkPad" }, refreshesPeriodically: false))
    }

    func testTheCatalogListsItsMerchantsInOrder() throws {
        XCTAssertEqual(try catalog().licensing?.merchants, [.polar, .lemonSqueezy, .gumroad])
    }

    /// The runtime's own wiring: each merchant's real provider at the catalog's URL, signed
    /// licenses first when the catalog has a public key.
    func testTheStoreBuildsEachMerchantsProviderInCatalogOrder() throws {
        let product = { (id: String, ids: String) in
            #"{"id": "\#(id)", "display_name": "Lumen", "price": "49.00", "currency": "USD", "kind": "non_consumable", "checkout_url": "https://shop.example/\#(id)", \#(ids)}"#
        }
        let path = directory.appendingPathComponent("all.json").path
        try """
        {"store": "polar", "polar": {"organization_id": "org-1", "api_base_url": "http://127.0.0.1:9"},
         "keygen": {"account": "acme", "api_base_url": "https://keygen.example"}, "gumroad": {"api_base_url": "http://127.0.0.1:8"},
         "license_public_key": "\(String(repeating: "ab", count: 32))", "products": [
          \(product("new", #""polar": {"benefit_id": "b-1"}"#)),
          \(product("old", #""store": "lemon_squeezy", "lemon_squeezy": {"product_id": 10}"#)),
          \(product("gum", #""store": "gumroad", "gumroad": {"product_id": "g-1"}"#)),
          \(product("kg", #""store": "keygen", "keygen": {"product": "p-1"}"#))]}
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let catalog = try CatalogLoader.load(path: path)
        let store = try LicenseKeyStore.make(
            catalog: catalog, settings: try XCTUnwrap(catalog.licensing),
            databasePath: directory.appendingPathComponent("all.sqlite").path, events: EventDispatcher(),
            services: LicenseServices(refreshesPeriodically: false))
        XCTAssertEqual(store.providers.map(\.store), [.signedLicense, .polar, .lemonSqueezy, .gumroad, .keygen])
        XCTAssertEqual((store.providers[1] as? PolarLicenseAPI)?.baseURL.absoluteString, "http://127.0.0.1:9")
        XCTAssertEqual((store.providers[3] as? GumroadLicenseAPI)?.baseURL.absoluteString, "http://127.0.0.1:8")
        XCTAssertEqual((store.providers[4] as? KeygenLicenseAPI)?.baseURL.absoluteString, "https://keygen.example")
    }

    func testAKeyUnknownToTheFirstMerchantIsActivatedAtTheNextWhichThenAnswersForIt() async throws {
        let (polar, lemon, gumroad) = (ScriptedProvider(.polar), ScriptedProvider(.lemonSqueezy), ScriptedProvider(.gumroad))
        lemon.keys["OLD-KEY-0001"] = ("10", 0)
        let store = try store([polar, lemon, gumroad])
        let status = try await store.redeem(key: "OLD-KEY-0001")
        XCTAssertEqual(status.productId, "old")
        XCTAssertEqual(status.store, .lemonSqueezy)
        XCTAssertEqual(polar.calls, ["validate OLD-KEY-0001"])
        XCTAssertEqual(lemon.calls, ["validate OLD-KEY-0001", "activate OLD-KEY-0001"])
        XCTAssertEqual(gumroad.calls, [], "a merchant after the one that knew the key is not asked")
        let transaction = try XCTUnwrap(store.currentTransactions().first)
        XCTAssertEqual(transaction.store, .lemonSqueezy)
        XCTAssertEqual(transaction.id, "lemon_squeezy_lemon_squeezy-OLD-KEY-0001")
        XCTAssertEqual(transaction.entitlementIds, ["old"])

        // Validation goes to the license's own merchant only.
        let errors = await store.refresh()
        XCTAssertEqual(errors, [])
        XCTAssertEqual(polar.calls.count, 1)
        XCTAssertEqual(lemon.calls.last, "validate OLD-KEY-0001")
    }

    func testAPolarKeyIsPolarsAndCarriesItsStore() async throws {
        let polar = ScriptedProvider(.polar)
        polar.keys["POLAR-KEY-0002"] = ("benefit-1", 0)
        let store = try store([polar, ScriptedProvider(.lemonSqueezy), ScriptedProvider(.gumroad)])
        try await store.redeem(key: "POLAR-KEY-0002")
        let transaction = try XCTUnwrap(store.currentTransactions().first)
        XCTAssertEqual(transaction.store, .polar)
        XCTAssertEqual(transaction.entitlementIds, ["new"])
        XCTAssertEqual(store.managedStores, [.polar, .lemonSqueezy, .gumroad])
    }

    func testAnyAnswerButNotFoundStopsTheSearch() async throws {
        let (polar, lemon) = (ScriptedProvider(.polar), ScriptedProvider(.lemonSqueezy))
        polar.failure = LicenseError(.network, "Polar is unreachable")
        lemon.keys["OLD-KEY-0001"] = ("10", 0)
        let store = try store([polar, lemon])
        do {
            try await store.redeem(key: "OLD-KEY-0001")
            XCTFail("a network failure at the first merchant moved on")
        } catch {
            XCTAssertEqual(error.kind, .network)
        }
        XCTAssertEqual(lemon.calls, [], "the next merchant is asked only after a \"not found\"")
        XCTAssertEqual(try store.licenses(), [])
    }

    func testAKeyNoMerchantKnowsNamesThemAll() async throws {
        let store = try store([ScriptedProvider(.polar), ScriptedProvider(.lemonSqueezy)])
        do {
            try await store.redeem(key: "NOBODY-KNOWS-ME")
            XCTFail("an unknown key activated")
        } catch {
            XCTAssertEqual(error.kind, .notFound)
            XCTAssertTrue(error.message.contains("not known to Polar or Lemon Squeezy"), error.message)
            XCTAssertFalse(error.message.contains("NOBODY-KNOWS-ME"), "the key is masked")
        }
    }

    func testGumroadsMaxUsesIsKeptHere() async throws {
        let gumroad = ScriptedProvider(.gumroad)
        gumroad.keys["GUM-FULL"] = ("g-1", 2)
        gumroad.keys["GUM-ROOM"] = ("g-1", 1)
        let store = try store([ScriptedProvider(.polar), gumroad])
        do {
            try await store.redeem(key: "GUM-FULL")
            XCTFail("a key used up to max_uses activated")
        } catch {
            XCTAssertEqual(error.kind, .rejected)
            XCTAssertEqual(LicenseKeyForm.problemKey(error), "limit", "the panel says the limit is reached")
        }
        XCTAssertFalse(gumroad.calls.contains("activate GUM-FULL"), "no use is counted for a refused key")
        let status = try await store.redeem(key: "GUM-ROOM")
        XCTAssertEqual(status.activationLimit, 2)
        XCTAssertEqual(status.activationUsage, 2)
        XCTAssertEqual(status.store, .gumroad)
        _ = await store.refresh()
        XCTAssertEqual(try store.licenses().first?.activationLimit, 2, "a validation keeps the catalog's limit")
    }

    func testAGumroadLicenseIsNotDeactivatedAndSaysWhy() async throws {
        let (polar, gumroad) = (ScriptedProvider(.polar), ScriptedProvider(.gumroad))
        polar.keys["POLAR-KEY-0002"] = ("benefit-1", 0)
        gumroad.keys["GUM-ROOM"] = ("g-1", 0)
        let store = try store([polar, gumroad])
        try await store.redeem(key: "POLAR-KEY-0002")
        try await store.redeem(key: "GUM-ROOM")
        let gum = try XCTUnwrap(store.licenses().first { $0.productId == "gum" })
        XCTAssertNotNil(gum.deactivationUnsupported)
        XCTAssertNil(try store.licenses().first { $0.productId == "new" }?.deactivationUnsupported)
        do {
            try await store.deactivate(productId: "gum")
            XCTFail("a Gumroad license was deactivated")
        } catch {
            XCTAssertEqual(error.kind, .unsupported)
            XCTAssertTrue(error.message.contains("Gumroad"), error.message)
        }
        // "This device" as a whole gives back what it can and keeps the Gumroad license.
        try await store.deactivate()
        XCTAssertEqual(try store.licenses().map(\.productId), ["gum"])
        XCTAssertFalse(gumroad.calls.contains { $0.hasPrefix("deactivate") })
        XCTAssertEqual(polar.calls.last, "deactivate POLAR-KEY-0002")
    }

    func testALicenseFromAMerchantTheCatalogNoLongerHasKeepsItsGraceAndSaysWhy() async throws {
        let lemon = ScriptedProvider(.lemonSqueezy)
        lemon.keys["OLD-KEY-0001"] = ("10", 0)
        try await store([ScriptedProvider(.polar), lemon]).redeem(key: "OLD-KEY-0001")
        // The same data directory, the catalog's Lemon Squeezy product dropped.
        let path = directory.appendingPathComponent("polar-only.json").path
        try """
        {"store": "polar", "polar": {"organization_id": "org-1"}, "products": [{"id": "old", "display_name": "Old", "price": "49.00",
          "currency": "USD", "kind": "non_consumable", "entitlements": ["old"], "checkout_url": "https://shop.example/old",
          "polar": {"benefit_id": "benefit-1"}}]}
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let polar = ScriptedProvider(.polar)
        let store = try store([polar], catalog: try CatalogLoader.load(path: path))
        let errors = await store.refresh()
        XCTAssertEqual(errors.map(\.kind), [.unknownProduct])
        XCTAssertTrue(errors.first?.message.contains("no longer sells through") == true, errors.first?.message ?? "")
        XCTAssertEqual(polar.calls, [], "another merchant is never asked about a license that is not its own")
        XCTAssertEqual(try store.licenses().first?.state, .subscribed, "within the grace period it still works")
    }

    func testASignedLicenseWithoutAPublicKeyIsRefusedUnsent() async throws {
        let polar = ScriptedProvider(.polar)
        let store = try store([polar])
        let signed = String(repeating: "eyJwcm9kdWN0IjoibmV3In0", count: 4) + "." + String(repeating: "c2ln", count: 22)
        XCTAssertTrue(SignedLicenseText.looksSigned(signed))
        do {
            try await store.redeem(key: signed)
            XCTFail("a signed license activated without a public key")
        } catch {
            XCTAssertEqual(error.kind, .unknownProduct)
            XCTAssertTrue(error.message.contains("license_public_key"), error.message)
        }
        XCTAssertEqual(polar.calls, [], "a signed license is never sent to a merchant")
    }

    func testLicensesKeptBeforeMerchantsWereLemonSqueezys() throws {
        let path = directory.appendingPathComponent("old.sqlite").path
        let (old, _) = try RecoveringDatabase.open(
            path: path, applicationId: LicenseDatabase.applicationId, migrations: Array(LicenseDatabase.migrations.prefix(3)))
        try old.query(
            """
            INSERT INTO licenses (key_id, license_key, status, activation_usage, instance_id, instance_name, meta, product_id,
                activated_at, validated_at, valid, answered)
            VALUES ('1', 'OLD-KEY-0001', 'active', 1, 'i-1', 'Ada', '{}', 'old', 0, 0, 1, 1)
            """)
        let records = try LicenseDatabase(path: path).records()
        XCTAssertEqual(records.map(\.store), [.lemonSqueezy])
    }
}
