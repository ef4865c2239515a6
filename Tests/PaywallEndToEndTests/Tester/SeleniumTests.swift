import Foundation
import XCTest

/// A tester's Selenium scripts (`Selenium/webdriver_test.py`, Debian's Python and
/// python3-selenium) drive the real paywall and customer center through WebKitWebDriver:
/// `paywall present|customer-center --automation` is the browser the driver launches.
final class SeleniumTests: EndToEndTestCase {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Selenium/webdriver_test.py")

    /// Runs the script's `scenario`; fails with everything it printed (its checks and the driver's log).
    private func runScript(_ scenario: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let template = Self.packageRoot.appendingPathComponent("templates/classic").path
        // Started like the paywall itself: G_DEBUG=fatal-criticals reaches it through the driver.
        let outcome = try PaywallProcess.run(
            [
                Self.script.path, "--paywall", PaywallProcess.executable.path, "--template", template,
                "--work-dir", workDir.path, "--scenario", scenario,
            ], in: workDir, executable: URL(fileURLWithPath: "/usr/bin/python3"), timeout: 180, file: file, line: line)
        XCTAssertEqual(
            outcome.status, 0, "webdriver_test.py --scenario \(scenario) failed:\n\(outcome.stdout)\n\(outcome.stderr)",
            file: file, line: line)
        XCTAssertTrue(outcome.stdout.contains("webdriver_test \(scenario): ok"), outcome.stdout, file: file, line: line)
    }

    func testSeleniumScriptBuysThroughTheClassicPaywall() throws {
        try runScript("purchase")
    }

    func testDriverQuitClosesThePaywallAsTheUserWould() throws {
        try runScript("quit")
    }

    /// Its screenshot too: without compositing (no GPU) a page at rest drew no frame for it to wait for.
    func testSeleniumScriptReadsTheCustomerCenterAndQuitClosesIt() throws {
        try runScript("customer-center")
    }

    func testWithoutTheAutomationFlagTheDriverGetsNoSession() throws {
        try runScript("refused")
    }
}
