import Foundation
import PaywallCore
import XCTest

/// The page protocol end to end: what the host delivers after the ping, HTML templating,
/// and the messages whose effects leave the page.
final class ProtocolTests: EndToEndTestCase {
    private let catalog = EndToEndTestCase.packageRoot.appendingPathComponent("templates/classic/store.json").path
    private let slots = "primary=lumen.pro.yearly,secondary=lumen.pro.monthly,tertiary=lumen.pro.lifetime"
    private var dataDir: String { workDir.appendingPathComponent("data").path }

    private func present(
        _ bundle: URL, _ scripts: [String], _ extra: [String] = [],
        environment: [String: String?] = [:]
    ) throws -> PaywallProcess.Outcome {
        try PaywallProcess.run(
            [
                "present", bundle.path, "--store", catalog, "--data-dir", dataDir, "--products", slots,
                "--events", eventsPath, "--timeout", "30",
            ] + extra + scripts.flatMap { ["--eval", $0] },
            in: workDir, environment: environment)
    }

    /// Everything the recorder page was sent, as the host delivered it.
    private func delivered(_ extra: [String] = []) throws -> [JSONValue] {
        let result = try present(try fixtureBundle("recorder"), ["report(); Paywall.close()"], extra)
        XCTAssertEqual(result.stdout, "{\"result\":\"declined\"}\n", result.stderr)
        let data = try XCTUnwrap(loggedEvents().first { $0.name == .custom }?.params["data"]?.stringValue)
        return try XCTUnwrap(try JSONValue(parsing: data).arrayValue)
    }

    func testAfterThePingThePageGetsProductsVariablesAndPrefix() throws {
        let events = try delivered()
        let names = events.compactMap { $0["event_name"]?.stringValue }
        XCTAssertEqual(Array(names.prefix(3)), ["products", "template_variables", "template_substitutions_prefix"])
        XCTAssertTrue(
            names.contains(EventName.paywallOpen.rawValue), "lifecycle events reach a page's own window.paywall: \(names)")
        XCTAssertEqual(events[0]["products"]?.arrayValue?.first, ["product": "primary", "productId": "lumen.pro.yearly"])
        let variables = try XCTUnwrap(events[1]["variables"])
        XCTAssertEqual(variables["primary"]?["price"], "$39.99")
        XCTAssertEqual(variables["primary"]?["monthlyPrice"], "$3.33")
        XCTAssertEqual(variables["primary"]?["trialPeriodText"], "1-week free trial")
        XCTAssertEqual(variables["secondary"]?["periodly"], "monthly")
        XCTAssertEqual(variables["tertiary"]?["period"], "")
        XCTAssertEqual(variables["device"]?["platform"], "Linux")
        XCTAssertEqual(variables["device"]?["isSandbox"], true)
        XCTAssertEqual(events[2]["prefix"], "freeTrial")
    }

    func testLocaleAndThemeReachTheVariables() throws {
        let events = try delivered(["--locale", "de_DE", "--theme", "dark"])
        let variables = try XCTUnwrap(events.first { $0["event_name"] == "template_variables" }?["variables"])
        XCTAssertEqual(variables["primary"]?["price"], "39,99\u{a0}$", "ICU writes a no-break space")
        XCTAssertEqual(variables["primary"]?["period"], "Jahr")
        XCTAssertEqual(variables["device"]?["deviceLocale"], "de_DE")
        XCTAssertEqual(variables["device"]?["interfaceStyle"], "dark")
    }

    func testDevicePreloadIsSetBeforePageScriptsRun() throws {
        let bundle = try inlineBundle(
            "preload", body: "<script>window.seenAtStart = JSON.stringify(window.__SW_DEVICE_PRELOAD__);</script>")
        let result = try present(
            bundle, ["Paywall.custom(window.seenAtStart + ' ' + navigator.language); Paywall.close()"],
            ["--locale", "fr_FR"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(loggedEvents().first { $0.name == .custom }?.params["data"], #"{"deviceLocale":"fr_FR"} fr-FR"#)
    }

    func testNoTrialPrefixAfterTheUserHadATrial() throws {
        XCTAssertEqual(
            try PaywallProcess.run(
                ["store", "buy", "lumen.pro.monthly", "--store", catalog, "--data-dir", dataDir],
                in: workDir
            ).status, 0)
        let transactions = try JSONValue(
            parsing: try PaywallProcess.run(
                ["store", "transactions", "--json", "--store", catalog, "--data-dir", dataDir], in: workDir
            ).stdout)
        let id = try XCTUnwrap(transactions.arrayValue?.first?["transaction_id"]?.stringValue)
        XCTAssertEqual(
            try PaywallProcess.run(["store", "expire", id, "--store", catalog, "--data-dir", dataDir], in: workDir).status, 0)
        let prefix = try delivered().first { $0["event_name"] == "template_substitutions_prefix" }
        XCTAssertEqual(prefix?["prefix"], .null)
    }

    /// An HTML-only page: {{ }} in text and attributes, the prefix alternative, a typo reported once.
    func testHTMLTemplatingFillsPricesAndReportsUnknownVariables() throws {
        let bundle = try inlineBundle(
            "html-only",
            body: """
                <p id="price">{{ primary.price }} per {{ primary.period }}</p>
                <p id="trial" data-paywall-free-trial="Try {{ primary.trialPeriodText }}">Subscribe {{ primary.periodly }}</p>
                <p id="typo">{{ primary.pricee }} and again {{ primary.pricee }}</p>
                <img id="art" alt="{{ products.primary.localizedPeriod }} plan">
                """)
        let read = """
            Paywall.custom(JSON.stringify([price.textContent, trial.textContent, typo.textContent, art.alt])); Paywall.close()
            """
        let result = try present(bundle, [read])
        XCTAssertEqual(result.stdout, "{\"result\":\"declined\"}\n", result.stderr)
        let texts = try JSONValue(
            parsing: try XCTUnwrap(loggedEvents().first { $0.name == .custom }?.params["data"]?.stringValue))
        XCTAssertEqual(
            texts,
            [
                "$39.99 per year", "Try 1-week free trial", "{{ primary.pricee }} and again {{ primary.pricee }}",
                "1 year plan",
            ])
        let unknown = loggedEvents().filter { $0.name == .templateVariableUnknown }
        XCTAssertEqual(unknown.map { $0.params["name"] }, ["primary.pricee"], "reported once")
    }

    /// The shipped template with its manifest's slots and preview catalog: real prices, no braces.
    func testClassicTemplateShowsCatalogPrices() throws {
        let template = Self.packageRoot.appendingPathComponent("templates/classic")
        let read = "Paywall.custom(document.querySelector('.paywall').innerText); Paywall.close()"
        let result = try PaywallProcess.run(
            [
                "present", template.path, "--store", catalog, "--data-dir", dataDir, "--events", eventsPath,
                "--timeout", "30", "--eval", read,
            ], in: workDir)
        XCTAssertEqual(result.status, 0, result.stderr)
        let text = try XCTUnwrap(loggedEvents().first { $0.name == .custom }?.params["data"]?.stringValue)
        for expected in ["$39.99", "$7.99", "$99.99", "1-week free trial", "Start free trial"] {
            XCTAssertTrue(text.contains(expected), "missing \(expected) in \(text)")
        }
        XCTAssertFalse(text.contains("{{"), text)
        XCTAssertFalse(eventNames().contains(.templateVariableUnknown))
    }

    func testOpenURLOpensAnInAppBrowser() throws {
        let bundle = try inlineBundle("links", body: "<p>links</p>")
        let result = try present(bundle, ["Paywall.openURL('https://example.com/help')", "Paywall.close()"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(loggedEvents().first { $0.name == .urlOpenInApp }?.params["url"], "https://example.com/help")
    }

    func testNotificationsPermissionsAndCallbacks() throws {
        let bundle = try inlineBundle("messages", body: "<p>messages</p>")
        let notified = workDir.appendingPathComponent("notified.txt")
        let notifier = workDir.appendingPathComponent("notifier.sh")
        try "#!/bin/sh\nprintf '%s|%s\\n' \"$1\" \"$2\" >> '\(notified.path)'\n".write(
            to: notifier, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: notifier.path)
        let script = """
            const answers = [];
            Paywall.on('permission_result', e => answers.push(e));
            Paywall.on('callback_result', e => answers.push(e));
            Paywall.send('schedule_notification', {type: 'trial_reminder', title: 'Trial ends soon', body: 'Two days left', delay: 0});
            Paywall.send('request_permission', {permission_type: 'notification', request_id: 'r1'});
            Paywall.send('request_permission', {permission_type: 'camera', request_id: 'r2'});
            Paywall.send('request_callback', {request_id: 'c1', name: 'validate', behavior: 'blocking'});
            await new Promise(done => { const t = setInterval(() => { if (answers.length === 3) { clearInterval(t); done(); } }, 20); });
            Paywall.custom(JSON.stringify(answers));
            Paywall.close();
            """
        let result = try present(bundle, [script], environment: ["PAYWALL_NOTIFIER": notifier.path])
        XCTAssertEqual(result.stdout, "{\"result\":\"declined\"}\n", result.stderr)
        let answers = try JSONValue(
            parsing: try XCTUnwrap(loggedEvents().first { $0.name == .custom }?.params["data"]?.stringValue))
        let statuses = answers.arrayValue?.map { "\($0["event_name"]?.stringValue ?? "") \($0["status"]?.stringValue ?? "")" }
        XCTAssertEqual(
            Set(statuses ?? []),
            [
                "permission_result granted", "permission_result unsupported",
                "callback_result failure",
            ])
        XCTAssertTrue(eventNames().contains(.notificationScheduled))
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline, !FileManager.default.fileExists(atPath: notified.path) { usleep(50_000) }
        XCTAssertEqual(try String(contentsOf: notified, encoding: .utf8), "Trial ends soon|Two days left\n")
    }

    func testUserAttributesAreKeptForTheNextPresentation() throws {
        let bundle = try fixtureBundle("recorder")
        let set = try present(try inlineBundle("set", body: ""), ["Paywall.setUserAttributes({name: 'Ada'}); Paywall.close()"])
        XCTAssertEqual(set.status, 0, set.stderr)
        let result = try present(bundle, ["report(); Paywall.close()"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let data = try XCTUnwrap(loggedEvents().last { $0.name == .custom }?.params["data"]?.stringValue)
        let variables = try JSONValue(parsing: data).arrayValue?.first { $0["event_name"] == "template_variables" }
        XCTAssertEqual(variables?["variables"]?["user"]?["name"], "Ada")
        XCTAssertEqual(variables?["variables"]?["device"]?["totalPaywallViews"], 2, "both presentations counted")
    }

    func testBadLocaleThemeAndProductsOptions() throws {
        let bundle = try inlineBundle("b", body: "")
        XCTAssertEqual(try PaywallProcess.run(["present", bundle.path, "--theme", "blue"], in: workDir).status, 2)
        XCTAssertEqual(try PaywallProcess.run(["present", bundle.path, "--products", "primary"], in: workDir).status, 2)
    }
}
