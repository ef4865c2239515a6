import Foundation
import XCTest

@testable import PaywallCore

/// The events a page gets after its ping: products, template variables, substitution prefix.
final class TemplateVariablesTests: XCTestCase {
    private var dir: URL!
    override func setUpWithError() throws { dir = try makeTemporaryDirectory("TemplateVariablesTests") }
    override func tearDown() { removeTemporaryDirectory(dir) }

    private let device = DeviceInfo(
        osName: "Debian GNU/Linux", osVersion: "12", deviceModel: "Test PC",
        interfaceStyle: "dark", appVersion: "2.1.0")

    @MainActor
    private func variables(_ purchases: Purchases?, slots: String = "primary=pro.monthly,secondary=credits") throws
        -> TemplateVariables
    {
        TemplateVariables(
            slots: try ProductSlots(parsing: slots), catalog: testCatalog, purchases: purchases, device: device,
            locale: Locale(identifier: "en_US"),
            strings: try StringTable(directory: ProductAttributesTests.locales, locale: "en_US"),
            userId: "u1", userAttributes: ["plan": "team"], params: ["source": "onboarding"], totalPaywallViews: 4,
            installedAt: Date(timeIntervalSince1970: 1_800_000_000 - 3 * 86_400 - 60),
            now: Date(timeIntervalSince1970: 1_800_000_000))
    }

    @MainActor
    private func purchases(_ status: SubscriptionStatus? = nil) throws -> Purchases {
        let p = try Purchases(
            controller: ScriptedController(), catalog: testCatalog,
            cache: EntitlementCache(path: dir.appendingPathComponent("c.sqlite").path),
            transactionSource: nil, events: EventDispatcher())
        if let status { try p.setSubscriptionStatus(status) }
        return p
    }

    @MainActor
    func testEventsComeInProtocolOrderAndShape() async throws {
        let events = try variables(nil).events
        XCTAssertEqual(events.map { $0["event_name"] }, ["products", "template_variables", "template_substitutions_prefix"])
        XCTAssertEqual(
            events[0]["products"],
            [
                ["product": "primary", "productId": "pro.monthly"],
                ["product": "secondary", "productId": "credits"],
            ])
        let v = try XCTUnwrap(events[1]["variables"])
        XCTAssertEqual(v["primary"]?["price"], "$7.99")
        XCTAssertEqual(v["secondary"]?["price"], "$0.99")
        XCTAssertEqual(v["products"]?.arrayValue?.count, 2)
        XCTAssertEqual(v["products"]?.arrayValue?.first?["primary"]?["identifier"], "pro.monthly")
        XCTAssertEqual(v["user"], ["id": "u1", "plan": "team"])
        XCTAssertEqual(v["params"], ["source": "onboarding"])
    }

    /// A Hebrew user shown a page whose texts fell back to English: prices as English writes
    /// them for Israel, not Hebrew's form inside English text (no right-to-left marks, no
    /// double space).
    @MainActor
    func testAPageInItsFallbackLanguageWritesPricesInThatLanguageWithTheUsersRegion() throws {
        var fallback = try variables(nil)
        fallback.locale = Locale(identifier: "he_IL")
        let price = try XCTUnwrap(fallback.object["primary"]?["price"]?.stringValue)
        XCTAssertEqual(price, Decimal(string: "7.99")!.formatted(.currency(code: "USD").locale(Locale(identifier: "en_IL"))))
        XCTAssertFalse(price.unicodeScalars.contains { $0.properties.generalCategory == .format }, price)
        XCTAssertFalse("Just \(price)/month".contains("  "))
        XCTAssertEqual(fallback.object["device"]?["deviceLocale"], "he_IL", "the device is still the user's")
    }

    @MainActor
    func testDeviceVariables() async throws {
        let d = try XCTUnwrap(try variables(try purchases(.active(["pro"]))).events[1]["variables"]?["device"])
        XCTAssertEqual(d["deviceLocale"], "en_US")
        XCTAssertEqual(d["deviceLanguageCode"], "en")
        XCTAssertEqual(d["regionCode"], "US")
        XCTAssertEqual(d["deviceCurrencyCode"], "USD")
        XCTAssertEqual(d["deviceCurrencySymbol"], "$")
        XCTAssertEqual(d["appVersion"], "2.1.0")
        XCTAssertEqual(d["osVersion"], "12")
        XCTAssertEqual(d["deviceModel"], "Test PC")
        XCTAssertEqual(d["platform"], "Linux")
        XCTAssertEqual(d["interfaceStyle"], "dark")
        XCTAssertEqual(d["isSandbox"], false, "a purchase controller of the app's is not the fake store")
        XCTAssertEqual(d["activeEntitlements"], ["pro"])
        XCTAssertEqual(d["subscriptionStatus"], "ACTIVE")
        XCTAssertEqual(d["totalPaywallViews"], 4)
        XCTAssertEqual(d["daysSinceInstall"], 3)
        XCTAssertEqual(d["minutesSinceInstall"], .number(Double(3 * 24 * 60 + 1)))
        XCTAssertEqual(d["daysSinceLastPaywallView"], .null, "no paywall was shown yet")
        XCTAssertEqual(d["utcDate"], "2027-01-15")
        XCTAssertEqual(d["utcTime"], "08:00:00")
        XCTAssertEqual(d["sdkVersion"], .string(DeviceInfo.runtimeVersion))
        for key in ["localDate", "localTime", "timezoneOffset", "activeProducts"] { XCTAssertNotNil(d[key], key) }
    }

    @MainActor
    func testFreeTrialPrefixOnlyWhileTheUserMayTakeIt() async throws {
        XCTAssertEqual(try variables(nil).prefix, "freeTrial")
        XCTAssertEqual(try variables(nil).events[2]["prefix"], "freeTrial")
        XCTAssertNil(try variables(nil, slots: "primary=credits").prefix, "no trial on the primary product")

        let store = try FakeStore(catalog: testCatalog, databasePath: dir.appendingPathComponent("s.sqlite").path)
        let p = try Purchases(
            controller: store, catalog: testCatalog,
            cache: EntitlementCache(path: dir.appendingPathComponent("c2.sqlite").path),
            transactionSource: store, events: EventDispatcher())
        guard case .purchased = await store.purchase(testCatalog.product(id: "pro.monthly")!) else { return XCTFail() }
        try store.expire(try store.currentTransactions()[0].id)
        try p.refresh()
        XCTAssertNil(try variables(p).prefix, "had a trial in the group: no second one")
        XCTAssertEqual(try variables(p).events[2]["prefix"], .null)
        XCTAssertEqual(try variables(p).events[1]["variables"]?["device"]?["isSandbox"], true)
    }

    @MainActor
    func testSubscriptionLapsedOnlyOnceASubscriptionRanOut() async throws {
        let store = try FakeStore(catalog: testCatalog, databasePath: dir.appendingPathComponent("s.sqlite").path)
        let p = try Purchases(
            controller: store, catalog: testCatalog,
            cache: EntitlementCache(path: dir.appendingPathComponent("c2.sqlite").path),
            transactionSource: store, events: EventDispatcher())
        func lapsed() throws -> JSONValue? { try variables(p).events[1]["variables"]?["device"]?["subscriptionLapsed"] }
        try p.refresh()
        XCTAssertEqual(try lapsed(), false, "never subscribed")
        guard case .purchased = await store.purchase(testCatalog.product(id: "pro.monthly")!) else { return XCTFail() }
        try p.refresh()
        XCTAssertEqual(try lapsed(), false, "subscribed")
        let id = try store.currentTransactions()[0].id
        try store.billingIssue(id)
        try p.refresh()
        XCTAssertEqual(try lapsed(), false, "still being billed (grace or retry)")
        try store.expire(id)
        try p.refresh()
        XCTAssertEqual(try lapsed(), true, "it ran out")
        guard case .purchased = await store.purchase(testCatalog.product(id: "lifetime")!) else { return XCTFail() }
        try p.refresh()
        XCTAssertEqual(try lapsed(), false, "access again (lifetime)")
        try store.refund(try store.currentTransactions().first { $0.productId == "lifetime" }!.id)
        try p.refresh()
        XCTAssertEqual(try lapsed(), false, "the entitlement tells of the refunded lifetime purchase (revoked) now")
        XCTAssertEqual(try variables(nil).events[1]["variables"]?["device"]?["subscriptionLapsed"], false, "no purchases known")
    }

    @MainActor
    func testIsSubscribedFollowsTheEntitlements() async throws {
        let v = try variables(try purchases(.active(["pro"]))).events[1]["variables"]
        XCTAssertEqual(v?["primary"]?["isSubscribed"], true)
        XCTAssertEqual(v?["secondary"]?["isSubscribed"], false, "a consumable is never 'subscribed'")
    }

    @MainActor
    func testUnknownProductInASlotIsLeftOut() async throws {
        let events = try variables(nil, slots: "primary=nope,secondary=credits").events
        XCTAssertNil(events[1]["variables"]?["primary"])
        XCTAssertNotNil(events[1]["variables"]?["secondary"])
    }

    func testOSReleaseParsing() {
        let parsed = DeviceInfo.parseOSRelease(
            """
            PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"
            NAME="Debian GNU/Linux"
            VERSION_ID="12"
            # a comment
            ID=debian
            """)
        XCTAssertEqual(parsed["NAME"], "Debian GNU/Linux")
        XCTAssertEqual(parsed["VERSION_ID"], "12")
        XCTAssertEqual(parsed["ID"], "debian")
        XCTAssertNil(parsed["# a comment"])
    }
}

final class RuntimeStateTests: XCTestCase {
    private var dir: URL!
    override func setUpWithError() throws { dir = try makeTemporaryDirectory("RuntimeStateTests") }
    override func tearDown() { removeTemporaryDirectory(dir) }
    private var path: String { dir.appendingPathComponent("runtime.sqlite").path }

    func testInstallDateIsKeptFromTheFirstRun() throws {
        let first = Date(timeIntervalSince1970: 1_700_000_000)
        _ = try RuntimeState(path: path, now: first)
        XCTAssertEqual(try RuntimeState(path: path, now: Date()).installedAt, first)
    }

    func testPaywallViewsAreCounted() throws {
        let state = try RuntimeState(path: path)
        XCTAssertEqual(try state.countPaywallView("a"), 1)
        XCTAssertEqual(try state.countPaywallView("b"), 2)
        XCTAssertEqual(try RuntimeState(path: path).totalPaywallViews, 2)
    }

    func testUserAttributesAreKeptPerUser() throws {
        let state = try RuntimeState(path: path)
        try state.setUserAttributes(["name": "Ada", "age": 36, "beta": true], user: "u1")
        try state.setUserAttributes(["name": "Bob"], user: "u2")
        try state.setUserAttributes(["beta": nil], user: "u1")
        XCTAssertEqual(try RuntimeState(path: path).userAttributes(user: "u1"), ["name": "Ada", "age": 36])
        XCTAssertEqual(try state.userAttributes(user: "u2"), ["name": "Bob"])
    }
}

final class BundleManifestTests: XCTestCase {
    private var dir: URL!
    override func setUpWithError() throws {
        dir = try makeTemporaryDirectory("BundleManifestTests")
        _ = try writeFile("<html></html>", to: "index.html", in: dir)
    }
    override func tearDown() { removeTemporaryDirectory(dir) }

    private func manifest(_ json: String) throws -> BundleManifest {
        _ = try writeFile(json, to: "manifest.json", in: dir)
        return try BundleManifest(bundle: PaywallBundle(path: dir.path))
    }

    func testNoManifestIsEmpty() throws {
        XCTAssertEqual(try BundleManifest(bundle: PaywallBundle(path: dir.path)), BundleManifest())
    }

    func testSlotsComeInPageOrder() throws {
        _ = try writeFile("{}", to: "store.json", in: dir)
        let m = try manifest(
            #"{"products": {"tertiary": "c", "extra": "d", "primary": "a", "secondary": "b"}, "preview_store": "store.json"}"#)
        XCTAssertEqual(m.slots.entries.map(\.slot), ["primary", "secondary", "tertiary", "extra"])
        XCTAssertEqual(m.slots.productId(forSlot: "secondary"), "b")
        XCTAssertEqual(m.previewStore, dir.resolvingSymlinksInPath().appendingPathComponent("store.json").path)
    }

    func testBadManifestsAreClearErrors() throws {
        for (json, expected) in [
            ("not json", "is not a JSON object"), (#"{"products": ["a"]}"#, "must be an object"),
            (#"{"products": {"primary": 3}}"#, "products.primary must be a product id"),
            (#"{"preview_store": "../outside.json"}"#, "must be a relative path inside the bundle"),
            (#"{"preview_store": "missing.json"}"#, "must name a catalog file inside the bundle"),
        ] {
            XCTAssertThrowsError(try manifest(json)) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(json): \(error)")
                XCTAssertTrue("\(error)".contains("manifest.json"), "names the file: \(error)")
            }
        }
    }
}
