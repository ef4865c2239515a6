import Foundation
import XCTest

/// A tester's Selenium script (`Selenium/purchase_test.py`, Debian's Python and
/// python3-selenium) drives the real paywall through WebKitWebDriver: `paywall present
/// --automation` is the browser the driver launches.
final class SeleniumTests: EndToEndTestCase {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Selenium/purchase_test.py")

    func testSeleniumScriptBuysThroughTheClassicPaywall() throws {
        let template = Self.packageRoot.appendingPathComponent("templates/classic").path
        // Run like the paywall itself (G_DEBUG=fatal-criticals reaches it through the driver).
        let outcome = try PaywallProcess.run([
            Self.script.path, "--paywall", PaywallProcess.executable.path, "--template", template, "--work-dir", workDir.path,
        ], in: workDir, executable: URL(fileURLWithPath: "/usr/bin/python3"), timeout: 180)
        XCTAssertEqual(outcome.status, 0, "purchase_test.py failed:\n\(outcome.stdout)\n\(outcome.stderr)")
        XCTAssertTrue(outcome.stdout.contains("purchase_test: ok"), outcome.stdout)
    }
}
