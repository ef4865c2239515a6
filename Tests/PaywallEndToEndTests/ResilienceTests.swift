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
        waitForEvents { $0.contains { $0.name == "page_ready" } }
        let victims = webProcesses(of: presenting.process.processIdentifier)
        XCTAssertFalse(victims.isEmpty, "found the web process")
        for pid in victims { kill(pid, SIGKILL) }
        waitForEvents { events in
            events.contains { $0.name == "paywallWebviewLoad_processTerminated" }
                && events.filter { $0.name == "page_ready" }.count == 2
        }
        XCTAssertTrue(presenting.process.isRunning, "the paywall is still up")
    }

    func testBenchReportsEveryMedian() throws {
        let result = try PaywallProcess.run(["bench", "--json"], in: workDir, timeout: 240)
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try JSONValue(parsing: result.stdout)
        for key in ["cold_present_ms", "preloaded_present_ms", "bridge_rtt_ms", "raw_bridge_rtt_ms", "status_read_ms",
                    "scheme_serve_ms", "file_serve_ms", "preload_rss_mb"] {
            guard case .number(let value)? = json[key] else { return XCTFail("missing \(key) in \(result.stdout)") }
            XCTAssertTrue(value.isFinite && value >= 0 || key == "preload_rss_mb", "\(key) = \(value)")
        }
        XCTAssertEqual(try PaywallProcess.run(["bench", "--runs", "5"], in: workDir).status, 2, "fewer than 20 runs is refused")
    }
}
