import Foundation
import PaywallCore
import XCTest

/// `paywall variables BUNDLE`: the template variables a page would receive, as one JSON
/// object, without a window or a display.
final class VariablesCommandTests: EndToEndTestCase {
    private var dataDir: String { workDir.appendingPathComponent("data").path }
    private let catalog = EndToEndTestCase.packageRoot.appendingPathComponent("templates/classic/store.json").path
    private let template = EndToEndTestCase.packageRoot.appendingPathComponent("templates/classic").path
    /// No display at all: the command must not need one.
    private let noDisplay: [String: String?] = ["DISPLAY": nil, "WAYLAND_DISPLAY": nil]

    private func variables(_ extra: [String]) throws -> (PaywallProcess.Outcome, JSONValue?) {
        let result = try PaywallProcess.run(
            ["variables", template, "--data-dir", dataDir] + extra, in: workDir, environment: noDisplay)
        return (result, try? JSONValue(parsing: result.stdout))
    }

    func testPrintsTheVariablesForTheLocaleUserStoreAndThemeWithoutADisplay() throws {
        let (result, json) = try variables([
            "--store", catalog, "--locale", "de_DE", "--theme", "dark", "--user", "alice",
            "--products", "tertiary=lumen.credits.100,hero=lumen.pro.monthly",
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout.filter { $0 == "\n" }.count, 1, "one line: \(result.stdout)")
        let variables = try XCTUnwrap(json, result.stdout)
        XCTAssertEqual(variables["user"]?["id"], "alice")
        XCTAssertEqual(variables["device"]?["interfaceStyle"], "dark")
        XCTAssertEqual(variables["device"]?["deviceLocale"], "de_DE")
        XCTAssertEqual(variables["device"]?["isSandbox"], true)
        XCTAssertEqual(variables["primary"]?["price"], "39,99\u{A0}$")
        XCTAssertEqual(variables["primary"]?["trialPeriodText"], "1 Woche kostenlos testen")
        // --products laid over the manifest's slots.
        XCTAssertEqual(variables["secondary"]?["identifier"], "lumen.pro.monthly")
        XCTAssertEqual(variables["tertiary"]?["identifier"], "lumen.credits.100")
        XCTAssertEqual(variables["hero"]?["identifier"], "lumen.pro.monthly")
        XCTAssertEqual(variables["t"]?["cta.continue"], "Weiter", "the bundle's own texts in the page's language")
    }

    /// Without --store the manifest's preview catalog prices the page, and the theme is light.
    func testDefaultsToThePreviewStoreAndTheLightTheme() throws {
        let (result, json) = try variables([])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(json?["device"]?["interfaceStyle"], "light")
        XCTAssertEqual(json?["primary"]?["identifier"], "lumen.pro.yearly")
        XCTAssertEqual(json?["device"]?["isSandbox"], false)
    }

    /// The object printed is the one the page gets (the clock's values aside).
    func testPrintsWhatAPresentedPageReceives() throws {
        let options = ["--store", catalog, "--data-dir", dataDir, "--locale", "fr_FR", "--theme", "dark", "--user", "bob"]
        let present = try PaywallProcess.run(
            [
                "present", template, "--events", eventsPath, "--timeout", "60", "--eval",
                """
                await new Promise(done => Paywall.variables ? done() : Paywall.on('template_variables', done));
                Paywall.custom(JSON.stringify(Paywall.variables)); Paywall.close()
                """,
            ] + options, in: workDir, timeout: 90)
        XCTAssertEqual(present.status, 0, present.stderr)
        let sent = try XCTUnwrap(loggedEvents().first { $0.name == .custom }?.params["data"]?.stringValue)
        let printed = try PaywallProcess.run(["variables", template] + options, in: workDir, environment: noDisplay)
        XCTAssertEqual(printed.status, 0, printed.stderr)
        XCTAssertEqual(try withoutClock(JSONValue(parsing: printed.stdout)), try withoutClock(JSONValue(parsing: sent)))
    }

    private func withoutClock(_ variables: JSONValue) throws -> JSONValue {
        var object = try XCTUnwrap(variables.objectValue)
        var device = try XCTUnwrap(object["device"]?.objectValue)
        for key in ["localDate", "localTime", "utcDate", "utcTime"] { XCTAssertNotNil(device.removeValue(forKey: key), key) }
        object["device"] = .object(device)
        return .object(object)
    }

    func testAMissingProductIsReportedAndBadOptionsAreErrors() throws {
        let (missing, json) = try variables(["--products", "primary=lumen.pro.yerly"])
        XCTAssertEqual(missing.status, 0, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("slot primary: product lumen.pro.yerly is not in the catalog"), missing.stderr)
        XCTAssertNil(json?["primary"], "a product the catalog lacks has no attributes")
        let (theme, _) = try variables(["--theme", "blue"])
        XCTAssertEqual(theme.status, 2)
        XCTAssertTrue(theme.stderr.contains("--theme must be light or dark"), theme.stderr)
        let nowhere = try PaywallProcess.run(
            ["variables", workDir.appendingPathComponent("nope").path], in: workDir, environment: noDisplay)
        XCTAssertEqual(nowhere.status, 1, nowhere.stderr)
    }
}
