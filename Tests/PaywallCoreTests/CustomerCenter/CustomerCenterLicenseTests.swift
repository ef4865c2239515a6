import Foundation
import XCTest

@testable import PaywallCore

/// The customer center over a license-key store (`"store": "lemon_squeezy"`), against the
/// local License API server: a row per license (masked key, where it stands, activations,
/// the Web badge), "Deactivate this device" (confirmed, then gone here; a failure said in
/// words), "Manage subscription" to the customer portal, and each status line.
@MainActor
final class CustomerCenterLicenseTests: XCTestCase {
    private var directory: URL!
    private var server: LemonSqueezyTestServer!
    private var runtime: PaywallRuntime!
    private var session: CustomerCenterSession!
    private let page = RecordingPageSurface()
    private var events: [PaywallEvent] = []
    static let key = "38b1460a-5104-4067-a91d-77b872934d51"
    static let portal = URL(string: "https://lumen.lemonsqueezy.com/billing")!

    override func setUp() async throws {
        directory = try makeTemporaryDirectory("CustomerCenterLicense")
        server = try LemonSqueezyTestServer(directory: directory.appendingPathComponent("server"))
        server.keys[Self.key] = LemonSqueezyTestServer.key(id: 1)
        let services = LicenseServices(openURL: { _ in true }, instanceName: { "test" }, refreshesPeriodically: false)
        runtime = try PaywallRuntime(
            .init(
                dataDirectory: directory.appendingPathComponent("data").path,
                store: .fakeStore(catalog: try server.writeCatalog(in: directory)), logLevel: .none),
            licenseServices: services)
        runtime.events.observe { [weak self] in self?.events.append($0) }
        session = CustomerCenterSession(
            configuration: .default, presentation: .sheet, purchases: runtime.purchases, strings: try ccStrings(),
            locale: Locale(identifier: "en_US"), events: runtime.events,
            environment: .init(appVersion: "1.0.0", device: CCFixture.device()))
        session.page = page
    }

    override func tearDown() async throws {
        XCTAssertEqual(server?.violations ?? [], [])
        server?.stop()
        removeTemporaryDirectory(directory)
    }

    private func open() {
        session.start()
        session.channel.receive(envelope([#"{"event_name": "ping"}"#]))
    }

    private func tap(_ pathId: String) {
        session.channel.receive(
            envelope([#"{"event_name": "customer_center_path", "path_id": "\#(pathId)", "product_id": "pro.lifetime"}"#]))
    }

    private func press(_ action: String) {
        session.channel.receive(envelope([#"{"event_name": "customer_center_action", "action": "\#(action)"}"#]))
    }

    private func waitUntilIdle() async throws {
        for _ in 0..<1000 where session.isBusy { try await Task.sleep(nanoseconds: 5_000_000) }
        XCTAssertFalse(session.isBusy, "the action never finished")
    }

    private var model: JSONValue { page.lastModel ?? .null }

    func testALicenseIsARowWithItsMaskedKeyActivationsAndBadgeThenItsPaths() async throws {
        try await runtime.licenseStore!.redeem(key: Self.key)
        open()
        XCTAssertEqual(model["screen"], "management")
        let section = try XCTUnwrap(model["sections"]?.arrayValue?.first)
        XCTAssertEqual(section["title"], "Licenses")
        let row = try XCTUnwrap(model.ccRows.first { $0["kind"] == "license" })
        XCTAssertEqual(row["title"], "Lumen Pro")
        XCTAssertEqual(row["subtitle"], "Active, never expires")
        XCTAssertEqual(row["lines"], ["Key ****4d51", "Activations: 1 of 2"])
        XCTAssertEqual(row["badge"], "Web")
        XCTAssertEqual(row["active"], true)
        XCTAssertEqual(row["reason"], .null)
        XCTAssertEqual(model.ccPathIds, ["license.deactivate", "license.manage", "restore"])
        XCTAssertEqual(model.ccRows.first { $0["path_id"] == "license.manage" }?["url"], .string(Self.portal.absoluteString))
        XCTAssertNil(
            model.ccRows.first { $0["kind"] == "purchase" }, "the license's purchase is its license row, not a second one")
        XCTAssertFalse(model.jsonText.contains(Self.key), "the key is only ever shown masked")
    }

    func testDeactivatingAsksThenFreesTheActivationAndTheLicenseLeaves() async throws {
        try await runtime.licenseStore!.redeem(key: Self.key)
        open()
        tap("license.deactivate")
        XCTAssertEqual(model["dialog"]?["title"], "Deactivate This Device?")
        XCTAssertEqual(model["dialog"]?["buttons"]?.arrayValue?.map { $0["label"] }, ["Cancel", "Deactivate"])
        XCTAssertFalse(server.requests.contains { $0["path"] == "/v1/licenses/deactivate" }, "nothing before the user confirms")
        press("confirm")
        try await waitUntilIdle()
        XCTAssertEqual(model["dialog"]?["title"], "Device Deactivated")
        XCTAssertEqual(model["dialog"]?["message"], "Lumen Pro is no longer activated on this computer.")
        XCTAssertEqual(server.requests.last?["path"], "/v1/licenses/deactivate")
        XCTAssertEqual(try runtime.licenseStore!.licenses(), [])
        XCTAssertEqual(runtime.subscriptionStatus, .inactive, "inactive here")
        press("ok")
        XCTAssertEqual(model["screen"], "no_purchases")
        XCTAssertTrue(events.contains { $0.name == .licenseDeactivate })
    }

    func testADeactivationThatFailsSaysWhyAndKeepsTheLicense() async throws {
        try await runtime.licenseStore!.redeem(key: Self.key)
        open()
        server.stop()
        tap("license.deactivate")
        press("confirm")
        try await waitUntilIdle()
        XCTAssertEqual(model["dialog"]?["title"], "Could Not Deactivate")
        XCTAssertEqual(
            model["dialog"]?["message"],
            "The license server could not be reached. Check your internet connection and try again.")
        XCTAssertEqual(try runtime.licenseStore!.licenses().count, 1)
        press("ok")
        XCTAssertNotNil(model.ccRows.first { $0["kind"] == "license" })
    }

    func testManageSubscriptionOpensTheCustomerPortal() async throws {
        try await runtime.licenseStore!.redeem(key: Self.key)
        open()
        tap("license.manage")
        XCTAssertEqual(page.openedExternally, [Self.portal])
        XCTAssertNil(model["dialog"])
    }

    func testAPathForALicenseThatIsNotThereIsRefused() async throws {
        open()
        tap("license.deactivate")
        XCTAssertNil(model["dialog"])
        XCTAssertTrue(events.contains { $0.name == .pageMessageInvalid }, "\(events.map(\.name))")
    }

    /// Each state a license can be in, in the row's one status line.
    func testEachStatusHasItsLine() throws {
        var screen = try CCFixture.screen([])
        let day = Date(timeIntervalSince1970: 1_798_632_000)  // Dec 30, 2026, noon UTC
        func license(_ state: EntitlementState, _ reason: LicenseStatus.Reason?, expires: Date? = nil) -> LicenseStatus {
            LicenseStatus(
                maskedKey: "****4d51", keyStatus: .active, state: state, reason: reason, activationUsage: 3, activationLimit: nil,
                expiresAt: expires, productId: "lifetime", productName: nil, variantName: nil, instanceName: "test",
                activatedAt: day, validatedAt: day, graceEndsAt: day)
        }
        let cases: [(LicenseStatus, String)] = [
            (license(.subscribed, nil), "Active, never expires"),
            (license(.subscribed, nil, expires: day), "Expires on Dec 30, 2026"),
            (license(.expired, .expired, expires: day), "Expired on Dec 30, 2026"),
            (license(.expired, .expired), "Expired"),
            (license(.revoked, .disabled), "Disabled by the seller"),
            (license(.expired, .inactive), "Not activated on this computer"),
            (license(.expired, .notFound), "No longer known to the seller"),
            (license(.expired, .notValidated), "Not checked since Dec 30, 2026. Connect to the internet to keep using it."),
        ]
        for (status, line) in cases {
            screen.licenses = [status]
            let model = screen.model(route: [.home], dialog: nil, busy: false)
            let row = try XCTUnwrap(model.ccRows.first { $0["kind"] == "license" })
            XCTAssertEqual(row["subtitle"], .string(line), "\(status.reason?.rawValue ?? "active")")
            XCTAssertEqual(row["lines"]?.arrayValue?.last, "Activations: 3, no limit")
            XCTAssertEqual(row["active"], .bool(status.reason == nil))
        }
        XCTAssertEqual(screen.homeName, "management", "a license alone is something to manage")
    }

    /// Gumroad cannot give a use back: no button, a line saying so where it would be. A signed
    /// license counts no activations. Every license store has the Web badge.
    func testALicenseThatCannotBeDeactivatedHasNoButtonAndSaysWhy() throws {
        var screen = try CCFixture.screen([])
        let day = Date(timeIntervalSince1970: 1_798_632_000)
        func license(_ store: StoreKind) -> LicenseStatus {
            LicenseStatus(
                maskedKey: "****4d51", keyStatus: .active, state: .subscribed, reason: nil, activationUsage: 1,
                activationLimit: 3, expiresAt: nil, productId: "lifetime", productName: nil, variantName: nil,
                instanceName: "test", activatedAt: day, validatedAt: day, graceEndsAt: day, store: store,
                deactivationUnsupported: store == .gumroad ? LicenseSettings.Provider.gumroad.deactivationUnsupported : nil)
        }
        for store in [StoreKind.gumroad, .polar, .keygen, .signedLicense] {
            screen.licenses = [license(store)]
            let rows = screen.model(route: [.home], dialog: nil, busy: false).ccRows
            let hasButton = rows.contains { $0["path_id"] == .string(CustomerCenterScreen.deactivateLicensePathId) }
            let note = rows.first { $0["kind"] == "note" }?["title"]
            XCTAssertEqual(hasButton, store != .gumroad, store.rawValue)
            XCTAssertEqual(
                note,
                store == .gumroad
                    ? "This license can't be deactivated from the app. To move it to another computer, ask the seller to reset it."
                    : nil, store.rawValue)
            let row = try XCTUnwrap(rows.first { $0["kind"] == "license" })
            XCTAssertEqual(row["badge"], "Web", store.rawValue)
            XCTAssertEqual(row["lines"]?.arrayValue?.count, store == .signedLicense ? 1 : 2, store.rawValue)
        }
    }
}
