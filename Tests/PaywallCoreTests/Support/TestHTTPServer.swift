import Foundation
import XCTest

@testable import PaywallCore

/// `Fixtures/test_http_server.py` on 127.0.0.1 and a free port, run by Debian's Python: it
/// serves `root`, and misbehaves on the paths `route` names (see the script).
final class TestHTTPServer {
    private static let script = TestPaths.fixtures.appendingPathComponent("test_http_server.py")
    private let process = Process()
    private let routesFile: URL
    private var routes: [String: JSONValue] = [:]
    let port: Int

    init(root: URL) throws {
        routesFile = root.appendingPathComponent(".routes.json")
        let portFile = root.appendingPathComponent(".port")
        try Data("{}".utf8).write(to: routesFile)
        port = try Self.launch(process, script: Self.script, arguments: [root.path, routesFile.path], portFile: portFile)
    }

    /// Runs a Python server `script` with `arguments` and `portFile` last, and returns the port
    /// it writes there once listening.
    static func launch(_ process: Process, script: URL, arguments: [String], portFile: URL) throws -> Int {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script.path] + arguments + [portFile.path]
        try process.run()
        // Bounded: a server that cannot start skips the test instead of hanging it.
        for _ in 0..<500 where !FileManager.default.fileExists(atPath: portFile.path) { usleep(20_000) }
        guard let port = (try? String(contentsOf: portFile, encoding: .utf8)).flatMap(Int.init) else {
            process.terminate()
            throw XCTSkip("/usr/bin/python3 could not start an HTTP server")
        }
        return port
    }

    deinit { stop() }

    func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)/\(path)")! }

    /// Makes `path` misbehave as `behaviour` says, from the next request on.
    func route(_ path: String, _ behaviour: JSONValue) throws {
        routes["/" + path] = behaviour
        try Data(JSONValue.object(routes).jsonText.utf8).write(to: routesFile, options: .atomic)
    }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }
}
