import Foundation
import XCTest

@testable import PaywallCore

/// The license-key store through the runtime, as an app configures it with a
/// `"store": "lemon_squeezy"` catalog, against the local License API server.
@MainActor
final class LicenseKeyStoreTests: XCTestCase {
    private var directory: URL!
    private var server: LemonSqueezyTestServer!
    private var catalog: String!
    private var clock: TestClock!
    private var opened: [URL] = []
    private var events: [PaywallEvent] = []
    static let key = "38b1460a-5104-4067-a91d-77b872934d51"

    override func setUp() async throws {
        directory = try makeTemporaryDirectory("LicenseKeyStore")
        server = try LemonSqueezyTestServer(directory: directory.appendingPathComponent("server"))
        server.keys[Self.key] = LemonSqueezyTestServer.key(id: 1)
        catalog = try server.writeCatalog(in: directory)
        clock = TestClock()
        opened = []
        events = []
    }

    override func tearDown() async throws {
        XCTAssertEqual(server?.violations ?? [], [], "requests broke the License API's documented form")
        server?.stop()
        removeTemporaryDirectory(directory)
    }

    private func runtime(user: String? = nil, prompt answers: [String?] = [], asked: ((LicenseKeyRequest) -> Void)? = nil)
        throws -> PaywallRuntime
    {
        let clock = self.clock!
        let services = LicenseServices(
            now: { clock.now },
            openURL: { [weak self] url in
                self?.opened.append(url)
                return true
            },
            instanceName: { "Ada's ThinkPad" }, refreshesPeriodically: false)
        let events = EventDispatcher()
        events.observe { [weak self] in self?.events.append($0) }
        let runtime = try PaywallRuntime(
            .init(
                dataDirectory: directory.appendingPathComponent("data").path,
                store: .fakeStore(catalog: catalog), userId: user, logLevel: .none),
            events: events, licenseServices: services)
        var answers = answers
        runtime.licenseStore?.prompt = ClosureLicenseKeyPrompt { request in
            asked?(request)
            return answers.isEmpty ? nil : answers.removeFirst()
        }
        return runtime
    }

    private func entitlement(_ runtime: PaywallRuntime) -> Entitlement? {
        runtime.customerInfo.entitlements.first { $0.id == "pro" }
    }

    func testACatalogWithLemonSqueezySellsThroughTheLicenseStore() throws {
        let runtime = try runtime()
        XCTAssertNotNil(runtime.licenseStore)
        XCTAssertNil(runtime.fakeStore)
        XCTAssertTrue(runtime.purchases?.controller === runtime.licenseStore)
        XCTAssertEqual(runtime.licenseStore?.managedStores, [.lemonSqueezy])
    }

    func testBuyingOpensTheCheckoutAsksForTheKeyAndActivatesIt() async throws {
        var requests: [LicenseKeyRequest] = []
        let runtime = try runtime(user: "ada", prompt: [Self.key]) { requests.append($0) }
        let result = await runtime.purchases!.purchase(productId: "pro.lifetime")
        guard case .purchased = result else { return XCTFail("\(result)") }

        let checkout = try XCTUnwrap(opened.first?.absoluteString)
        XCTAssertTrue(checkout.hasPrefix("https://lumen.lemonsqueezy.com/buy/abc-123?embed=0&"), checkout)
        XCTAssertTrue(checkout.hasSuffix("checkout%5Bcustom%5D%5Buser_id%5D=ada"), checkout)
        XCTAssertEqual(requests.count, 1)
        guard case .purchase(let product, let url)? = requests.first?.purpose else { return XCTFail("not a purchase prompt") }
        XCTAssertEqual(product.id, "pro.lifetime")
        XCTAssertEqual(url, opened.first)

        XCTAssertEqual(runtime.subscriptionStatus, .active(["pro"]))
        let pro = try XCTUnwrap(entitlement(runtime))
        XCTAssertTrue(pro.isLifetime, "a key without expiry is a lifetime entitlement")
        XCTAssertEqual(pro.state, .subscribed)
        XCTAssertEqual(pro.store, .lemonSqueezy)

        XCTAssertEqual(
            server.requests.map { $0["path"]?.stringValue }, ["/v1/licenses/validate", "/v1/licenses/activate"],
            "a key is checked before an activation is used up")
        XCTAssertEqual(server.requests.last?["form"]?["instance_name"], "Ada's ThinkPad")
        let status = try XCTUnwrap(try runtime.licenseStore?.licenses().first)
        XCTAssertEqual(status.maskedKey, "****4d51")
        XCTAssertEqual(status.activationUsage, 1)
        XCTAssertEqual(status.activationLimit, 2)
        XCTAssertNil(status.reason)
        XCTAssertTrue(events.contains { $0.name == .transactionComplete })
        let activated = try XCTUnwrap(events.first { $0.name == .licenseActivate })
        XCTAssertEqual(activated.params["license_key"], "****4d51")
        XCTAssertEqual(activated.params["product_identifier"], "pro.lifetime")
    }

    func testAKeyNeverAppearsUnmaskedInEvents() async throws {
        let runtime = try runtime(prompt: ["WRONG-KEY-0000-1111", Self.key])
        _ = await runtime.purchases!.purchase(productId: "pro.lifetime")
        await runtime.licenseStore!.refresh()
        try await runtime.licenseStore!.deactivate()
        XCTAssertGreaterThan(events.count, 5)
        for event in events {
            XCTAssertFalse(event.jsonLine.contains(Self.key), event.jsonLine)
            XCTAssertFalse(event.jsonLine.contains("WRONG-KEY-0000-1111"), event.jsonLine)
        }
    }

    func testAKeyThatFailsIsAskedForAgainWithTheProblem() async throws {
        var requests: [LicenseKeyRequest] = []
        let runtime = try runtime(prompt: ["NO-SUCH-KEY-99999", Self.key]) { requests.append($0) }
        let result = await runtime.purchases!.purchase(productId: "pro.lifetime")
        guard case .purchased = result else { return XCTFail("\(result)") }
        XCTAssertEqual(requests.map(\.attempt), [1, 2])
        XCTAssertNil(requests[0].problem)
        XCTAssertEqual(requests[1].problem?.kind, .notFound)
        XCTAssertEqual(events.first { $0.name == .licenseActivateFail }?.params["reason"], "not_found")
    }

    func testCancellingThePromptCancelsThePurchase() async throws {
        let runtime = try runtime(prompt: [nil])
        let result = await runtime.purchases!.purchase(productId: "pro.lifetime")
        guard case .cancelled = result else { return XCTFail("\(result)") }
        XCTAssertEqual(runtime.subscriptionStatus, .inactive)
        XCTAssertTrue(events.contains { $0.name == .transactionAbandon })
        XCTAssertEqual(opened.count, 1, "the checkout opened before the prompt")
    }

    func testRestoreAsksForTheKey() async throws {
        var requests: [LicenseKeyRequest] = []
        let runtime = try runtime(prompt: [Self.key]) { requests.append($0) }
        let outcome = await runtime.purchases!.restore()
        XCTAssertEqual(outcome, .restored)
        XCTAssertEqual(requests.first?.purpose, .restore)
        XCTAssertEqual(opened, [], "restoring opens no checkout")
    }

    func testActivationLimitReachedIsRefused() async throws {
        server.keys[Self.key] = LemonSqueezyTestServer.key(id: 1, limit: 1, usage: 1)
        let runtime = try runtime()
        do {
            try await runtime.licenseStore!.redeem(key: Self.key)
            XCTFail("activated past the limit")
        } catch {
            XCTAssertEqual(error.kind, .rejected)
            XCTAssertTrue(error.message.contains("activation limit"), error.message)
        }
        XCTAssertEqual(runtime.subscriptionStatus, .inactive)
    }

    func testExpiredAndDisabledKeysAreRefusedBeforeActivating() async throws {
        server.keys["EXPIRED-KEY-0001"] = LemonSqueezyTestServer.key(id: 2, status: "expired")
        server.keys["DISABLED-KEY-0002"] = LemonSqueezyTestServer.key(id: 3, status: "disabled")
        let runtime = try runtime()
        for (key, words) in [("EXPIRED-KEY-0001", "has expired"), ("DISABLED-KEY-0002", "is disabled")] {
            do {
                try await runtime.licenseStore!.redeem(key: key)
                XCTFail("\(key) activated")
            } catch {
                XCTAssertEqual(error.kind, .rejected)
                XCTAssertTrue(error.message.contains(words), error.message)
            }
        }
        XCTAssertFalse(server.requests.contains { $0["path"] == "/v1/licenses/activate" })
    }

    func testAKeyForAnotherProductUsesUpNoActivation() async throws {
        server.keys["OTHER-APP-KEY-0003"] = LemonSqueezyTestServer.key(id: 4, productId: 99, variantId: 98)
        let runtime = try runtime()
        do {
            try await runtime.licenseStore!.redeem(key: "OTHER-APP-KEY-0003")
            XCTFail("a key of another product activated")
        } catch {
            XCTAssertEqual(error.kind, .unknownProduct)
            XCTAssertTrue(error.message.contains("product 99 variant 98"), error.message)
        }
        XCTAssertFalse(server.requests.contains { $0["path"] == "/v1/licenses/activate" })
    }

    /// A key's state at the server, with `fields` added (store_id, valid, activation_product_id).
    private func key(_ id: Int, revision: Int = 0, _ fields: [String: JSONValue]) -> JSONValue {
        guard case .object(var key) = LemonSqueezyTestServer.key(id: id, revision: revision) else { return .null }
        key.merge(fields) { _, new in new }
        return .object(key)
    }

    func testAnActiveKeyTheServerSaysIsNotValidIsRefused() async throws {
        server.keys["NOT-VALID-KEY-0005"] = key(5, ["valid": false])
        let runtime = try runtime()
        do {
            try await runtime.licenseStore!.redeem(key: "NOT-VALID-KEY-0005")
            XCTFail("a key answered valid: false activated")
        } catch {
            XCTAssertEqual(error.kind, .rejected)
            XCTAssertTrue(error.message.contains("says license key ****0005 is not valid"), error.message)
        }
        XCTAssertFalse(server.requests.contains { $0["path"] == "/v1/licenses/activate" })
    }

    func testAValidationAnsweringNotValidEndsAccess() async throws {
        let runtime = try runtime()
        try await runtime.licenseStore!.redeem(key: Self.key)
        XCTAssertEqual(runtime.subscriptionStatus, .active(["pro"]))
        server.keys[Self.key] = key(1, revision: 1, ["valid": false])
        await runtime.licenseStore!.refresh()
        XCTAssertEqual(runtime.subscriptionStatus, .inactive)
        XCTAssertEqual(try runtime.licenseStore!.licenses().first?.reason, .inactive)
        XCTAssertEqual(try runtime.licenseStore!.licenses().first?.keyStatus, .active)
    }

    func testAnActivationNamingAnotherProductIsRefusedAndGivenBack() async throws {
        server.keys["SWAPPED-KEY-0006"] = key(6, ["activation_product_id": 99])
        let runtime = try runtime()
        do {
            try await runtime.licenseStore!.redeem(key: "SWAPPED-KEY-0006")
            XCTFail("an activation of another product was granted")
        } catch {
            XCTAssertEqual(error.kind, .unknownProduct)
            XCTAssertTrue(error.message.contains("names product 99"), error.message)
        }
        XCTAssertEqual(runtime.subscriptionStatus, .inactive)
        XCTAssertEqual(try runtime.licenseStore!.licenses(), [])
        XCTAssertEqual(
            server.requests.map { $0["path"]?.stringValue },
            ["/v1/licenses/validate", "/v1/licenses/activate", "/v1/licenses/deactivate"], "the activation is given back")
    }

    func testAKeyFromAnotherStoreThanTheCatalogsIsRefused() async throws {
        catalog = try server.writeCatalog(in: directory, storeId: 2)
        let runtime = try runtime()
        do {
            try await runtime.licenseStore!.redeem(key: Self.key)
            XCTFail("a key of store 1 activated for store 2")
        } catch {
            XCTAssertEqual(error.kind, .unknownProduct)
            XCTAssertTrue(error.message.contains("is from Lemon Squeezy store 1, not this app's store 2"), error.message)
        }
        XCTAssertFalse(server.requests.contains { $0["path"] == "/v1/licenses/activate" })
        server.keys["STORE-TWO-KEY-0007"] = key(7, ["store_id": 2])
        try await runtime.licenseStore!.redeem(key: "STORE-TWO-KEY-0007")
        XCTAssertEqual(runtime.subscriptionStatus, .active(["pro"]))
    }

    /// The license database, as someone editing it by hand opens it.
    private func editLicenses(_ sql: String) throws {
        try SQLiteDatabase(path: DataDirectory(explicit: directory.appendingPathComponent("data").path).licenses).execute(sql)
    }

    /// A refunded key whose row was moved to 2100: due at once, and no grace meanwhile.
    func testALicenseValidatedAfterNowIsDueAndHasNoGrace() async throws {
        try await runtime().licenseStore!.redeem(key: Self.key)
        server.keys[Self.key] = LemonSqueezyTestServer.key(id: 1, status: "disabled", revision: 1)
        try editLicenses(
            "UPDATE licenses SET validated_at = 4102444800; UPDATE state SET value = '4102444800' WHERE key = 'next_check'")
        let runtime = try runtime()
        XCTAssertTrue(runtime.licenseStore!.isRefreshDue)
        XCTAssertEqual(runtime.subscriptionStatus, .inactive, "no grace from a validation after now")
        XCTAssertEqual(try runtime.licenseStore!.licenses().first?.reason, .notValidated)
        await runtime.licenseStore!.refresh()
        XCTAssertEqual(entitlement(runtime)?.state, .revoked)
    }

    func testAScheduleFurtherThanTheRefreshIntervalIsDueNow() async throws {
        try await runtime().licenseStore!.redeem(key: Self.key)
        XCTAssertFalse(try runtime().licenseStore!.isRefreshDue, "validated just now")
        try editLicenses("UPDATE state SET value = '4102444800' WHERE key = 'next_check'")
        XCTAssertTrue(try runtime().licenseStore!.isRefreshDue)
    }

    func testALicenseTheProviderNeverAnsweredForGivesNothing() async throws {
        _ = try runtime()
        let now = clock.now.timeIntervalSince1970
        try editLicenses(
            """
            INSERT INTO licenses (key_id, license_key, status, activation_usage, instance_id, instance_name, meta, product_id,
                activated_at, validated_at)
            VALUES ('99', 'INVENTED-KEY-0099', 'active', 1, 'i-1', 'box', '{}', 'pro.lifetime', \(now), \(now));
            INSERT OR REPLACE INTO state (key, value) VALUES ('next_check', '\(now + 3600)');
            """)
        let runtime = try runtime()
        XCTAssertEqual(runtime.subscriptionStatus, .inactive)
        XCTAssertTrue(runtime.licenseStore!.isRefreshDue)
        await runtime.licenseStore!.refresh()
        XCTAssertEqual(try runtime.licenseStore!.licenses().first?.reason, .notFound)
        XCTAssertEqual(runtime.subscriptionStatus, .inactive)
    }

    func testAKeyLongerThanTheLimitIsRefusedUnasked() async throws {
        let runtime = try runtime()
        do {
            try await runtime.licenseStore!.redeem(key: String(repeating: "K", count: LicenseKeyStore.maxKeyBytes + 1))
            XCTFail("a 4 KB+ key was sent")
        } catch {
            XCTAssertEqual(error.kind, .emptyKey)
            XCTAssertTrue(error.message.contains("longer than any license key (at most 4096)"), error.message)
        }
        XCTAssertEqual(server.requests.count, 0)
    }

    func testRedeemingTheSameKeyAgainValidatesInsteadOfActivating() async throws {
        let runtime = try runtime()
        try await runtime.licenseStore!.redeem(key: Self.key)
        let status = try await runtime.licenseStore!.redeem(key: "  \(Self.key)\n")
        XCTAssertEqual(status.activationUsage, 1)
        XCTAssertEqual(server.requests.filter { $0["path"] == "/v1/licenses/activate" }.count, 1)
    }

    func testColdStartOfflineUsesTheCachedValidationThenTheGracePeriodEnds() async throws {
        do {
            let runtime = try runtime()
            try await runtime.licenseStore!.redeem(key: Self.key)
            XCTAssertEqual(runtime.subscriptionStatus, .active(["pro"]))
        }
        server.stop()
        clock.advance(days: 13)
        do {
            let runtime = try runtime()
            XCTAssertEqual(runtime.subscriptionStatus, .active(["pro"]), "active at once from the cached validation")
            let errors = await runtime.licenseStore!.refresh()
            XCTAssertEqual(errors.map(\.kind), [.network])
            XCTAssertEqual(runtime.subscriptionStatus, .active(["pro"]), "still within the 14 days' grace")
            let failed = try XCTUnwrap(events.first { $0.name == .licenseValidateFail })
            XCTAssertEqual(failed.params["reason"], "network")
        }
        clock.advance(days: 1.5)
        let runtime = try runtime()
        XCTAssertEqual(runtime.subscriptionStatus, .inactive)
        let pro = try XCTUnwrap(entitlement(runtime))
        XCTAssertEqual(pro.state, .expired)
        XCTAssertFalse(pro.isActive)
        let status = try XCTUnwrap(try runtime.licenseStore?.licenses().first)
        XCTAssertEqual(status.state, .expired)
        XCTAssertEqual(status.reason, .notValidated)
        XCTAssertEqual(status.keyStatus, .active, "the provider's last word is kept")

        // The entitlement cache alone (no store, as `paywall status` reads it) says the same.
        let cache = try EntitlementCache(
            path: DataDirectory(explicit: directory.appendingPathComponent("data").path).entitlementCache)
        XCTAssertEqual(try cache.coldStartStatus(user: Purchases.anonymousUser).0, .inactive)
    }

    func testAValidationAfterTheGraceGivesAccessBack() async throws {
        try await runtime().licenseStore!.redeem(key: Self.key)
        clock.advance(days: 20)
        let runtime = try runtime()
        XCTAssertEqual(runtime.subscriptionStatus, .inactive)
        await runtime.licenseStore!.refresh()
        XCTAssertEqual(runtime.subscriptionStatus, .active(["pro"]))
        XCTAssertEqual(events.last { $0.name == .licenseValidate }?.params["trigger"], "demand")
    }

    func testValidationMapsExpiredToExpiredAndDisabledToRevoked() async throws {
        let runtime = try runtime()
        try await runtime.licenseStore!.redeem(key: Self.key)
        server.keys[Self.key] = LemonSqueezyTestServer.key(id: 1, status: "expired", revision: 1)
        await runtime.licenseStore!.refresh()
        XCTAssertEqual(entitlement(runtime)?.state, .expired)
        XCTAssertEqual(try runtime.licenseStore!.licenses().first?.reason, .expired)
        XCTAssertEqual(runtime.subscriptionStatus, .inactive)

        server.keys[Self.key] = LemonSqueezyTestServer.key(id: 1, status: "disabled", revision: 2)
        await runtime.licenseStore!.refresh()
        XCTAssertEqual(entitlement(runtime)?.state, .revoked)
        XCTAssertEqual(try runtime.licenseStore!.licenses().first?.state, .revoked)
        XCTAssertEqual(try runtime.licenseStore!.licenses().first?.reason, .disabled)
    }

    func testAKeyWithAnExpiryIsActiveUntilThen() async throws {
        let expiry = clock.now.addingTimeInterval(5 * 86_400)
        let stamp = expiry.formatted(Date.ISO8601FormatStyle())
        server.keys[Self.key] = LemonSqueezyTestServer.key(id: 1, expiresAt: stamp)
        let runtime = try runtime()
        try await runtime.licenseStore!.redeem(key: Self.key)
        let pro = try XCTUnwrap(entitlement(runtime))
        XCTAssertFalse(pro.isLifetime)
        XCTAssertEqual(pro.expiresAt?.timeIntervalSince1970 ?? 0, expiry.timeIntervalSince1970, accuracy: 1)
        clock.advance(days: 6)
        let later = try self.runtime()
        XCTAssertEqual(later.subscriptionStatus, .inactive)
        XCTAssertEqual(try later.licenseStore!.licenses().first?.reason, .expired)
    }

    func testDeactivatingThisDeviceFreesTheActivationAndEndsAccessHere() async throws {
        let runtime = try runtime()
        try await runtime.licenseStore!.redeem(key: Self.key)
        try await runtime.licenseStore!.deactivate()
        XCTAssertEqual(runtime.subscriptionStatus, .inactive)
        XCTAssertEqual(try runtime.licenseStore!.licenses(), [])
        let request = try XCTUnwrap(server.requests.last)
        XCTAssertEqual(request["path"], "/v1/licenses/deactivate")
        XCTAssertNotNil(request["form"]?["instance_id"]?.stringValue)
        XCTAssertEqual(events.last { $0.name == .licenseDeactivate }?.params["license_key"], "****4d51")
        // Its activation is free again: activating once more works at a limit of one.
        server.keys[Self.key] = LemonSqueezyTestServer.key(id: 1, limit: 1, usage: 0, revision: 1)
        try await runtime.licenseStore!.redeem(key: Self.key)
        XCTAssertEqual(runtime.subscriptionStatus, .active(["pro"]))
    }

    func testDeactivatingOfflineKeepsTheLicense() async throws {
        let runtime = try runtime()
        try await runtime.licenseStore!.redeem(key: Self.key)
        server.stop()
        do {
            try await runtime.licenseStore!.deactivate()
            XCTFail("deactivated without a server")
        } catch {
            XCTAssertEqual(error.kind, .network)
        }
        XCTAssertEqual(runtime.subscriptionStatus, .active(["pro"]))
        XCTAssertEqual(events.last { $0.name == .licenseDeactivateFail }?.params["reason"], "network")
    }

    func testAFailedValidationBacksOffBeforeTheNextOne() async throws {
        let runtime = try runtime()
        try await runtime.licenseStore!.redeem(key: Self.key)
        XCTAssertFalse(runtime.licenseStore!.isRefreshDue, "just activated: not validated again for hours")
        clock.advance(seconds: 6 * 3600 + 1)
        XCTAssertTrue(runtime.licenseStore!.isRefreshDue)
        await runtime.licenseStore!.refresh()
        XCTAssertFalse(runtime.licenseStore!.isRefreshDue, "validated: not again for hours")
        clock.advance(seconds: 6 * 3600 + 1)
        XCTAssertTrue(runtime.licenseStore!.isRefreshDue)
        server.stop()
        await runtime.licenseStore!.refresh()
        XCTAssertFalse(runtime.licenseStore!.isRefreshDue)
        clock.advance(seconds: 61)
        XCTAssertTrue(runtime.licenseStore!.isRefreshDue, "a minute after the first failure")
        await runtime.licenseStore!.refresh()
        clock.advance(seconds: 61)
        XCTAssertFalse(runtime.licenseStore!.isRefreshDue, "two minutes after the second")
    }

    func testTheLicenseDatabaseIsReadableByItsOwnerOnly() async throws {
        let runtime = try runtime()
        try await runtime.licenseStore!.redeem(key: Self.key)
        let path = DataDirectory.locate(explicit: directory.appendingPathComponent("data").path).licenses
        for file in [path, path + "-wal"] {
            let mode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int)
            XCTAssertEqual(mode & 0o777, 0o600, file)
        }
    }

    func testTheCustomerPortalIsTheCatalogs() throws {
        XCTAssertEqual(try runtime().licenseStore?.customerPortalURL?.absoluteString, "https://lumen.lemonsqueezy.com/billing")
    }
}

extension LicenseKeyStoreTests {
    func testTheSupportEmailNamesTheLicenseMasked() async throws {
        let runtime = try runtime()
        try await runtime.licenseStore!.redeem(key: Self.key)
        let mail = SupportEmail(
            address: "help@example.com",
            diagnostics: .init(
                userId: "u", appVersion: "1", os: "Debian", deviceModel: "PC", activeEntitlements: ["pro"], isSandbox: false,
                licenses: try runtime.licenseStore!.licenses()), strings: try ccStrings())
        XCTAssertTrue(mail.body.contains("License: ****4d51 (pro.lifetime, active)"), mail.body)
        XCTAssertFalse(mail.body.contains(Self.key))
        XCTAssertFalse(mail.url.absoluteString.contains("a91d"), "no part of the key but its last four")
    }
}
