import Foundation
import PaywallCore
import XCTest

/// The GTK 4 example app (`Examples/python/lumen_notes.py`, Debian's /usr/bin/python3 and
/// PyGObject) as a user meets it, under Xvfb, driven by real X input (xdotool): "Go Pro" shows
/// the paywall over the app's window, Buy opens the app's own checkout dialog (its purchase
/// controller over `paywall serve`), a card typed in and Pay complete the purchase, and the
/// status label follows. The app and the sidecar run with `G_DEBUG=fatal-criticals`.
final class PythonExampleAppTests: EndToEndTestCase {
    static let app = packageRoot.appendingPathComponent("Examples/python/lumen_notes.py")

    func testGoProBuysThroughTheAppsOwnCheckoutAndTheStatusLabelFollows() throws {
        let data = workDir.appendingPathComponent("data")
        let run = try PaywallProcess([Self.app.path, "--paywall", PaywallProcess.executable.path, "--data-dir", data.path,
                                      "--print-widgets"],
                                     in: workDir, executable: URL(fileURLWithPath: "/usr/bin/python3"))
        defer { run.terminate() }
        let log = AppLog(run: run)

        // The window is up and the runtime started: a free user.
        let window = try XCTUnwrap(log.value(after: "window: x11:0x").flatMap { UInt($0, radix: 16) }, log.text)
        let service = try XCTUnwrap(log.value(after: "service: pid ").flatMap { Int32($0) }, log.text)
        XCTAssertNotNil(log.line("status: Lumen Notes Free"), log.text)

        // Go Pro: the placement's paywall, the template itself (cached by `paywall config load`,
        // not the fallback), transient for the app's window.
        log.click("go_pro", in: String(window))
        let paywall = try XCTUnwrap(RealInput.waitForWindow(pid: service, timeout: 30))
        XCTAssertNotNil(log.line("event: page_ready"), log.text)
        XCTAssertEqual(RealInput.transientFor(window: paywall), window, "the paywall's WM_TRANSIENT_FOR is the app's window")

        // Buy: the classic template's button sits in its footer, pinned to the window's
        // bottom, 92 px above it. The sidecar asks the app, which opens its checkout.
        let size = try XCTUnwrap(RealInput.size(window: paywall))
        RealInput.click(window: paywall, x: size.width / 2, y: size.height - 92)
        XCTAssertNotNil(log.line("checkout: open lumen.pro.yearly"), log.text)
        let checkout = try XCTUnwrap(RealInput.waitForWindow(pid: run.process.processIdentifier, name: "^Checkout$"))
        XCTAssertNil(log.line(containing: "event: paywall_fallback", wait: false), log.text)
        XCTAssertNil(log.line(containing: "checkout: ", after: "checkout: open", wait: false), "answered before Pay:\n\(log.text)")

        // A card, typed into the app's form, and Pay.
        for (field, text) in [("checkout.card", "4242 4242 4242 4242"), ("checkout.expiry", "12/39"), ("checkout.cvc", "123")] {
            log.click(field, in: checkout)
            RealInput.type(text)
        }
        let overApp = workDir.appendingPathComponent("python-example-checkout.png")
        RealInput.screenshot(to: overApp)
        log.click("checkout.pay", in: checkout)

        // One purchase through the app's controller; the label follows customerInfoChanged.
        XCTAssertNotNil(log.line("checkout: purchased"), log.text)
        XCTAssertNotNil(log.line("status: Lumen Notes Pro: thanks for your support"), log.text)
        XCTAssertNotNil(log.line("go_pro: run"), log.text)
        XCTAssertEqual(log.lines.filter { $0 == "event: transaction_complete" }.count, 1, log.text)
        let afterPurchase = workDir.appendingPathComponent("python-example-pro.png")
        RealInput.screenshot(to: afterPurchase)

        // Ctrl+Q: the app closes the sidecar's stdin; both exit cleanly, and the status the
        // app set is in its data directory.
        RealInput.click(window: String(window), x: 20, y: 20)  // the keyboard goes to the window under the pointer
        RealInput.key("ctrl+q")
        let result = run.wait(timeout: 60)
        XCTAssertEqual(result.status, 0, result.stderr)
        let status = try PaywallProcess.run(["status", "--json", "--data-dir", data.path], in: workDir)
        let info = try JSONValue(parsing: status.stdout)
        XCTAssertEqual(info["active_entitlements"], .array(["pro"]), status.stdout)

        if let keep = ProcessInfo.processInfo.environment["PAYWALL_KEEP_SCREENSHOTS"] {
            for shot in [overApp, afterPurchase] {
                try? FileManager.default.copyItem(at: shot, to: URL(fileURLWithPath: keep).appendingPathComponent(shot.lastPathComponent))
            }
        }
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

    /// What follows `prefix` on the first line starting with it.
    func value(after prefix: String) -> String? {
        line(containing: prefix).map { String($0.dropFirst(prefix.count)) }
    }

    /// Clicks widget `name` in `window` at the centre the app printed for it.
    func click(_ name: String, in window: String, file: StaticString = #filePath, line: UInt = #line) {
        let numbers = self.line(containing: "widget \(name) ")?.split(separator: " ").suffix(2).compactMap { Int($0) } ?? []
        guard numbers.count == 2 else {
            XCTFail("the app printed no place for widget \(name):\n\(text)", file: file, line: line)
            return
        }
        RealInput.click(window: window, x: numbers[0], y: numbers[1])
    }
}
