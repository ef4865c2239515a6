import Foundation
import XCTest

/// The stand-in for PostHog's batch endpoint (`Tests/PaywallCoreTests/Fixtures/posthog_server.py`)
/// on 127.0.0.1: records every request, checks it against PostHog's documented contract, and
/// answers as the test scripts it (a status, 429 with Retry-After, or a hang).
final class PostHogServer {
    private let process = Process()
    private let control: URL
    private let logFile: URL
    let baseURL: URL

    /// Answers `script` in turn, then `fallback`; `port` reuses a port (a server back online).
    init(directory: URL, script: [Any] = [], fallback: Any = 200, port: Int? = nil) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        control = directory.appendingPathComponent("control.json")
        logFile = directory.appendingPathComponent("requests.jsonl")
        try JSONSerialization.data(withJSONObject: ["script": script, "default": fallback]).write(to: control)
        let listening = try StandInServer.start(
            process, script: "posthog_server.py", control: control, log: logFile,
            portFile: directory.appendingPathComponent("port"), environment: port.map { ["POSTHOG_PORT": String($0)] },
            name: "the PostHog stand-in")
        baseURL = URL(string: "http://127.0.0.1:\(listening)")!
    }

    deinit { stop() }

    var port: Int { baseURL.port ?? 0 }

    /// Each request so far: `path`, `content_type`, `body`, `answered`, `headers`, `violations`.
    var requests: [[String: Any]] {
        let text = (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// Every event of every request (`batch` items), in order.
    var events: [[String: Any]] {
        requests.flatMap { (($0["body"] as? [String: Any])?["batch"] as? [[String: Any]]) ?? [] }
    }

    /// The `uuid` of each event received, including repeats.
    var uuids: [String] { events.compactMap { $0["uuid"] as? String } }

    var violations: [String] { requests.flatMap { ($0["violations"] as? [String]) ?? [] } }

    /// Stops it and waits until it is gone. SIGKILL: a child started from an async test's
    /// thread can inherit a mask that blocks SIGTERM.
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        for _ in 0..<500 where process.isRunning { usleep(10_000) }
    }
}
