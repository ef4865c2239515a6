import Foundation
import XCTest

@testable import PaywallCore

/// Edge cases of the customer center found in review: bad page input, an entitlement the
/// app keeps active past its lapsed purchase, leaving mid-refund, a delegate that answers twice,
/// and configuration input the parser must refuse or fill in.
final class CustomerCenterReviewTests: XCTestCase {
    private typealias F = CCFixture
    private var dir: URL!
    override func setUpWithError() throws { dir = try makeTemporaryDirectory("CustomerCenterReviewTests") }
    override func tearDown() { removeTemporaryDirectory(dir) }

    @MainActor
    func testARenderedRevisionThatIsHugeOrNeverSentIsRefusedAndDrawingGoesOn() async throws {
        let rig = try CCSessionRig(dir: dir)
        rig.open()
        var rendered = 0
        rig.session.onRendered = { rendered += 1 }
        rig.send(#"{"event_name": "customer_center_rendered", "revision": 1e300}"#)
        rig.send(#"{"event_name": "customer_center_rendered", "revision": 1.5}"#)
        rig.send(#"{"event_name": "customer_center_rendered", "revision": 99}"#)
        let reasons = rig.events(named: EventName.pageMessageInvalid).compactMap { $0.params["reason"]?.stringValue }
        XCTAssertEqual(reasons.count, 3, "\(reasons)")
        XCTAssertTrue(reasons[0].contains("whole number"), reasons[0])
        XCTAssertTrue(reasons[2].contains("never sent"), reasons[2])
        XCTAssertEqual(rig.session.renderedRevision, 0)
        rig.send(#"{"event_name": "customer_center_rendered", "revision": \#(rig.session.revision)}"#)
        XCTAssertEqual(rendered, 1, "the real revision still counts")
    }

    func testAnEntitlementTheAppKeepsActivePastItsLapsedPurchaseGetsARow() {
        let lapsed = F.sub("old", daysAgo: 60, length: 30, willRenew: false)
        let rows = F.rows([lapsed], status: .active(["pro"]))
        XCTAssertEqual(rows.map(\.key), ["pro.monthly", "entitlement:pro"])
        XCTAssertFalse(rows[0].isActive)
        XCTAssertEqual(rows[1].kind, .entitlement)
        // While the purchase itself is active, it covers the entitlement: no second row.
        XCTAssertEqual(F.rows([F.sub("new")], status: .active(["pro"])).map(\.key), ["pro.monthly"])
    }

    @MainActor
    func testClosingWhileTheRefundConfirmationIsOpenReportsUserCancelled() async throws {
        let rig = try CCSessionRig(dir: dir)
        let delegate = RecordingCustomerCenterDelegate()
        rig.session.delegate = delegate
        try await rig.buy(FakeStoreFixture.monthly)
        rig.open()
        rig.send(#"{"event_name": "customer_center_path", "path_id": "detail", "product_id": "pro.monthly"}"#)
        rig.send(#"{"event_name": "customer_center_path", "path_id": "refund", "product_id": "pro.monthly"}"#)
        XCTAssertNotNil(rig.session.dialog?.confirming)
        rig.send(#"{"event_name": "customer_center_action", "action": "close"}"#)
        XCTAssertEqual(
            rig.events(named: .customerCenterRefundRequest).map(\.params),
            [["product_id": "pro.monthly", "status": "user_cancelled"]])
        XCTAssertEqual(delegate.refunds.map(\.status), [.userCancelled])
        XCTAssertEqual(rig.names.suffix(2), [.customerCenterRefundRequest, .customerCenterClose])
    }

    @MainActor
    func testADelegateAnsweringTwiceStartsOneRestore() async throws {
        final class TwiceDelegate: CustomerCenterDelegate {
            var resume: (@MainActor (Bool) -> Void)?
            func customerCenter(shouldRestorePurchases resume: @escaping @MainActor (Bool) -> Void) { self.resume = resume }
        }
        let rig = try CCSessionRig(dir: dir)
        let delegate = TwiceDelegate()
        rig.session.delegate = delegate
        rig.open()
        rig.send(#"{"event_name": "customer_center_path", "path_id": "restore"}"#)
        rig.send(#"{"event_name": "customer_center_path", "path_id": "restore"}"#)  // tapped again while it is asked
        let resume = try XCTUnwrap(delegate.resume)
        resume(true)
        resume(true)
        try await rig.waitUntilIdle()
        XCTAssertEqual(rig.events(named: .restoreStart).count, 1)
        XCTAssertEqual(rig.events(named: .customerCenterAction).count, 2, "both taps are reported")
    }

    func testConfigRefusesNonASCIIHexAndNonWebURLs() {
        let bad = [
            (##"{"appearance": {"accent": {"light": "#ＡＢＣＤＥＦ", "dark": "#000000"}}}"##, "appearance.accent.light"),
            (
                #"{"management": {"paths": [{"id": "x", "type": "url", "url": "javascript:alert(1)", "title": "X"}]}}"#,
                "management.paths[0].url: must be an http or https URL"
            ),
            (#"{"support": {"web_management_url": "file:///etc/passwd"}}"#, "support.web_management_url"),
            (#"{"support": {"update_feed_url": "/latest.json"}}"#, "support.update_feed_url"),
        ]
        for (json, expected) in bad {
            XCTAssertThrowsError(try CustomerCenterConfiguration(data: Data(json.utf8), origin: "cc.json"), json) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(error)")
            }
        }
    }

    func testRetitlingAScreenKeepsItsDefaultPaths() throws {
        let config = try CustomerCenterConfiguration(
            data: Data(#"{"management": {"title": "Your plan"}}"#.utf8), origin: "cc.json")
        XCTAssertEqual(config.managementScreen.title, "Your plan")
        XCTAssertEqual(config.managementScreen.paths, CustomerCenterConfiguration.defaultManagementScreen.paths)
    }

    @MainActor
    func testChangePlanProductsTheCatalogDoesNotSellAreReported() throws {
        let config = CustomerCenterConfiguration(
            managementScreen: .init(paths: [
                .init(id: "change_plan", type: .changePlan(productIds: ["pro.yearly", "pro.weekly"]))
            ]))
        XCTAssertEqual(config.problems(with: F.catalog).count, 1)
        XCTAssertTrue(config.problems(with: F.catalog)[0].contains("pro.weekly"), "\(config.problems(with: F.catalog))")
        XCTAssertEqual(CustomerCenterConfiguration.default.problems(with: F.catalog), [])
        // One missing product a path and id, for `customer-center --strict`.
        XCTAssertEqual(
            config.missingProducts(in: F.catalog),
            [MissingProduct(slot: "management/change_plan", productId: "pro.weekly", reason: .notInCatalog)])
        XCTAssertEqual(CustomerCenterConfiguration.default.missingProducts(in: F.catalog), [])
        let rig = try CCSessionRig(dir: dir, configuration: config)
        rig.open()
        XCTAssertEqual(rig.events(named: .customerCenterConfigWarning).count, 1)
    }
}
