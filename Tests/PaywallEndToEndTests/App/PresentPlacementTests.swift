import Foundation
import PaywallCore
import XCTest

/// `paywall present --placement NAME`: presents what the config's campaigns decide, with the
/// experiment's fields on every event of the presentation; a holdout shows nothing.
final class PresentPlacementTests: EndToEndTestCase {
    private var dataDir: String { workDir.appendingPathComponent("data").path }
    private let catalog = EndToEndTestCase.packageRoot.appendingPathComponent("templates/classic/store.json").path

    private func present(_ user: String, eval: String = "Paywall.close()") throws -> PaywallProcess.Outcome {
        let config = workDir.appendingPathComponent("config.json")
        try Data(PlacementDryRunTests.configShowingClassic.utf8).write(to: config)
        // As `present ID`: the config's paywalls come from the bundle cache.
        let loaded = try PaywallProcess.run(["config", "load", config.path, "--data-dir", dataDir], in: workDir)
        XCTAssertEqual(loaded.status, 0, loaded.stdout + loaded.stderr)
        return try PaywallProcess.run(
            [
                "present", "--placement", "export_pdf", "--config", config.path, "--user", user, "--locale", "de_DE",
                "--store", catalog, "--data-dir", dataDir, "--events", eventsPath, "--timeout", "30", "--eval", eval,
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

    /// The event log's lines as written (user, locale and uuid included).
    private func rawEvents() throws -> [JSONValue] {
        try String(contentsOfFile: eventsPath, encoding: .utf8).split(separator: "\n").map { try JSONValue(parsing: String($0)) }
    }

    /// What a report and the seller's analytics need is on every line of a presented run: the
    /// user, the locale, a uuid, and on the purchase its price, currency and the user's variant.
    func testEveryEventCarriesTheUserAndLocaleAndThePurchaseItsPriceAndVariant() throws {
        let result = try present("u5", eval: "Paywall.purchase('primary')")
        XCTAssertEqual(result.stdout, "{\"result\":\"purchased\",\"product_id\":\"lumen.pro.yearly\"}\n", result.stderr)
        let lines = try rawEvents()
        XCTAssertGreaterThan(lines.count, 5)
        for line in lines {
            XCTAssertEqual(line["user_id"], "u5", line.jsonText)
            XCTAssertEqual(line["locale"], "de_DE", line.jsonText)
            XCTAssertEqual(line["uuid"]?.stringValue?.count, 36, line.jsonText)
        }
        let complete = try XCTUnwrap(lines.first { $0["name"] == "transaction_complete" }?["params"])
        XCTAssertEqual(complete["price"], "39.99")
        XCTAssertEqual(complete["currency"], "USD")
        XCTAssertEqual(complete["assignments"], ["exp1": "b"])
    }

    /// The presentation condition comes first: a subscriber is skipped before any variant is
    /// assigned, any occurrence counted or any trigger fired.
    func testASubscriberIsSkippedBeforeBeingAssignedOrCounted() throws {
        let bought = try PaywallProcess.run(
            ["store", "buy", "lumen.pro.yearly", "--store", catalog, "--data-dir", dataDir, "--user", "u3"], in: workDir)
        XCTAssertEqual(bought.status, 0, bought.stderr)
        let result = try present("u3")
        XCTAssertEqual(result.stdout, "{\"reason\":\"subscribed\",\"result\":\"skipped\"}\n", result.stderr)
        XCTAssertFalse(loggedEvents().contains { $0.name == .triggerFire }, "\(eventNames())")
        let request = try XCTUnwrap(loggedEvents().first { $0.name == .paywallPresentationRequest })
        XCTAssertEqual(request.params["reason"], "userIsSubscribed")
        let store = try AssignmentStore(path: DataDirectory(explicit: dataDir).experiments)
        XCTAssertEqual(store.assignments(userKey: "u3"), [:], "a subscriber got a variant")
        XCTAssertEqual(store.occurrences(key: "de_new", since: nil), 0, "a subscriber was counted")
    }

    /// Without a user id, events name this install (one random id per data directory), so two
    /// anonymous installs are two users in a report, not one `$anonymous`.
    func testAnAnonymousUserIsThisInstallsId() throws {
        var installs: [String] = []
        for folder in ["one", "one", "two"] {
            let log = workDir.appendingPathComponent("\(folder)-\(installs.count).jsonl").path
            let result = try PaywallProcess.run(
                [
                    "present", Self.packageRoot.appendingPathComponent("templates/classic").path, "--store", catalog,
                    "--data-dir", workDir.appendingPathComponent(folder).path, "--events", log, "--timeout", "30", "--eval",
                    "Paywall.close()",
                ], in: workDir)
            XCTAssertEqual(result.stdout, "{\"result\":\"declined\"}\n", result.stderr)
            let ids = Set(
                try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map {
                    try JSONValue(parsing: String($0))["user_id"]?.stringValue ?? ""
                })
            XCTAssertEqual(ids.count, 1, "\(ids)")
            installs.append(try XCTUnwrap(ids.first))
        }
        XCTAssertTrue(installs[0].hasPrefix("install:"), installs[0])
        XCTAssertEqual(installs[0], installs[1], "one install keeps its id")
        XCTAssertNotEqual(installs[0], installs[2], "another install is another user")
    }
}
