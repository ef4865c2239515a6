import Foundation
import PaywallCore
import XCTest

/// `paywall present --condition` and `--entitlement`: who is shown a paywall, with the
/// config's words.
final class ConditionFlagTests: EndToEndTestCase {
    private var dataDir: String { workDir.appendingPathComponent("data").path }
    private let catalog = EndToEndTestCase.packageRoot.appendingPathComponent("templates/classic/store.json").path
    private let template = EndToEndTestCase.packageRoot.appendingPathComponent("templates/classic").path

    private func present(_ extra: [String]) throws -> PaywallProcess.Outcome {
        try PaywallProcess.run(
            [
                "present", template, "--store", catalog, "--data-dir", dataDir, "--events", eventsPath,
                "--timeout", "30", "--eval", "Paywall.close()",
            ] + extra, in: workDir)
    }

    func testConditionsDecideWhoIsShownThePaywall() throws {
        let bought = try PaywallProcess.run(
            ["store", "buy", "lumen.pro.monthly", "--store", catalog, "--data-dir", dataDir],
            in: workDir)
        XCTAssertEqual(bought.status, 0, bought.stderr)
        XCTAssertEqual(try present([]).stdout, "{\"result\":\"skipped\",\"reason\":\"subscribed\"}\n", "the default")
        XCTAssertEqual(try present(["--condition", "always"]).stdout, "{\"result\":\"declined\"}\n", "an upgrade paywall")
        XCTAssertEqual(try present(["--entitlement", "pro"]).stdout, "{\"result\":\"skipped\",\"reason\":\"entitled\"}\n")
        XCTAssertEqual(
            try present(["--entitlement", "pro", "--entitlement", "sync"]).stdout, "{\"result\":\"declined\"}\n",
            "shown unless the user has all of them")
        let requests = loggedEvents().filter { $0.name == .paywallPresentationRequest }.map { $0.params["reason"] }
        XCTAssertEqual(requests, ["userIsSubscribed", nil, "userHasEntitlements", nil])
        // A skipped paywall was never opened, so it is not closed either.
        let shown = loggedEvents().map(\.name).filter { [.paywallOpen, .paywallClose].contains($0) }
        XCTAssertEqual(shown, [.paywallOpen, .paywallClose, .paywallOpen, .paywallClose])
    }

    func testBadConditionsAreUsageErrors() throws {
        let cases: [([String], String)] = [
            (["--condition", "sometimes"], "--condition must be always or check_user_subscription"),
            (["--condition", "always", "--entitlement", "pro"], "--entitlement goes with the entitlements condition"),
            (["--condition", "entitlements"], "--condition entitlements needs at least one --entitlement ID"),
        ]
        for (arguments, message) in cases {
            let result = try PaywallProcess.run(["present", template] + arguments, in: workDir)
            XCTAssertEqual(result.status, 2, "\(arguments)")
            XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
    }
}
