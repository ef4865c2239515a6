import Foundation

@testable import PaywallCore

/// One merchant's license API stand-in (a `Fixtures/*_server.py`) running on 127.0.0.1: the
/// process, the control file it reads on every request, and the log of what it was asked. The
/// merchants' test servers (`LemonSqueezyTestServer`, `PolarTestServer`, ...) script it.
final class LicenseStandIn {
    private let process = Process()
    private let controlFile: URL
    private let logFile: URL
    let port: Int

    init(script: URL, directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        controlFile = directory.appendingPathComponent("control.json")
        logFile = directory.appendingPathComponent("requests.jsonl")
        try Data("{}".utf8).write(to: controlFile)
        port = try TestHTTPServer.launch(
            process, script: script, arguments: [controlFile.path, logFile.path],
            portFile: directory.appendingPathComponent("port"))
    }

    deinit { stop() }

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Every request so far, as the stand-in logged it (`path`, `method`, its body, `violations`).
    var requests: [JSONValue] {
        let text = (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { try? JSONValue(parsing: String($0)) }
    }

    /// The requests that broke the documented contract.
    var violations: [String] {
        requests.flatMap { request in
            (request["violations"]?.arrayValue ?? []).compactMap(\.stringValue).map {
                "\(request["path"]?.stringValue ?? ""): \($0)"
            }
        }
    }

    /// Replaces what the stand-in is told (read on its next request).
    func control(_ control: JSONValue) {
        try? Data(control.jsonText.utf8).write(to: controlFile, options: .atomic)
    }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }
}
