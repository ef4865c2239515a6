import Foundation
import PaywallCore
import XCTest

/// `paywall placement` (the dry run), `paywall assign` and `paywall config validate`, run as a
/// tester runs them, over the issue's example config.
final class PlacementDryRunTests: EndToEndTestCase {
    private var config: URL { workDir.appendingPathComponent("config.json") }

    static let configText = #"""
        {"paywalls": [{"id": "upsell_a", "manifest_url": "/b/a"}, {"id": "upsell_b", "manifest_url": "/b/b"}],
         "placements": {"export_pdf": {"paywall": "upsell_a", "gated": true}},
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

    /// `configText` with both variants' paywalls showing `templates/classic` (for runs that
    /// present them).
    static var configShowingClassic: String {
        let template = packageRoot.appendingPathComponent("templates/classic").path
        return configText.replacingOccurrences(of: "\"/b/a\"", with: "\"\(template)\"")
            .replacingOccurrences(of: "\"/b/b\"", with: "\"\(template)\"")
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try Data(Self.configText.utf8).write(to: config)
    }

    private func placement(_ arguments: [String], dataDir: String = "data") throws -> PaywallProcess.Outcome {
        let result = try PaywallProcess.run(
            ["placement"] + arguments + ["--config", config.path, "--data-dir", workDir.appendingPathComponent(dataDir).path],
            in: workDir)
        XCTAssertEqual(result.status, 0, result.stderr)
        return result
    }

    private func json(_ arguments: [String], dataDir: String = "data") throws -> JSONValue {
        try JSONValue(parsing: try placement(arguments + ["--json"], dataDir: dataDir).stdout)
    }

    func testExplainForAGermanNewUserAndAnEnglishOne() throws {
        // alice's bucket in exp1 is 2071 (SHA-256("exp1:alice")): variant a's slice is 0-4499.
        let german = try placement(["export_pdf", "--user", "alice", "--locale", "de_DE", "--explain"]).stdout
        XCTAssertEqual(
            german,
            """
            placement export_pdf: campaign launch, user alice (assignment key alice)
            audience 1 de_new: matches
              filter: device.deviceLanguageCode == 'de' && device.daysSinceInstall < 7
                device.deviceLanguageCode = "de"
                device.deviceLanguageCode == 'de' = true
                device.daysSinceInstall = 0
                device.daysSinceInstall < 7 = true
                device.deviceLanguageCode == 'de' && device.daysSinceInstall < 7 = true
              cap: 0 of 3
            experiment exp1: bucket 2071 of 10000 -> variant a (bucket)
            result: paywall
            paywall: upsell_a
            campaign: launch
            audience: de_new
            experiment: exp1
            variant: a

            """)
        let english = try placement(["export_pdf", "--user", "alice", "--locale", "en_US", "--explain"]).stdout
        XCTAssertTrue(english.contains("audience 1 de_new: does not match\n"), english)
        XCTAssertTrue(english.contains("    device.deviceLanguageCode == 'de' = false\n"), english)
        XCTAssertTrue(english.contains("audience 2 everyone: matches\n  filter: none (everyone)\n"), english)
        XCTAssertTrue(english.contains("experiment exp0: bucket "), english)
        XCTAssertTrue(english.hasSuffix("audience: everyone\nexperiment: exp0\nvariant: a\n"), english)
    }

    func testJSONHasEveryKeyAndOneUserGetsOneVariantAcrossDataDirectories() throws {
        let outcome = try json(["export_pdf", "--user", "alice", "--locale", "de"])
        XCTAssertEqual(
            outcome,
            [
                "result": "paywall", "paywall": "upsell_a", "campaign_id": "launch", "audience_id": "de_new",
                "experiment_id": "exp1", "variant_id": "a",
            ])
        XCTAssertEqual(try json(["export_pdf", "--user", "alice", "--locale", "de"], dataDir: "other"), outcome)
        XCTAssertEqual(
            try json(["nowhere"]),
            [
                "result": "placement_not_found", "paywall": .null, "campaign_id": .null, "audience_id": .null,
                "experiment_id": .null, "variant_id": .null,
            ])
        // Users land in a, b and the holdout (u1 and u2 in hold, u3 in a, u5 in b by their buckets).
        var variants: Set<String> = []
        for user in ["u1", "u2", "u3", "u4", "u5", "u6"] {
            variants.insert(try json(["export_pdf", "--user", user, "--locale", "de"])["variant_id"]?.stringValue ?? "")
        }
        XCTAssertEqual(variants, ["a", "b", "hold"])
        XCTAssertEqual(try json(["export_pdf", "--user", "u1", "--locale", "de"])["result"], "holdout")
    }

    func testAttributesAndParamsReachTheFilters() throws {
        let text = Self.configText.replacingOccurrences(
            of: #""filter": "device.deviceLanguageCode == 'de' && device.daysSinceInstall < 7""#,
            with: #""filter": "user.age >= 30 && user.beta && params.source == 'menu'""#)
        try Data(text.utf8).write(to: config)
        let matched = try json([
            "export_pdf", "--user", "alice", "--attribute", "age=30", "--attribute", "beta=true", "--param", "source=menu",
        ])
        XCTAssertEqual(matched["audience_id"], "de_new")
        let younger = try json([
            "export_pdf", "--user", "alice", "--attribute", "age=29", "--attribute", "beta=true", "--param", "source=menu",
        ])
        XCTAssertEqual(younger["audience_id"], "everyone")
    }

    func testWithTheFakeStoreTheFiltersSeeTheUsersStatus() throws {
        let catalog = Self.packageRoot.appendingPathComponent("templates/classic/store.json").path
        let dataDir = workDir.appendingPathComponent("data").path
        let bought = try PaywallProcess.run(
            ["store", "buy", "lumen.pro.monthly", "--store", catalog, "--data-dir", dataDir, "--user", "bob"], in: workDir)
        XCTAssertEqual(bought.status, 0, bought.stderr)
        let text = Self.configText.replacingOccurrences(
            of: #""filter": "device.deviceLanguageCode == 'de' && device.daysSinceInstall < 7""#,
            with: #""filter": "device.subscriptionStatus == 'ACTIVE' && 'pro' in device.activeEntitlements""#)
        try Data(text.utf8).write(to: config)
        XCTAssertEqual(try json(["export_pdf", "--user", "bob", "--store", catalog])["audience_id"], "de_new")
        XCTAssertEqual(try json(["export_pdf", "--user", "bob"])["audience_id"], "everyone", "without the store: UNKNOWN")
    }

    func testAssignForcesAVariantAndClearForgetsIt() throws {
        let dataDir = workDir.appendingPathComponent("data").path
        let forced = try PaywallProcess.run(
            [
                "assign", "--experiment", "exp1", "--variant", "b", "--user", "alice", "--config", config.path, "--data-dir",
                dataDir,
            ],
            in: workDir)
        XCTAssertEqual(forced.status, 0, forced.stderr)
        XCTAssertEqual(try json(["export_pdf", "--user", "alice", "--locale", "de"])["variant_id"], "b")
        XCTAssertTrue(
            try placement(["export_pdf", "--user", "alice", "--locale", "de", "--explain"]).stdout.contains(
                "-> variant b (forced)"))
        let unknown = try PaywallProcess.run(
            [
                "assign", "--experiment", "exp1", "--variant", "zz", "--user", "alice", "--config", config.path, "--data-dir",
                dataDir,
            ],
            in: workDir)
        XCTAssertEqual(unknown.status, 1)
        XCTAssertTrue(unknown.stderr.contains("experiment \"exp1\" has no variant \"zz\" (variants: a, b, hold)"), unknown.stderr)
        let cleared = try PaywallProcess.run(
            ["assign", "--experiment", "exp1", "--clear", "--user", "alice", "--data-dir", dataDir], in: workDir)
        XCTAssertEqual(cleared.status, 0, cleared.stderr)
        XCTAssertEqual(try json(["export_pdf", "--user", "alice", "--locale", "de"])["variant_id"], "a")
    }

    func testConfigValidateListsEveryProblem() throws {
        let broken = Self.configText.replacingOccurrences(
            of: "device.daysSinceInstall < 7\"", with: "(device.daysSinceInstall < 7\""
        )
        .replacingOccurrences(of: #""percentage": 10}"#, with: #""percentage": 5}"#)
        try Data(broken.utf8).write(to: config)
        let result = try PaywallProcess.run(["config", "validate", config.path], in: workDir)
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(
            result.stdout,
            """
            campaigns[0].audiences[0].filter: 1:66: expected ')', found end of filter
            campaigns[0].audiences[0].experiment.variants: percentages sum to 95.0, not 100

            """)
        try Data(Self.configText.utf8).write(to: config)
        XCTAssertEqual(try PaywallProcess.run(["config", "validate", config.path], in: workDir).status, 0)
    }
}
