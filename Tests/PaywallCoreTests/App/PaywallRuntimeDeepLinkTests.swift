import Foundation
import XCTest

@testable import PaywallCore

/// Redeem links through `PaywallRuntime.handleDeepLink`, before and after configuration.
@MainActor
final class PaywallRuntimeDeepLinkTests: XCTestCase {
    private var directory: URL!
    private var server: LemonSqueezyTestServer!
    private var events: [PaywallEvent] = []
    static let key = "38b1460a-5104-4067-a91d-77b872934d51"
    static let link = URL(string: "lumennotes://paywall/redeem?license_key=\(key)")!

    override func setUp() async throws {
        directory = try makeTemporaryDirectory("DeepLinks")
        server = try LemonSqueezyTestServer(directory: directory.appendingPathComponent("server"))
        server.keys[Self.key] = LemonSqueezyTestServer.key(id: 1)
        events = []
    }

    override func tearDown() async throws {
        XCTAssertEqual(server?.violations ?? [], [])
        server?.stop()
        removeTemporaryDirectory(directory)
    }

    private func configure() throws -> PaywallRuntime {
        let events = EventDispatcher()
        events.observe { [weak self] in self?.events.append($0) }
        return try PaywallRuntime(
            .init(
                dataDirectory: directory.appendingPathComponent("data").path,
                store: .fakeStore(catalog: server.writeCatalog(in: directory)), logLevel: .none),
            events: events, licenseServices: LicenseServices(instanceName: { "box" }, refreshesPeriodically: false))
    }

    func testALinkBeforeConfigurationIsKeptAndRedeemedOnceConfigured() async throws {
        XCTAssertTrue(PaywallRuntime.handleDeepLink(Self.link))
        XCTAssertEqual(server.requests.count, 0, "nothing is redeemed before configuration")
        let runtime = try configure()
        let outcomes = await runtime.deepLinkRedemptions?.value
        guard case .redeemed(let status)? = outcomes?.first else { return XCTFail("\(String(describing: outcomes))") }
        XCTAssertEqual(status.maskedKey, "****4d51")
        XCTAssertEqual(runtime.subscriptionStatus, .active(["pro"]))
        let received = try XCTUnwrap(events.first { $0.name == .deepLinkRedeem })
        XCTAssertEqual(received.params["queued"], true)
        XCTAssertEqual(received.params["link"], "lumennotes://paywall/redeem?license_key=****4d51")
        XCTAssertNil(try configure().deepLinkRedemptions, "a kept link is redeemed once")
    }

    /// 1,000 links before configuration would be 1,000 License API requests once configured.
    func testTheLinksKeptBeforeConfigurationAreBounded() async throws {
        let links = (0..<20).map { URL(string: "lumennotes://paywall/redeem?license_key=KEY-\($0)")! }
        XCTAssertEqual(links.map(PaywallRuntime.keepOrSend), (0..<20).map { $0 < PaywallRuntime.maxPendingDeepLinks })
        XCTAssertTrue(PaywallRuntime.keepOrSend(links[0]), "a link kept already counts once")
        XCTAssertTrue(PaywallRuntime.handleDeepLink(links[19]), "still a link the runtime handles")
        let runtime = try configure()
        let outcomes = await runtime.deepLinkRedemptions?.value
        XCTAssertEqual(outcomes?.count, PaywallRuntime.maxPendingDeepLinks)
        XCTAssertEqual(server.requests.count, PaywallRuntime.maxPendingDeepLinks)
    }

    func testALinkAfterConfigurationIsRedeemedAtOnce() async throws {
        let runtime = try configure()
        XCTAssertNil(runtime.deepLinkRedemptions)
        let outcome = await runtime.handleDeepLink(Self.link)
        guard case .redeemed = outcome else { return XCTFail("\(outcome)") }
        XCTAssertEqual(runtime.subscriptionStatus, .active(["pro"]))
        XCTAssertEqual(events.first { $0.name == .deepLinkRedeem }?.params["queued"], false)
        for event in events { XCTAssertFalse(event.jsonLine.contains(Self.key), event.jsonLine) }
    }

    func testOtherLinksAreTheApps() async throws {
        let other = URL(string: "lumennotes://open/note/42")!
        XCTAssertFalse(PaywallRuntime.handleDeepLink(other))
        let outcome = try await configure().handleDeepLink(other)
        XCTAssertEqual(outcome, .notHandled)
    }

    /// A redeem link longer than any license is the runtime's to refuse, in words, not the app's to handle.
    func testALinkTooLongIsRefusedUnread() async throws {
        let long = URL(
            string: "lumennotes://paywall/redeem?license_key=" + String(repeating: "A", count: RedeemLink.maxLinkBytes))!
        XCTAssertTrue(PaywallRuntime.handleDeepLink(long))
        let runtime = try configure()
        let outcomes = await runtime.deepLinkRedemptions?.value
        guard case .failed(let error)? = outcomes?.first else { return XCTFail("\(String(describing: outcomes))") }
        XCTAssertTrue(error.message.contains("longer than any redeem link"), error.message)
        XCTAssertEqual(server.requests.count, 0, "nothing was sent")
    }

    func testARuntimeWithoutLicensesSaysSo() async throws {
        let catalog = try writeFile(
            #"{"products": [{"id": "p", "display_name": "P", "price": "1", "currency": "USD", "kind": "consumable"}]}"#,
            to: "fake.json", in: directory)
        let runtime = try PaywallRuntime(
            .init(
                dataDirectory: directory.appendingPathComponent("fake").path,
                store: .fakeStore(catalog: catalog.path), logLevel: .none))
        let outcome = await runtime.handleDeepLink(Self.link)
        guard case .failed(let error) = outcome else { return XCTFail("\(outcome)") }
        XCTAssertTrue(error.message.contains("sells no license keys"), error.message)
    }
}
