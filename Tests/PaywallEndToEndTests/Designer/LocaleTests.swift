import Foundation
import PaywallCore
import XCTest

/// The locale a window command uses: `--locale` or the environment, resolved onto the tables.
final class LocaleTests: EndToEndTestCase {
    func testALocaleThatIsNotAnIdentifierIsAUsageError() throws {
        let bundle = try inlineBundle("b", body: "")
        let result = try PaywallProcess.run(["present", bundle.path, "--locale", "garbage!!@#"], in: workDir)
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("--locale must be a locale identifier"), result.stderr)
    }

    func testALocaleWithoutATableFallsBackToEnglishAndSaysSoOnce() throws {
        let bundle = try inlineBundle("b", body: "<script>Paywall.close()</script>")
        let result = try PaywallProcess.run(
            [
                "present", bundle.path, "--locale", "xx_YY", "--events", eventsPath,
                "--timeout", "30",
            ], in: workDir)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr.components(separatedBy: "no strings for the locale 'xx_YY'").count, 2, result.stderr)
        let fallbacks = loggedEvents().filter { $0.name == .localeFallback }
        XCTAssertEqual(fallbacks.map(\.params), [["requested": "xx_YY", "resolved": "en"]])
    }

    func testGarbageInTheEnvironmentFallsBackToEnglishWithoutFailing() throws {
        let bundle = try inlineBundle("b", body: "<script>Paywall.close()</script>")
        let result = try PaywallProcess.run(
            ["present", bundle.path, "--events", eventsPath, "--timeout", "30"], in: workDir,
            environment: ["LANG": "garbage!!@#", "LC_ALL": nil, "LC_MESSAGES": nil])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(loggedEvents().first { $0.name == .localeFallback }?.params["resolved"], "en")
    }
}
