import Foundation
import XCTest

/// axe-core (PyPI's selenium-axe-python 2.2.0, in the venv `.ci/run` makes) in the real
/// paywall window through Selenium and `--automation`: every template, the customer center
/// and the fallback paywall, rules wcag2a/2aa/21a/21aa, light and dark, English and Arabic.
final class AccessibilityAuditTests: EndToEndTestCase {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Accessibility/axe_audit.py")
    /// The venv `scripts/a11y-venv` makes (scripts/setup runs it).
    static let python = packageRoot.appendingPathComponent(".build/a11y-venv/bin/python")
    /// The axe-core that venv's selenium-axe-python installs, for `paywall validate --a11y --axe`.
    static let axeScript = packageRoot.appendingPathComponent(
        ".build/a11y-venv/lib/python3.11/site-packages/selenium_axe_python/axe-core/axe.min.js")

    /// Runs the audit; returns what it printed. `expectClean`: zero violations, exit 0.
    @discardableResult
    private func audit(
        _ arguments: [String], expectClean: Bool = true, file: StaticString = #filePath, line: UInt = #line
    ) throws -> String {
        guard FileManager.default.isExecutableFile(atPath: Self.python.path) else {
            XCTFail(
                "no \(Self.python.path): make it with scripts/a11y-venv (scripts/setup runs it)",
                file: file, line: line)
            return ""
        }
        let dir = workDir.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let outcome = try PaywallProcess.run(
            [Self.script.path, "--paywall", PaywallProcess.executable.path, "--work-dir", dir.path] + arguments, in: dir,
            executable: Self.python, timeout: 300, file: file, line: line)
        if expectClean {
            XCTAssertEqual(outcome.status, 0, "\(arguments):\n\(outcome.stdout)\n\(outcome.stderr)", file: file, line: line)
            XCTAssertTrue(outcome.stdout.contains(": ok (4 runs)"), outcome.stdout, file: file, line: line)
        }
        return outcome.stdout + outcome.stderr
    }

    private func template(_ name: String) -> [String] {
        let folder = Self.packageRoot.appendingPathComponent("templates/\(name)")
        return ["--bundle", folder.path, "--store", folder.appendingPathComponent("store.json").path]
    }

    func testClassicHasNoViolations() throws { try audit(template("classic")) }
    func testMinimalHasNoViolations() throws { try audit(template("minimal")) }
    func testComparisonHasNoViolations() throws { try audit(template("comparison")) }
    func testTrialTimelineHasNoViolations() throws { try audit(template("trial-timeline")) }
    func testCarouselHasNoViolations() throws { try audit(template("carousel")) }
    func testLifetimeHasNoViolations() throws { try audit(template("lifetime")) }

    func testWinbackHasNoViolationsForALapsedSubscriberAndForAnyoneElse() throws {
        try audit(template("winback"))
        // A lapsed subscriber sees the offer: seeded in the data directory the audit's runs use.
        let lapsed = try auditDirectorySeeded(
            product: "lumen.pro.yearly", state: "expired", catalog: "templates/winback/store.json")
        try audit(template("winback") + ["--data-dir-of", lapsed.path])
    }

    func testTheCustomerCenterHasNoViolations() throws {
        try audit(["--customer-center", "--store", Self.packageRoot.appendingPathComponent("templates/classic/store.json").path])
    }

    func testTheFallbackPaywallHasNoViolations() throws {
        // A product the catalog lacks: the runtime shows its fallback paywall instead of the page.
        try audit(template("classic") + ["--products", "secondary=not.in.catalog"])
    }

    func testTheAuditFindsWhatItLooksFor() throws {
        let bundle = try inlineBundle(
            "inaccessible",
            body: """
                <p style="color:#bbb;background:#fff">Barely legible</p><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
                <button></button>
                """)
        let output = try audit(["--bundle", bundle.path, "--themes", "light", "--locales", "en_US"], expectClean: false)
        for rule in ["color-contrast", "image-alt", "button-name"] {
            XCTAssertTrue(output.contains(rule), "\(rule) not reported:\n\(output)")
        }
    }

    func testValidateA11yListsEachProblemWithItsElement() throws {
        let bundle = try inlineBundle(
            "inaccessible", body: "<title>t</title><p style=\"color:#bbb;background:#fff\">faint</p><button></button>")
        let outcome = try PaywallProcess.run(
            ["validate", "--a11y", bundle.path, "--axe", Self.axeScript.path], in: workDir, timeout: 180)
        XCTAssertEqual(outcome.status, 1, outcome.stdout + outcome.stderr)
        for theme in ["light", "dark"] {
            for locale in ["en_US", "ar_EG"] {
                XCTAssertTrue(
                    outcome.stdout.contains(
                        "a11y (\(theme), \(locale)): button-name (critical): Buttons must have discernible text; element button"),
                    outcome.stdout)
                XCTAssertTrue(outcome.stdout.contains("a11y (\(theme), \(locale)): color-contrast (serious)"), outcome.stdout)
            }
        }
        XCTAssertTrue(outcome.stdout.contains("a11y: 8 problem(s) in \(bundle.path)"), outcome.stdout)
    }

    func testValidateA11ySaysHowToGetAxeCoreWhenThereIsNone() throws {
        let bundle = try inlineBundle("plain", body: "<title>t</title><p>hello</p>")
        // A PATH whose python3 has no selenium-axe-python, and no $PAYWALL_AXE.
        let outcome = try PaywallProcess.run(
            ["validate", "--a11y", bundle.path], in: workDir, environment: ["PATH": "/usr/bin:/bin", "PAYWALL_AXE": nil])
        XCTAssertEqual(outcome.status, 1)
        XCTAssertTrue(outcome.stderr.contains("pip install selenium-axe-python==2.2.0"), outcome.stderr)
        XCTAssertTrue(outcome.stderr.contains("--axe"), outcome.stderr)
    }

    /// A data directory where `paywall store seed` put the user in `state`.
    private func auditDirectorySeeded(product: String, state: String, catalog: String) throws -> URL {
        let data = workDir.appendingPathComponent("seeded")
        let seeded = try PaywallProcess.run(
            [
                "store", "seed", product, state, "--store", Self.packageRoot.appendingPathComponent(catalog).path,
                "--data-dir", data.path,
            ], in: workDir)
        XCTAssertEqual(seeded.status, 0, seeded.stderr)
        return data
    }
}
