import Foundation
import PaywallCore
import XCTest

/// `--strict` runs: a script that throws or never settles ends the run at once with
/// `script_error` and exit 4, instead of waiting for `--timeout`.
final class StrictRunTests: EndToEndTestCase {
    private var dataDir: String { workDir.appendingPathComponent("data").path }
    private let catalog = EndToEndTestCase.packageRoot.appendingPathComponent("templates/classic/store.json").path
    private let template = EndToEndTestCase.packageRoot.appendingPathComponent("templates/classic").path

    /// `--timeout 60` is only a safety net: a run that reaches it failed the test (exit 3).
    private func present(_ extra: [String], _ scripts: [String]) throws -> PaywallProcess.Outcome {
        try PaywallProcess.run(
            ["present", template, "--store", catalog, "--data-dir", dataDir, "--events", eventsPath, "--timeout", "60"]
                + extra + scripts.flatMap { ["--eval", $0] }, in: workDir, timeout: 90)
    }

    private func scriptError(_ result: PaywallProcess.Outcome, file: StaticString = #filePath, line: UInt = #line) throws
        -> String
    {
        XCTAssertEqual(result.status, 4, "stdout: \(result.stdout) stderr: \(result.stderr)", file: file, line: line)
        let json = try JSONValue(parsing: result.stdout)
        XCTAssertEqual(json["result"], "script_error", result.stdout, file: file, line: line)
        return json["message"]?.stringValue ?? ""
    }

    func testThrowingScriptEndsAStrictPresentWithScriptError() throws {
        let result = try present(["--strict"], ["throw new Error('no such button')", "Paywall.close()"])
        let message = try scriptError(result)
        XCTAssertTrue(message.contains("--eval #1") && message.contains("no such button"), message)
        XCTAssertFalse(eventNames().contains(.paywallDecline), "the second script never ran: \(eventNames())")
        XCTAssertEqual(loggedEvents().last { $0.name == .paywallClose }?.params["result"], "script_error")
    }

    /// The script that closed the paywall still counts: a throw after the close fails the run.
    func testAThrowAfterTheScriptClosedThePaywallFailsAStrictRun() throws {
        let message = try scriptError(try present(["--strict"], ["Paywall.close(); throw new Error('assert failed')"]))
        XCTAssertTrue(message.contains("assert failed"), message)
        let bought = try present(["--strict"], ["document.getElementById('purchase').click()"])
        XCTAssertEqual(bought.status, 0, bought.stderr)
        XCTAssertEqual(try JSONValue(parsing: bought.stdout)["result"], "purchased")
    }

    /// A script may end in a line comment.
    func testAScriptEndingInALineCommentRuns() throws {
        let result = try present(["--strict"], ["Paywall.close() // done"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "{\"result\":\"declined\"}\n")
    }

    func testScriptThatNeverSettlesEndsAStrictRunAfterTheScriptTimeout() throws {
        let result = try present(["--strict", "--script-timeout", "1"], ["await new Promise(() => {})"])
        let message = try scriptError(result)
        XCTAssertTrue(message.contains("--eval #1") && message.contains("did not settle within 1 s"), message)
    }

    /// Without --strict a failing script is reported on stderr and the next one still runs.
    func testWithoutStrictAFailingOrHangingScriptIsReportedAndTheRunGoesOn() throws {
        let result = try present(
            ["--script-timeout", "1"], ["throw new Error('boom')", "await new Promise(() => {})", "Paywall.close()"])
        XCTAssertEqual(result.stdout, "{\"result\":\"declined\"}\n", result.stderr)
        XCTAssertEqual(result.status, 0)
        XCTAssertTrue(result.stderr.contains("--eval #1 threw") && result.stderr.contains("boom"), result.stderr)
        XCTAssertTrue(result.stderr.contains("--eval #2 did not settle within 1 s"), result.stderr)
    }

    func testTimeoutKeepsExitThreeUnderStrict() throws {
        let result = try PaywallProcess.run(
            ["present", template, "--store", catalog, "--data-dir", dataDir, "--strict", "--timeout", "1"], in: workDir)
        XCTAssertEqual(result.stdout, "{\"result\":\"timeout\"}\n", result.stderr)
        XCTAssertEqual(result.status, 3)
    }

    func testBadScriptTimeoutIsAUsageError() throws {
        let result = try PaywallProcess.run(["present", template, "--script-timeout", "soon"], in: workDir)
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("--script-timeout must be"), result.stderr)
    }

    func testStrictCustomerCenterSnapshotWhoseScriptFailsWritesNothing() throws {
        let png = workDir.appendingPathComponent("cc.png")
        let result = try PaywallProcess.run(
            [
                "customer-center", "--store", catalog, "--data-dir", dataDir, "--snapshot", png.path, "--strict",
                "--eval", "await CustomerCenter.waitFor(m => m.screen === 'no such screen', 200)",
            ], in: workDir, timeout: 90)
        let message = try scriptError(result)
        XCTAssertTrue(message.contains("no matching customer-center screen"), message)
        XCTAssertFalse(FileManager.default.fileExists(atPath: png.path), "no PNG of a screen the scripts did not reach")
    }

    func testStrictCustomerCenterWhoseScriptThrowsEndsWithScriptError() throws {
        let result = try PaywallProcess.run(
            [
                "customer-center", "--store", catalog, "--data-dir", dataDir, "--strict", "--timeout", "60",
                "--eval", "CustomerCenter.tap('#nothing-here')",
            ], in: workDir, timeout: 90)
        let message = try scriptError(result)
        XCTAssertTrue(message.contains("nothing on screen matches #nothing-here"), message)
    }

    /// `snapshot` has no scripts; it takes --strict for its other checks.
    func testSnapshotAcceptsStrict() throws {
        let png = workDir.appendingPathComponent("s.png")
        let result = try PaywallProcess.run(["snapshot", template, "--out", png.path, "--strict"], in: workDir)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: png.path))
    }
}
