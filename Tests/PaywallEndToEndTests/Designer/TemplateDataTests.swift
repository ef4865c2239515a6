import Foundation
import PaywallCore
import XCTest

/// Template values are data, in real WebKit: a filled-in `href` never becomes a `javascript:`
/// URL, a `javascript:` link in a bundle does not run, and switching the substitution prefix
/// never parses anything again as markup or as a template.
final class TemplateDataTests: EndToEndTestCase {
    private let catalog = EndToEndTestCase.packageRoot.appendingPathComponent("templates/classic/store.json").path
    private let slots = "primary=lumen.pro.yearly,secondary=lumen.pro.monthly,tertiary=lumen.pro.lifetime"
    private var dataDir: String { workDir.appendingPathComponent("data").path }

    private func present(_ bundle: URL, _ script: String) throws -> PaywallProcess.Outcome {
        try PaywallProcess.run(
            [
                "present", bundle.path, "--store", catalog, "--data-dir", dataDir, "--products", slots,
                "--events", eventsPath, "--timeout", "30", "--eval", script,
            ], in: workDir)
    }

    /// Keeps `attributes` (JavaScript object text) as the user's, as a page would set them.
    private func setUserAttributes(_ attributes: String) throws {
        let set = try present(try inlineBundle("set", body: ""), "Paywall.setUserAttributes(\(attributes)); Paywall.close()")
        XCTAssertEqual(set.status, 0, set.stderr)
        try? FileManager.default.removeItem(atPath: eventsPath)
    }

    /// Clicks `id`, then (a task later, after anything the click queued) reports `report` and closes.
    private func clickThenReport(_ id: String, _ report: String) -> String {
        "document.getElementById('\(id)').click(); setTimeout(() => { Paywall.custom(\(report)); Paywall.close() }, 200)"
    }

    private var customs: [String] { loggedEvents().filter { $0.name == .custom }.compactMap { $0.params["data"]?.stringValue } }

    func testAFilledInJavascriptHrefIsNotSet() throws {
        try setUserAttributes(#"{site: "javascript:Paywall.custom('ran')", home: "https://example.com/a"}"#)
        let bundle = try inlineBundle(
            "href", body: #"<a id="site" href="{{ user.site }}">site</a><a id="home" href="{{ user.home }}">home</a>"#)
        let result = try present(bundle, clickThenReport("site", "String(site.getAttribute('href')) + ' ' + home.href"))
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(customs, ["null https://example.com/a"])
        let blocked = try XCTUnwrap(loggedEvents().first { $0.name == .navigationBlocked }, "\(eventNames())")
        XCTAssertEqual(blocked.params["url"], "javascript:Paywall.custom('ran')")
        XCTAssertTrue(blocked.params["reason"]?.stringValue?.contains("http, https, mailto") ?? false, "\(blocked.params)")
    }

    func testAJavascriptLinkInABundleDoesNotRun() throws {
        let bundle = try inlineBundle("link", body: #"<a id="js" href=" JavaScript:Paywall.custom('ran')">run</a>"#)
        let result = try present(bundle, clickThenReport("js", "'after'"))
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(customs, ["after"])
        XCTAssertEqual(
            loggedEvents().first { $0.name == .navigationBlocked }?.params["url"], " JavaScript:Paywall.custom('ran')")
    }

    /// An SVG link (its `href` is an object, or an `xlink:href`) and a form's `javascript:`
    /// action are stopped as an HTML link is.
    func testJavascriptInAnSVGLinkOrAFormActionDoesNotRun() throws {
        let bundle = try inlineBundle(
            "svg",
            body: #"""
                <svg width="200" height="40" xmlns:xlink="http://www.w3.org/1999/xlink">
                <a id="plain" href="javascript:Paywall.custom('ran')"><text x="5" y="20">one</text></a>
                <a id="xlink" xlink:href="javascript:Paywall.custom('ran')"><text x="80" y="20">two</text></a></svg>
                <form action="javascript:Paywall.custom('ran')"><button id="go">go</button></form>
                """#)
        let click = "new MouseEvent('click', {bubbles: true, cancelable: true})"
        let script = """
            document.querySelector('#plain text').dispatchEvent(\(click));
            document.querySelector('#xlink text').dispatchEvent(\(click));
            document.getElementById('go').click();
            setTimeout(() => { Paywall.custom('after'); Paywall.close() }, 300)
            """
        let result = try present(bundle, script)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(customs, ["after"])
        XCTAssertEqual(loggedEvents().filter { $0.name == .navigationBlocked }.count, 3, "\(eventNames())")
    }

    /// The trial prefix, then none (as after a trial purchase): the element gets its own nodes
    /// back, and a value holding markup or `{{ }}` stays text.
    func testThePrefixSwitchNeverParsesValuesAgain() throws {
        try setUserAttributes(#"{name: "</noscript><img src=x onerror=\"Paywall.custom('ran')\">{{ primary.price }}"}"#)
        let bundle = try inlineBundle(
            "prefix",
            body:
                #"<p id="offer" data-paywall-free-trial="Try it"><noscript>{{ user.name }}</noscript><b id="n">{{ user.name }}</b></p>"#
        )
        let none = "btoa(JSON.stringify([{event_name: 'template_substitutions_prefix', prefix: null}]))"
        let script = """
            const before = offer.textContent;
            window.paywall.accept64(\(none));
            setTimeout(() => {
              Paywall.custom(JSON.stringify([before, document.getElementById('n').textContent, offer.querySelectorAll('img').length]));
              Paywall.close();
            }, 200)
            """
        let result = try present(bundle, script)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(customs.contains("ran"), "\(customs)")
        let report = try XCTUnwrap(try JSONValue(parsing: try XCTUnwrap(customs.last)).arrayValue)
        XCTAssertEqual(report.count, 3)
        XCTAssertEqual(report.first, "Try it")
        XCTAssertEqual(report.dropFirst().first?.stringValue?.contains("{{ primary.price }}"), true, "\(report)")
        XCTAssertEqual(report.last, 0, "no element made from a value")
    }
}
