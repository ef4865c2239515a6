import Foundation
import PaywallCore
import XCTest

/// `paywall present --placement NAME`: presents what the config's campaigns decide, with the
/// experiment's fields on every event of the presentation; a holdout shows nothing.
final class PresentPlacementTests: EndToEndTestCase {
    private var dataDir: String { workDir.appendingPathComponent("data").path }
    private let catalog = EndToEndTestCase.packageRoot.appendingPathComponent("templates/classic/store.json").path

    private func present(_ user: String) throws -> PaywallProcess.Outcome {
        let config = workDir.appendingPathComponent("config.json")
        try Data(PlacementDryRunTests.configShowingClassic.utf8).write(to: config)
        // As `present ID`: the config's paywalls come from the bundle cache.
        let loaded = try PaywallProcess.run(["config", "load", config.path, "--data-dir", dataDir], in: workDir)
        XCTAssertEqual(loaded.status, 0, loaded.stdout + loaded.stderr)
        return try PaywallProcess.run(
            [
                "present", "--placement", "export_pdf", "--config", config.path, "--user", user, "--locale", "de_DE",
                "--store", catalog, "--data-dir", dataDir, "--events", eventsPath, "--timeout", "30", "--eval", "Paywall.close()",
            ], in: workDir)
    }

    func testTwoUsersSeeVariantsAAndBAndAHoldoutSeesNothing() throws {
        // u3 lands in a, u5 in b, u1 in the holdout (their SHA-256 buckets in exp1).
        for (user, variant) in [("u3", "a"), ("u5", "b")] {
            let result = try present(user)
            XCTAssertEqual(result.stdout, "{\"result\":\"declined\"}\n", "\(user): \(result.stderr)")
            let events = loggedEvents()
            let fire = try XCTUnwrap(events.last { $0.name == .triggerFire })
            XCTAssertEqual(fire.params["variant_id"], .string(variant))
            XCTAssertEqual(fire.params["result"], "paywall")
            for name in [EventName.paywallOpen, .paywallClose] {
                let event = try XCTUnwrap(events.last { $0.name == name }, "\(name)")
                XCTAssertEqual(event.params["variant_id"], .string(variant), "\(user) \(name)")
                XCTAssertEqual(event.params["experiment_id"], "exp1")
                XCTAssertEqual(event.params["audience_id"], "de_new")
            }
        }
        let opens = loggedEvents().filter { $0.name == .paywallOpen }.count
        let held = try present("u1")
        XCTAssertEqual(
            held.stdout,
            "{\"audience_id\":\"de_new\",\"experiment_id\":\"exp1\",\"reason\":\"holdout\",\"result\":\"skipped\",\"variant_id\":\"hold\"}\n",
            held.stderr)
        XCTAssertEqual(loggedEvents().filter { $0.name == .paywallOpen }.count, opens, "the holdout opened no window")
        // The decision is in the event log all the same, so a report counts the holdout's users.
        let fired = try XCTUnwrap(loggedEvents().last { $0.name == .triggerFire }, "trigger_fire for the holdout")
        XCTAssertEqual(fired.params["result"], "holdout")
        XCTAssertEqual(fired.params["variant_id"], "hold")
    }
}
