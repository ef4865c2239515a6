import XCTest

@testable import PaywallCore

final class PresentationConditionTests: XCTestCase {
    func testWhoIsSkippedAndWhy() {
        let plus: SubscriptionStatus = .active(["plus"])
        XCTAssertEqual(PresentationCondition.checkUserSubscription.skipReason(for: plus), .subscribed)
        XCTAssertNil(PresentationCondition.checkUserSubscription.skipReason(for: .inactive))
        XCTAssertNil(PresentationCondition.always.skipReason(for: plus), "an upgrade paywall is shown to subscribers")
        let pro = PresentationCondition.entitlements(["pro"])
        XCTAssertNil(pro.skipReason(for: plus), "a Plus user is shown the Pro upsell")
        XCTAssertEqual(pro.skipReason(for: .active(["plus", "pro"])), .entitled)
        XCTAssertNil(PresentationCondition.entitlements(["pro", "sync"]).skipReason(for: .active(["pro"])), "needs all of them")
    }

    func testNamesAreTheConfigsAndTheCommandLines() {
        XCTAssertEqual(PresentationCondition(name: "always"), .always)
        XCTAssertEqual(PresentationCondition(name: "check_user_subscription"), .checkUserSubscription)
        XCTAssertEqual(PresentationCondition(name: "entitlements", entitlements: ["pro"]), .entitlements(["pro"]))
        XCTAssertNil(PresentationCondition(name: "entitlements"), "an entitlements condition names its entitlements")
        XCTAssertNil(PresentationCondition(name: "sometimes"))
        for condition in [PresentationCondition.always, .checkUserSubscription, .entitlements(["a"])] {
            XCTAssertEqual(PresentationCondition(name: condition.name, entitlements: ["a"]), condition)
        }
    }

    func testConfigPlacementsAndTheirConditions() throws {
        let json = """
            {"paywalls": [{"id": "upsell", "manifest_url": "/b", "presentation_condition": "always"},
                          {"id": "plain", "manifest_url": "/c"}],
             "placements": {"export_pdf": {"paywall": "upsell", "gated": true,
                                           "presentation_condition": "entitlements", "entitlements": ["pro"]},
                            "share": {"paywall": "upsell"},
                            "sync": {"paywall": "plain"}}}
            """
        let config = try PaywallConfig(data: Data(json.utf8), origin: "c.json")
        let export = try XCTUnwrap(config.placement("export_pdf"))
        XCTAssertEqual(export.paywall.id, "upsell")
        XCTAssertTrue(export.placement.gated)
        XCTAssertEqual(export.condition, .entitlements(["pro"]), "the placement's own condition wins")
        XCTAssertEqual(config.placement("share")?.condition, .always, "else the paywall's")
        XCTAssertEqual(config.placement("share")?.placement.gated, false, "not gated unless said")
        XCTAssertEqual(config.placement("sync")?.condition, .checkUserSubscription, "else the default")
        XCTAssertNil(config.placement("nope"))
    }

    func testBadPlacementsAreRefusedWithThePathNamed() {
        let cases: [(String, String)] = [
            (
                #""placements": {"x": {"paywall": "missing"}}"#,
                #"c.json: placements.x: no paywall "missing" in "paywalls" (ids: a)"#
            ),
            (#""placements": {"x": {}}"#, #"c.json: placements.x needs a "paywall""#),
            (#""placements": {"x": {"paywall": "a", "gated": "yes"}}"#, #"c.json: placements.x: "gated" must be true or false"#),
            (
                #""placements": {"x": {"paywall": "a", "presentation_condition": "sometimes"}}"#,
                #"c.json: placements.x: "presentation_condition" must be check_user_subscription, always or entitlements"#
            ),
            (
                #""placements": {"x": {"paywall": "a", "presentation_condition": "entitlements"}}"#,
                #"c.json: placements.x: "presentation_condition": "entitlements" needs an "entitlements" list"#
            ),
            (
                #""placements": {"x": {"paywall": "a", "presentation_condition": "always", "entitlements": ["pro"]}}"#,
                #"c.json: placements.x: "entitlements" goes with "presentation_condition": "entitlements", not "always""#
            ),
            (#""placements": []"#, #"c.json: "placements" must be an object of name -> placement"#),
        ]
        for (placements, expected) in cases {
            let json = #"{"paywalls": [{"id": "a", "manifest_url": "/a"}], "# + placements + "}"
            XCTAssertThrowsError(try PaywallConfig(data: Data(json.utf8), origin: "c.json"), placements) { error in
                XCTAssertTrue("\(error)".hasPrefix(expected), "\(error)")
            }
        }
    }
}
