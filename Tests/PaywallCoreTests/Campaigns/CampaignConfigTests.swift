import Foundation
import XCTest

@testable import PaywallCore

/// The config's `campaigns`: checked at load, each problem with its path and position, only
/// the campaign with a problem refused.
final class CampaignConfigTests: XCTestCase {
    static let paywalls = #"""
        "paywalls": [{"id": "upsell_a", "manifest_url": "/b/a"}, {"id": "upsell_b", "manifest_url": "/b/b"}]
        """#

    static let issueExample = #"""
        {\#(paywalls),
         "campaigns": [{"id": "launch", "placements": ["export_pdf", "app_launch"],
          "audiences": [
            {"id": "de_new", "filter": "device.deviceLanguageCode == 'de' && device.daysSinceInstall < 7",
             "occurrence": {"key": "de_new", "max_count": 3, "interval_minutes": 1440},
             "experiment": {"id": "exp1", "variants": [
               {"id": "a", "paywall": "upsell_a", "percentage": 45},
               {"id": "b", "paywall": "upsell_b", "percentage": 45},
               {"id": "hold", "type": "holdout", "percentage": 10}]}},
            {"id": "everyone", "experiment": {"id": "exp0", "variants": [{"id": "a", "paywall": "upsell_a", "percentage": 100}]}}]}]}
        """#

    private func config(_ text: String) throws -> PaywallConfig {
        try PaywallConfig(data: Data(text.utf8), origin: "c.json")
    }

    func testTheIssuesExampleLoads() throws {
        let config = try config(Self.issueExample)
        XCTAssertEqual(config.problems, [])
        let campaign = try XCTUnwrap(config.campaign(for: "export_pdf"))
        XCTAssertEqual(campaign.audiences.map(\.id), ["de_new", "everyone"])
        XCTAssertEqual(campaign.audiences[0].occurrence, Campaign.Occurrence(key: "de_new", maxCount: 3, intervalMinutes: 1440))
        XCTAssertEqual(campaign.audiences[0].experiment.variants.map(\.basisPoints), [4500, 4500, 1000])
        XCTAssertTrue(campaign.audiences[0].experiment.variants[2].isHoldout)
        XCTAssertNil(campaign.audiences[1].filter)
    }

    func testEachProblemNamesItsPathAndRefusesOnlyItsCampaign() throws {
        let text = #"""
            {\#(Self.paywalls),
             "campaigns": [
              {"id": "good", "placements": ["p1"], "audiences": [{"id": "all", "experiment": {"id": "e1",
                "variants": [{"id": "a", "paywall": "upsell_a", "percentage": 33.33}, {"id": "b", "paywall": "upsell_b", "percentage": 66.67}]}}]},
              {"id": "bad", "placements": ["p1", "p2"], "audiences": [
                {"id": "x", "filter": "(device.deviceLanguageCode == 'de'", "experiment": {"id": "e1", "variants": [
                  {"id": "a", "paywall": "nope", "percentage": 50}, {"id": "a", "type": "holdout", "percentage": 40.005}]}}]},
              {"id": "sum", "placements": ["p3"], "audiences": [{"id": "y", "occurrence": {"key": "k", "max_count": 0},
                "experiment": {"id": "e3", "variants": [{"id": "a", "paywall": "upsell_a", "percentage": 90}]}}]}]}
            """#
        let config = try config(text)
        XCTAssertEqual(config.campaigns.map(\.id), ["good"])
        XCTAssertEqual(
            config.problems.map(\.description),
            [
                "campaigns[1].placements[0]: placement \"p1\" is already in campaign \"good\"",
                "campaigns[1].audiences[0].filter: 1:35: expected ')', found end of filter",
                "campaigns[1].audiences[0].experiment.variants[0].paywall: no paywall \"nope\" in \"paywalls\" (ids: upsell_a, upsell_b)",
                "campaigns[1].audiences[0].experiment.variants[1].id: variant id \"a\" appears twice",
                "campaigns[1].audiences[0].experiment.variants[1].percentage: must be a number from 0 to 100 with at most two decimals",
                "campaigns[2].audiences[0].occurrence.max_count: must be a whole number of at least 1",
                "campaigns[2].audiences[0].experiment.variants: percentages sum to 90.0, not 100",
            ])
        XCTAssertEqual(config.problems.map(\.campaignId), ["bad", "bad", "bad", "bad", "bad", "sum", "sum"])
        let sums = try self.config(
            #"{\#(Self.paywalls), "campaigns": [{"id": "s", "placements": ["p"], "audiences": [{"id": "y", "experiment": {"id": "e", "variants": [{"id": "a", "paywall": "upsell_a", "percentage": 90}]}}]}]}"#
        )
        XCTAssertEqual(
            sums.problems.map(\.description), ["campaigns[0].audiences[0].experiment.variants: percentages sum to 90.0, not 100"])
    }

    func testOnlyAConfigThatIsNotJSONOrNotAnObjectStaysFatal() throws {
        XCTAssertThrowsError(try config("{"))
        XCTAssertThrowsError(try config("[]"))
        let notAList = try config(#"{\#(Self.paywalls), "campaigns": {}}"#)
        XCTAssertEqual(notAList.problems.map(\.description), ["campaigns: must be a list of campaigns"])
        XCTAssertEqual(notAList.paywalls.count, 2)
    }
}
