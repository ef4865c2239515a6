import Foundation
import XCTest

/// A tester's Selenium script (`Selenium/purchase_test.py`, Debian's Python and
/// python3-selenium) drives the real paywall through WebKitWebDriver: `paywall present
/// --automation` is the browser the driver launches.
final class SeleniumTests: EndToEndTestCase {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Selenium/purchase_test.py")

    /// Runs the script's `scenario`; fails with everything it printed (its checks and the driver's log).
    private func runScript(_ scenario: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let template = Self.packageRoot.appendingPathComponent("templates/classic").path
        // Started like the paywall itself: G_DEBUG=fatal-criticals reaches it through the driver.
        let outcome = try PaywallProcess.run([
            Self.script.path, "--paywall", PaywallProcess.executable.path, "--template", template,
            "--work-dir", workDir.path, "--scenario", scenario,
        ], in: workDir, executable: URL(fileURLWithPath: "/usr/bin/python3"), timeout: 180, file: file, line: line)
        XCTAssertEqual(outcome.status, 0, "purchase_test.py --scenario \(scenario) failed:\n\(outcome.stdout)\n\(outcome.stderr)",
                       file: file, line: line)
        XCTAssertTrue(outcome.stdout.contains("purchase_test \(scenario): ok"), outcome.stdout, file: file, line: line)
    }

    func testSeleniumScriptBuysThroughTheClassicPaywall() throws {
        try runScript("purchase")
    }

    func testDriverQuitClosesThePaywallAsTheUserWould() throws {
        try runScript("quit")
    }
}
