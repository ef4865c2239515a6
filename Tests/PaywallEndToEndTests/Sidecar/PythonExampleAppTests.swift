import Foundation
import PaywallCore
import XCTest

/// The GTK 4 example app (`Examples/python/lumen_notes.py`, Debian's python3 and PyGObject, with
/// the `paywall_client` package from `.build/venv`) as a user meets it, under Xvfb, driven by real X input (xdotool): "Go Pro" shows
/// the paywall over the app's window, Buy opens the app's own checkout dialog (its purchase
/// controller over `paywall serve`), a card typed in and Pay complete the purchase, and the
/// status label follows. The app and the sidecar run with `G_DEBUG=fatal-criticals`.
final class PythonExampleAppTests: EndToEndTestCase {
    static let app = packageRoot.appendingPathComponent("Examples/python/lumen_notes.py")

    func testGoProBuysThroughTheAppsOwnCheckoutAndTheStatusLabelFollows() throws {
        let app = try AppUnderTest(workDir: workDir)
        defer { app.run.terminate() }
        let log = app.log
        try app.goPro()
        let paywallOverApp = workDir.appendingPathComponent("python-example-paywall.png")
        RealInput.screenshot(to: paywallOverApp)

        // Buy: the sidecar asks the app, which opens its checkout.
        let checkout = try app.buy()
        XCTAssertNil(
            log.line(containing: "checkout: ", after: "checkout: open", wait: false), "answered before Pay:\n\(log.text)")

        // A card, typed into the app's form, and Pay.
        app.typeCard("4242 4242 4242 4242", in: checkout)
        let checkoutOverPaywall = workDir.appendingPathComponent("python-example-checkout.png")
        RealInput.screenshot(to: checkoutOverPaywall)
        log.click("checkout.pay", in: checkout)

        // One purchase through the app's controller; the label follows customerInfoChanged.
        XCTAssertNotNil(log.line("checkout: purchased"), log.text)
        XCTAssertNotNil(log.line("status: Lumen Notes Pro: thanks for your support"), log.text)
        XCTAssertNotNil(log.line("go_pro: run"), log.text)
        XCTAssertEqual(log.lines.filter { $0.hasPrefix("event: transaction_complete ") }.count, 1, log.text)
        let afterPurchase = workDir.appendingPathComponent("python-example-pro.png")
        RealInput.screenshot(to: afterPurchase)

        // Manage subscription: the customer center over the app's window.
        log.click("manage", in: String(app.window))
        XCTAssertNotNil(log.line(containing: "event: customerCenter_open "), log.text)
        let center = try XCTUnwrap(RealInput.waitForWindow(pid: app.service))
        XCTAssertEqual(RealInput.transientFor(window: center), app.window, "the customer center's WM_TRANSIENT_FOR")

        // Ctrl+Q with the customer center open: the app closes the sidecar's stdin; both exit
        // cleanly, and the status the app set is in its data directory.
        try app.quit()
        let status = try PaywallProcess.run(["status", "--json", "--data-dir", app.data.path], in: workDir)
        let info = try JSONValue(parsing: status.stdout)
        XCTAssertEqual(info["active_entitlements"], .array(["pro"]), status.stdout)

        if let keep = ProcessInfo.processInfo.environment["PAYWALL_KEEP_SCREENSHOTS"] {
            for shot in [paywallOverApp, checkoutOverPaywall, afterPurchase] {
                try? FileManager.default.copyItem(
                    at: shot, to: URL(fileURLWithPath: keep).appendingPathComponent(shot.lastPathComponent))
            }
        }
    }

    /// Cancel answers `cancelled` and the paywall stays; the pretend bank's declined card
    /// answers `failed` and the paywall's dialog shows the app's message; closing the paywall
    /// then leaves the feature not run and the user free.
    func testCancelAndADeclinedCardBuyNothing() throws {
        let app = try AppUnderTest(workDir: workDir)
        defer { app.run.terminate() }
        let log = app.log
        let paywall = try app.goPro()

        var checkout = try app.buy()
        log.click("checkout.cancel", in: checkout)
        XCTAssertNotNil(log.line("checkout: cancelled"), log.text)
        XCTAssertNotNil(log.line(containing: "event: transaction_abandon "), log.text)

        checkout = try app.buy()
        app.typeCard("4000 0000 0000 0002", in: checkout)
        log.click("checkout.pay", in: checkout)
        XCTAssertNotNil(log.line("checkout: failed"), log.text)
        XCTAssertNotNil(log.line(containing: "event: transaction_fail "), log.text)
        let shown = try XCTUnwrap(log.line(containing: "event: dialog_shown "), log.text)
        XCTAssertTrue(shown.contains("Your card was declined. Try another card."), shown)

        // OK on the runtime's dialog, then the paywall's close button (its top right corner).
        let dialog = try XCTUnwrap(RealInput.waitForWindow(pid: app.service, name: "^Purchase Failed$"))
        let dialogSize = try XCTUnwrap(RealInput.size(window: dialog))
        RealInput.click(window: dialog, x: dialogSize.width - 50, y: dialogSize.height - 28)
        let size = try XCTUnwrap(RealInput.size(window: paywall))
        RealInput.click(window: paywall, x: size.width - 29, y: 28)
        XCTAssertNotNil(log.line("go_pro: not_run"), log.text)
        XCTAssertEqual(log.lines.filter { $0.hasPrefix("status: ") }, ["status: Lumen Notes Free"], log.text)
        try app.quit()
    }
}

/// The example app started for a test, with what it printed at start: its window and its
/// sidecar's process.
private struct AppUnderTest {
    let run: PaywallProcess
    let log: AppLog
    let data: URL
    let window: UInt
    let service: Int32

    init(workDir: URL, file: StaticString = #filePath, line: UInt = #line) throws {
        data = workDir.appendingPathComponent("data")
        run = try PaywallProcess(
            [
                PythonExampleAppTests.app.path, "--paywall", PaywallProcess.executable.path,
                "--data-dir", data.path, "--print-widgets",
            ],
            in: workDir, executable: try ClientVenv.interpreter(file: file, line: line))
        log = AppLog(run: run)
        window = try XCTUnwrap(
            log.value(after: "window: x11:0x").flatMap { UInt($0, radix: 16) }, log.text, file: file, line: line)
        service = try XCTUnwrap(log.value(after: "service: pid ").flatMap { Int32($0) }, log.text, file: file, line: line)
        XCTAssertNotNil(log.line("status: Lumen Notes Free"), log.text, file: file, line: line)
        // Its buttons take clicks once the config's paywalls are cached (`cacheConfiguredPaywalls`).
        XCTAssertNotNil(log.line("ready"), log.text, file: file, line: line)
    }

    /// Clicks Go Pro; returns the paywall's window once its page is ready, after checking it
    /// is the template itself (cached by the sidecar's `cacheConfiguredPaywalls`, not the fallback) and
    /// transient for the app's window.
    @discardableResult
    func goPro(file: StaticString = #filePath, line: UInt = #line) throws -> String {
        log.click("go_pro", in: String(window))
        let paywall = try XCTUnwrap(RealInput.waitForWindow(pid: service, timeout: 30), file: file, line: line)
        XCTAssertNotNil(log.line(containing: "event: page_ready "), log.text, file: file, line: line)
        XCTAssertNil(log.line(containing: "event: paywall_fallback ", wait: false), log.text, file: file, line: line)
        XCTAssertEqual(
            RealInput.transientFor(window: paywall), window, "the paywall's WM_TRANSIENT_FOR is the app's window",
            file: file, line: line)
        return paywall
    }

    /// A click on the paywall's Buy button; returns the app's checkout dialog. The classic
    /// template's button sits in its footer, pinned to the window's bottom, 92 px above it.
    func buy(file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let paywall = try XCTUnwrap(RealInput.waitForWindow(pid: service), file: file, line: line)
        let size = try XCTUnwrap(RealInput.size(window: paywall), file: file, line: line)
        let opened = log.lines.filter { $0.hasPrefix("checkout: open ") }.count
        RealInput.click(window: paywall, x: size.width / 2, y: size.height - 92)
        // Opened, and its fields' places printed (Cancel's last).
        XCTAssertTrue(
            log.waitUntil { lines in
                lines.filter { $0 == "checkout: open lumen.pro.yearly" }.count == opened + 1
                    && lines.filter { $0.hasPrefix("widget checkout.cancel ") }.count == opened + 1
            }, log.text, file: file, line: line)
        return try XCTUnwrap(
            RealInput.waitForWindow(pid: run.process.processIdentifier, name: "^Checkout$"), file: file, line: line)
    }

    /// Types a card into the checkout form, with a valid expiry date and security code.
    func typeCard(_ number: String, in checkout: String) {
        for (field, text) in [("checkout.card", number), ("checkout.expiry", "12/39"), ("checkout.cvc", "123")] {
            log.click(field, in: checkout)
            RealInput.type(text)
        }
    }

    /// Ctrl+Q over the app's window: it closes the sidecar's stdin and both exit 0.
    func quit(file: StaticString = #filePath, line: UInt = #line) throws {
        RealInput.click(window: String(window), x: 20, y: 20)  // the keyboard goes to the window under the pointer
        RealInput.key("ctrl+q")
        let result = run.wait(timeout: 60, file: file, line: line)
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        XCTAssertEqual(kill(service, 0), -1, "the sidecar exited with the app", file: file, line: line)
    }
}

/// The example app's stdout log, read as it grows: waits for lines and clicks the widgets
/// whose centres it printed (`widget NAME X Y`, from `--print-widgets`).
private struct AppLog {
    let run: PaywallProcess

    var text: String { (try? String(contentsOf: run.stdoutURL, encoding: .utf8)) ?? "" }
    var lines: [String] { text.split(separator: "\n").map(String.init) }

    /// `expected`, once it is a line of the log (waiting up to 30 s for it); nil if it never is.
    func line(_ expected: String) -> String? {
        let deadline = Date().addingTimeInterval(30)
        repeat {
            if lines.contains(expected) { return expected }
            usleep(50_000)
        } while Date() < deadline
        return nil
    }

    /// The first line containing `fragment` (after the first line starting with `after`),
    /// waiting up to 30 s for it when `wait`.
    func line(containing fragment: String, after: String? = nil, wait: Bool = true) -> String? {
        let deadline = Date().addingTimeInterval(wait ? 30 : 0)
        repeat {
            var candidates = lines
            if let after, let start = candidates.firstIndex(where: { $0.hasPrefix(after) }) {
                candidates = Array(candidates[(start + 1)...])
            }
            if let found = candidates.first(where: { $0.contains(fragment) }) { return found }
            if wait { usleep(50_000) }
        } while Date() < deadline
        return nil
    }

    /// Whether `condition` holds of the log's lines within 30 s.
    func waitUntil(_ condition: ([String]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(30)
        repeat {
            if condition(lines) { return true }
            usleep(50_000)
        } while Date() < deadline
        return false
    }

    /// What follows `prefix` on the first line starting with it.
    func value(after prefix: String) -> String? {
        line(containing: prefix).map { String($0.dropFirst(prefix.count)) }
    }

    /// Clicks widget `name` in `window` at the centre the app printed for it.
    func click(_ name: String, in window: String, file: StaticString = #filePath, line: UInt = #line) {
        // The latest place printed: a checkout dialog opened again prints its own.
        _ = self.line(containing: "widget \(name) ")
        let place = lines.last { $0.hasPrefix("widget \(name) ") }
        let numbers = place?.split(separator: " ").suffix(2).compactMap { Int($0) } ?? []
        guard numbers.count == 2 else {
            XCTFail("the app printed no place for widget \(name):\n\(text)", file: file, line: line)
            return
        }
        RealInput.click(window: window, x: numbers[0], y: numbers[1])
    }
}
