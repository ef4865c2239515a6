import Foundation
import PaywallCore
import XCTest

/// `paywall present`: results, the event log, the page bridge and the navigation policy.
final class PresentTests: EndToEndTestCase {
    private func present(_ bundle: URL, _ extra: [String], environment: [String: String] = [:]) throws
        -> PaywallProcess.Outcome
    {
        try PaywallProcess.run(
            ["present", bundle.path, "--events", eventsPath] + extra, in: workDir,
            environment: environment)
    }

    func testClickingTheCloseButtonDeclines() throws {
        let bundle = try fixtureBundle("kitchen-sink")
        let result = try present(bundle, ["--eval", "document.getElementById('close').click()", "--timeout", "30"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "{\"result\":\"declined\"}\n")
        let names = eventNames()
        for expected in [
            EventName.paywallOpen, .webviewLoadStart, .webviewLoadComplete, .paywallDecline,
            .paywallClose,
        ] {
            XCTAssertTrue(names.contains(expected), "missing \(expected) in \(names)")
        }
        XCTAssertEqual(names.last, .paywallClose)
        XCTAssertEqual(loggedEvents().last?.params["result"], "declined")
        XCTAssertEqual(loggedEvents().last?.params["paywall_identifier"], "kitchen-sink")
    }

    func testTimeoutPrintsTimeoutAndExits3() throws {
        let bundle = try inlineBundle("idle", body: "<p>waiting</p>")
        let result = try present(bundle, ["--timeout", "1.5"])
        XCTAssertEqual(result.status, 3)
        XCTAssertEqual(result.stdout, "{\"result\":\"timeout\"}\n")
    }

    func testCustomMessageReachesTheEventFile() throws {
        let bundle = try inlineBundle("custom", body: "<p>custom</p>")
        let result = try present(
            bundle,
            [
                "--eval", "Paywall.custom('hello from the page'); Paywall.close()",
                "--timeout", "30",
            ])
        XCTAssertEqual(result.status, 0, result.stderr)
        let custom = loggedEvents().first { $0.name == .custom }
        XCTAssertEqual(custom?.params["data"], "hello from the page")
    }

    /// A Superwall-style page posts raw protocol JSON itself; camelCase keys work too.
    func testRawProtocolMessagesFromThePage() throws {
        let bundle = try inlineBundle("raw", body: "<p>raw</p>")
        let post = """
            window.webkit.messageHandlers.paywallMessageHandler.postMessage(JSON.stringify({version: 1,
              payload: {events: [{eventName: 'custom', data: 'camel'}, {event_name: 'close'}]}}))
            """
        let result = try present(bundle, ["--eval", post, "--timeout", "30"])
        XCTAssertEqual(result.stdout, "{\"result\":\"declined\"}\n", result.stderr)
        XCTAssertEqual(loggedEvents().first { $0.name == .custom }?.params["data"], "camel")
    }

    /// Bad messages are reported and skipped; the paywall keeps running and still closes.
    func testMalformedMessagesAreReportedAndTheRestOfTheBatchRuns() throws {
        let bundle = try inlineBundle("bad", body: "<p>bad</p>")
        let handler = "window.webkit.messageHandlers.paywallMessageHandler"
        let scripts = [
            "\(handler).postMessage('this is not json')",
            "\(handler).postMessage('x'.repeat(1024 * 1024 + 1))",
            "\(handler).postMessage(JSON.stringify({version: 1, payload: {}}))",
            """
            \(handler).postMessage(JSON.stringify({version: 1, payload: {events: [
              {event_name: 'custom', data: 'before'}, {event_name: 'no_such_event'}, {event_name: 'custom'},
              {event_name: 'custom', data: 'after'}]}}))
            """,
            "Paywall.close()",
        ]
        let result = try present(bundle, scripts.flatMap { ["--eval", $0] } + ["--timeout", "30"])
        XCTAssertEqual(result.stdout, "{\"result\":\"declined\"}\n", result.stderr)
        let events = loggedEvents()
        let invalid = events.filter { $0.name == .pageMessageInvalid }.map { $0.params["reason"]?.stringValue ?? "" }
        XCTAssertEqual(invalid.count, 5, "\(invalid)")
        XCTAssertTrue(invalid[0].contains("not JSON"), invalid[0])
        XCTAssertTrue(invalid[1].contains("over the 1048576-byte limit"), invalid[1])
        XCTAssertTrue(invalid[2].contains("payload.events"), invalid[2])
        XCTAssertTrue(invalid[3].contains("no_such_event"), invalid[3])
        XCTAssertTrue(invalid[4].contains("\"data\""), invalid[4])
        XCTAssertEqual(events.filter { $0.name == .custom }.map { $0.params["data"] }, ["before", "after"])
    }

    /// Requests for files outside the bundle (the fixture's module tries them all) never succeed.
    func testPageCannotReadFilesOutsideTheBundle() throws {
        let bundle = try fixtureBundle("kitchen-sink")
        // A link inside the bundle pointing outside it.
        try FileManager.default.createSymbolicLink(
            atPath: bundle.appendingPathComponent("outside-link").path, withDestinationPath: "/etc")
        let wait =
            "await new Promise(done => { const t = setInterval(() => { if (document.title === 'reported') { clearInterval(t); done(); } }, 20); })"
        let result = try present(bundle, ["--eval", wait, "--eval", "Paywall.close()", "--timeout", "30"])
        XCTAssertEqual(result.stdout, "{\"result\":\"declined\"}\n", result.stderr)
        let report = loggedEvents().first { $0.name == .custom }?.params["data"]?.stringValue ?? ""
        let attacks = try XCTUnwrap(try JSONValue(parsing: report)["attacks"]?.objectValue, "no report in \(report)")
        XCTAssertEqual(attacks.count, 11)
        for (path, outcome) in attacks {
            XCTAssertTrue(
                outcome == .number(403) || outcome == .number(404) || outcome == "error",
                "\(path) gave \(outcome)")
        }
    }

    /// A page's script cannot reach the system opener on its own (no click or key press in the
    /// view came first); bad schemes and other hosts stay blocked; the page stays.
    func testScriptedLinksDoNotReachTheSystemOpener() throws {
        let bundle = try fixtureBundle("kitchen-sink")
        let (opener, opened) = try urlOpener()
        let scripts = [
            "document.getElementById('terms').click()",
            "Paywall.openURLExternal('https://example.com/external')",
            "Paywall.openURLExternal('javascript:alert(1)')",
            "document.getElementById('elsewhere').click()",
            "await new Promise(done => setTimeout(done, 300))",
            "Paywall.custom(location.href); Paywall.close()",
        ]
        let result = try present(
            bundle, scripts.flatMap { ["--eval", $0] } + ["--timeout", "30"],
            environment: ["PAYWALL_URL_OPENER": opener.path])
        XCTAssertEqual(result.stdout, "{\"result\":\"declined\"}\n", result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: opened.path), "the opener ran")
        let events = loggedEvents()
        XCTAssertEqual(events.filter { $0.name == .urlOpenExternal }.count, 0)
        let refused = events.filter { $0.name == .pageActionRefused }
        XCTAssertEqual(
            Set(refused.compactMap { $0.params["url"]?.stringValue }),
            ["https://example.com/terms", "https://example.com/external"])
        XCTAssertEqual(Set(refused.compactMap { $0.params["action"]?.stringValue }), ["link", "open_url_external"])
        let blocked = events.filter { $0.name == .navigationBlocked }.compactMap { $0.params["url"]?.stringValue }
        XCTAssertTrue(blocked.contains("javascript:alert(1)"), "\(blocked)")
        XCTAssertTrue(blocked.contains("paywall://other/index.html"), "\(blocked)")
        let location = events.filter { $0.name == .custom }.last?.params["data"]
        XCTAssertEqual(location, "paywall://bundle/index.html", "the main frame stayed on the bundle")
    }

    /// A user's real click on a link (through the X server) hands it to the system browser.
    func testAUsersClickOpensALinkInTheSystemBrowser() throws {
        let bundle = try inlineBundle(
            "link",
            body: """
                <a id="terms" href="https://example.com/terms"
                   style="position:fixed;inset:0;display:block;background:#eee">Terms</a>
                """)
        let (opener, opened) = try urlOpener()
        let process = try PaywallProcess(
            [
                "present", bundle.path, "--events", eventsPath, "--timeout", "30", "--eval",
                "window.clicked = new Promise(done => document.addEventListener('click', () => setTimeout(done, 300)))",
                "--eval", Self.listeningScript(), "--eval", "await window.clicked; Paywall.close()",
            ],
            in: workDir, environment: ["PAYWALL_URL_OPENER": opener.path])
        // A click before the page has painted and listens is lost on a slow machine (CI).
        waitUntilListening()
        let window = try XCTUnwrap(RealInput.waitForWindow(pid: process.process.processIdentifier, name: "^link$"))
        RealInput.click(window: window, x: 100, y: 100)
        let result = process.wait()
        XCTAssertEqual(result.stdout, "{\"result\":\"declined\"}\n", result.stderr)
        XCTAssertEqual(lines(of: opened, atLeast: 1), ["https://example.com/terms"])
        XCTAssertEqual(loggedEvents().filter { $0.name == .urlOpenExternal }.count, 1)
    }

    /// `open_url` loads into the one in-app browser window there is, however often a page calls it.
    func testOneInAppBrowserWindowAtATime() throws {
        let bundle = try inlineBundle("browse", body: "<p>browse</p>")
        let flag = bundle.appendingPathComponent("counted.txt")
        let process = try PaywallProcess(
            [
                "present", bundle.path, "--events", eventsPath, "--timeout", "30", "--eval",
                """
                for (const n of [1, 2, 3, 4]) Paywall.openURL('http://127.0.0.1:9/page' + n);
                await new Promise(done => { const t = setInterval(async () => {
                  if ((await fetch('counted.txt')).ok) { clearInterval(t); done(); } }, 50); });
                Paywall.close()
                """,
            ], in: workDir)
        waitForEvents { $0.filter { $0.name == .urlOpenInApp }.count == 4 }
        _ = RealInput.waitForWindow(pid: process.process.processIdentifier, name: "^127\\.0\\.0\\.1$")
        usleep(500_000)  // time for any further window to map
        XCTAssertEqual(RealInput.windows(pid: process.process.processIdentifier, name: "^127\\.0\\.0\\.1$").count, 1)
        try "yes".write(to: flag, atomically: true, encoding: .utf8)
        XCTAssertEqual(process.wait().status, 0)
    }

    func testLifecycleEventsReachThePage() throws {
        let bundle = try inlineBundle(
            "listener",
            body: """
                <script>Paywall.on('paywall_open', e => Paywall.custom('page saw ' + e.event_name + ' of ' + e.paywall_identifier));</script>
                """)
        let result = try present(
            bundle,
            [
                "--eval", "Paywall.close()",
                "--timeout", "30",
            ])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(loggedEvents().first { $0.name == .custom }?.params["data"], "page saw paywall_open of listener")
    }
}
