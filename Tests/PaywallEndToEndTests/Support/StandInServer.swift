import Foundation
import XCTest

/// Starting a Python stand-in of an HTTP API (`Tests/PaywallCoreTests/Fixtures/SCRIPT`) on
/// 127.0.0.1: it is given its control, log and port files, and writes the port it listens on.
enum StandInServer {
    /// Runs `script` under `/usr/bin/python3` in `process` with `control`, `log` and
    /// `portFile`, and waits for the port (skips the test, naming `name`, when none comes).
    static func start(
        _ process: Process, script: String, control: URL, log: URL, portFile: URL, environment: [String: String]? = nil,
        name: String
    ) throws -> Int {
        try? FileManager.default.removeItem(at: portFile)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [
            EndToEndTestCase.packageRoot.appendingPathComponent("Tests/PaywallCoreTests/Fixtures/\(script)").path,
            control.path, log.path, portFile.path,
        ]
        if let environment { process.environment = environment }
        try process.run()
        for _ in 0..<500 where !FileManager.default.fileExists(atPath: portFile.path) { usleep(20_000) }
        guard let port = (try? String(contentsOf: portFile, encoding: .utf8)).flatMap(Int.init) else {
            process.terminate()
            throw XCTSkip("/usr/bin/python3 could not start \(name)")
        }
        return port
    }
}
