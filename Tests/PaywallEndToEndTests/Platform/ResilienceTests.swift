import Foundation
import PaywallCore
import XCTest

/// A paywall survives its web process dying, and the benchmark runs and reports every median.
final class ResilienceTests: EndToEndTestCase {
    /// The WebKitWebProcess children of `pid` (the process tree WebKit starts).
    private func webProcesses(of pid: Int32) -> [Int32] {
        var found: [Int32] = []
        var pending = [pid]
        while let current = pending.popLast() {
            for task in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(current)/task")) ?? [] {
                let children = (try? String(contentsOfFile: "/proc/\(current)/task/\(task)/children", encoding: .utf8)) ?? ""
                for child in children.split(separator: " ").compactMap({ Int32($0) }) {
                    pending.append(child)
                    let command = (try? String(contentsOfFile: "/proc/\(child)/comm", encoding: .utf8)) ?? ""
                    if command.hasPrefix("WebKitWebProces") { found.append(child) }
                }
            }
        }
        return found
    }

    func testAPageWhoseWebProcessIsKilledIsReloaded() throws {
        let bundle = try inlineBundle("sturdy", body: "<p>sturdy</p>")
        let presenting = try PaywallProcess(["present", bundle.path, "--events", eventsPath, "--timeout", "20"], in: workDir)
        defer { presenting.terminate() }
        waitForEvents { $0.contains { $0.name == .pageReady } }
        let victims = webProcesses(of: presenting.process.processIdentifier)
        XCTAssertFalse(victims.isEmpty, "found the web process")
        for pid in victims { kill(pid, SIGKILL) }
        waitForEvents { events in
            events.contains { $0.name == .webviewProcessTerminated }
                && events.filter { $0.name == .pageReady }.count == 2
        }
        XCTAssertTrue(presenting.process.isRunning, "the paywall is still up")
    }

    /// An entry page that cannot be served: the runtime's fallback paywall, with the products.
    func testABundleThatCannotLoadShowsTheFallbackPaywall() throws {
        let bundle = try inlineBundle("broken", body: "")
        try FileManager.default.removeItem(at: bundle.appendingPathComponent("index.html"))
        try "<p>outside</p>".write(to: workDir.appendingPathComponent("outside.html"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            atPath: bundle.appendingPathComponent("index.html").path,
            withDestinationPath: workDir.appendingPathComponent("outside.html").path)
        let catalog = Self.packageRoot.appendingPathComponent("templates/classic/store.json").path
        let read = """
            await new Promise(done => { const t = setInterval(() => { if (document.querySelector('.product')) { clearInterval(t); done(); } }, 20); });
            Paywall.custom(JSON.stringify([document.getElementById('title').textContent,
              ...Array.from(document.querySelectorAll('.product'), b => b.dataset.paywallPurchase + ' ' + b.textContent)]));
            Paywall.close();
            """
        let result = try PaywallProcess.run(
            [
                "present", bundle.path, "--store", catalog, "--data-dir", workDir.appendingPathComponent("data").path,
                "--products", "primary=lumen.pro.yearly,secondary=lumen.pro.monthly", "--events", eventsPath,
                "--timeout", "30", "--eval", read,
            ], in: workDir)
        XCTAssertEqual(result.stdout, "{\"result\":\"declined\"}\n", result.stderr)
        XCTAssertTrue(eventNames().contains(.webviewLoadFail), "\(eventNames())")
        XCTAssertEqual(
            loggedEvents().first { $0.name == .paywallFallback }?.params["reason"]?.stringValue?
                .contains("path leaves the bundle"), true)
        let shown = try JSONValue(
            parsing: try XCTUnwrap(loggedEvents().first { $0.name == .custom }?.params["data"]?.stringValue))
        XCTAssertEqual(shown, ["Upgrade", "primary Yearly$39.99 / year", "secondary Monthly$7.99 / month"])

        // In the user's language: the runtime's own texts, the products as the locale writes them.
        let french = """
            await new Promise(done => { const t = setInterval(() => { if (document.documentElement.lang === 'fr' && document.querySelector('.product')) { clearInterval(t); done(); } }, 20); });
            Paywall.custom(JSON.stringify([document.getElementById('title').textContent, document.getElementById('restore').textContent,
              ...Array.from(document.querySelectorAll('.product'), b => b.textContent)]));
            Paywall.close();
            """
        let localized = try PaywallProcess.run(
            [
                "present", bundle.path, "--store", catalog, "--data-dir", workDir.appendingPathComponent("data").path,
                "--products", "primary=lumen.pro.lifetime", "--locale", "fr_FR", "--events", eventsPath,
                "--timeout", "30", "--eval", french,
            ], in: workDir)
        XCTAssertEqual(localized.stdout, "{\"result\":\"declined\"}\n", localized.stderr)
        let texts = try JSONValue(parsing: try XCTUnwrap(loggedEvents().last { $0.name == .custom }?.params["data"]?.stringValue))
        XCTAssertEqual(texts, ["Passer à la version supérieure", "Restaurer les achats", "Achat unique99,99\u{a0}$US"])
    }

    /// A page that never becomes ready: after the load timeout the user is offered Retry and Close.
    func testASlowPageOffersRetryAndClose() throws {
        let bundle = try inlineBundle(
            "stuck", body: "<script>const end = Date.now() + 2500; while (Date.now() < end) {}</script>")
        let result = try PaywallProcess.run(
            [
                "present", bundle.path, "--events", eventsPath, "--load-timeout", "0.5", "--timeout", "8",
                "--eval", "Paywall.close()",
            ], in: workDir)
        XCTAssertEqual(result.stdout, "{\"result\":\"declined\"}\n", "it still finished loading and closed")
        let names = eventNames()
        let timeout = try XCTUnwrap(names.firstIndex(of: .webviewLoadTimeout), "\(names)")
        XCTAssertLessThan(timeout, try XCTUnwrap(names.firstIndex(of: .pageReady)), "the timeout came first")
    }

    func testBenchReportsEveryMedian() throws {
        // A short soak (the documented run is 100 + 500 cycles): its figures are there, not judged.
        let result = try PaywallProcess.run(
            ["bench", "--json", "--soak-warmup", "5", "--soak-cycles", "20"], in: workDir, timeout: 300)
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try JSONValue(parsing: result.stdout)
        for key in [
            "cold_present_ms", "preloaded_present_ms", "bridge_rtt_ms", "raw_bridge_rtt_ms", "status_read_ms",
            "scheme_serve_ms", "file_serve_ms", "preload_rss_mb", "customer_center_cold_ms",
            "customer_center_preloaded_ms", "two_frames_floor_ms", "snapshot_matrix_20_ms", "snapshot_single_ms",
            "snapshot_separate_20_ms", "plain_window_first_frame_ms", "preloaded_first_frame_ms",
            "preloaded_blank_frames", "cold_first_frame_ms", "cold_white_frames",
            "customer_center_preloaded_first_frame_ms", "customer_center_preloaded_blank_frames",
            "customer_center_cold_slowest_ms", "swift_baseline_process_ms", "status_read_in_process_ms",
            "store_process_ms", "cache_process_ms", "validate_process_ms", "bundle_process_ms",
            "sidecar_preloaded_present_ms", "app_preloaded_present_ms",
            "cold_soak_rss_growth_mb", "cold_soak_ui_rss_growth_mb", "cold_soak_webkit_rss_growth_mb",
            "preloaded_soak_rss_growth_mb", "preloaded_soak_ui_rss_growth_mb", "preloaded_soak_webkit_rss_growth_mb",
            "cold_soak_web_process_recycles", "preloaded_soak_web_process_recycles",
        ] {
            guard case .number(let value)? = json[key] else { return XCTFail("missing \(key) in \(result.stdout)") }
            // Memory may shrink between two readings; times and counts may not be negative.
            XCTAssertTrue(value.isFinite && (value >= 0 || key.hasSuffix("_mb")), "\(key) = \(value)")
        }
        XCTAssertEqual(json["soak_warmup_cycles"], 5)
        XCTAssertEqual(json["soak_cycles"], 20)
        XCTAssertEqual(try PaywallProcess.run(["bench", "--runs", "5"], in: workDir).status, 2, "fewer than 20 runs is refused")
        let noCycles = try PaywallProcess.run(["bench", "--soak-cycles", "0"], in: workDir)
        XCTAssertEqual(noCycles.status, 2, "a soak of no cycles is refused")
        XCTAssertTrue(noCycles.stderr.contains("--soak-cycles must be a whole number of at least 1"), noCycles.stderr)
    }
}
