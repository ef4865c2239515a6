import Foundation
import PaywallCore
import XCTest

/// Base class for tests that drive the `paywall` executable: a fresh work directory per test,
/// fixture bundles copied into it, and readers for the event log.
class EndToEndTestCase: XCTestCase {
    var workDir: URL!

    /// The package checkout (for `templates/`), found from this file's path.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    override func setUpWithError() throws {
        guard
            ProcessInfo.processInfo.environment["DISPLAY"] != nil
                || ProcessInfo.processInfo.environment["WAYLAND_DISPLAY"] != nil
        else {
            XCTFail("end-to-end tests need a display: run the suite as `xvfb-run -a swift test`")
            throw XCTSkip("no display")
        }
        workDir = FileManager.default.temporaryDirectory.appendingPathComponent("paywall-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: workDir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        if let workDir { try? FileManager.default.removeItem(at: workDir) }
    }

    /// Copies fixture bundle `name` into the work directory and returns its path.
    func fixtureBundle(_ name: String) throws -> URL {
        let copy = workDir.appendingPathComponent(name)
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent(name), to: copy)
        return copy
    }

    /// Writes a one-file bundle whose body is `body` and returns its path.
    func inlineBundle(_ name: String, body: String) throws -> URL {
        let dir = workDir.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try "<!DOCTYPE html><html><head><meta charset=\"utf-8\"></head><body>\(body)</body></html>"
            .write(to: dir.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
        return dir
    }

    /// A script that writes each URL it is given to `opened.txt`, standing in for xdg-open.
    func urlOpener() throws -> (opener: URL, opened: URL) {
        let opened = workDir.appendingPathComponent("opened.txt")
        let opener = workDir.appendingPathComponent("opener.sh")
        try "#!/bin/sh\necho \"$1\" >> '\(opened.path)'\n".write(to: opener, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: opener.path)
        return (opener, opened)
    }

    func lines(of file: URL, atLeast count: Int) -> [String] {
        let deadline = Date().addingTimeInterval(5)
        var lines: [String] = []
        while Date() < deadline {
            lines = ((try? String(contentsOf: file, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
            if lines.count >= count { break }
            usleep(50_000)
        }
        return lines
    }

    var eventsPath: String { workDir.appendingPathComponent("events.jsonl").path }

    /// The events written to `eventsPath` so far, each checked to be a well-formed log line
    /// whose name is an `EventName`.
    func loggedEvents(file: StaticString = #filePath, line: UInt = #line) -> [PaywallEvent] {
        guard let text = try? String(contentsOfFile: eventsPath, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { raw in
            guard let value = try? JSONValue(parsing: String(raw)), let text = value["name"]?.stringValue,
                let params = value["params"]?.objectValue, let stamp = value["timestamp"]?.stringValue,
                let date = try? Date(stamp, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
            else {
                XCTFail("malformed event log line: \(raw)", file: file, line: line)
                return nil
            }
            guard let name = EventName(rawValue: text) else {
                XCTFail("event log line names \"\(text)\", which is not an EventName case: \(raw)", file: file, line: line)
                return nil
            }
            return PaywallEvent(name, params, timestamp: date)
        }
    }

    func eventNames() -> [EventName] { loggedEvents().map(\.name) }

    /// Polls the event log until `condition` holds; fails after `timeout` seconds.
    func waitForEvents(
        timeout: Double = 30, file: StaticString = #filePath, line: UInt = #line,
        _ condition: ([PaywallEvent]) -> Bool
    ) {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition(loggedEvents()) { return }
            usleep(50_000)
        }
        XCTFail("events never matched; got \(eventNames())", file: file, line: line)
    }

    /// An `--eval` script that logs a `custom` event "listening" once the page has painted
    /// twice, and, with `focused`, once it has its window's keyboard focus too. Real input sent
    /// before that can be lost on a slow machine (it was, on CI): wait with `waitUntilListening`.
    static func listeningScript(focused: Bool = false) -> String {
        let focus = """
            await new Promise(ready => document.hasFocus() ? ready() : window.addEventListener('focus', ready, { once: true }));
            """
        return """
            \(focused ? focus : "")
            await new Promise(painted => requestAnimationFrame(() => requestAnimationFrame(painted)));
            Paywall.custom('listening');
            """
    }

    /// Waits for the event `listeningScript` logs.
    func waitUntilListening(file: StaticString = #filePath, line: UInt = #line) {
        waitForEvents(file: file, line: line) {
            $0.contains { $0.name == .custom && $0.params["data"]?.stringValue == "listening" }
        }
    }
}
