import Foundation
import XCTest

@testable import PaywallCore

/// `Fixtures/gumroad_server.py`: Gumroad's `POST /v2/licenses/verify` as documented, on
/// 127.0.0.1, checking every request's method, path, headers and form body. Tests script its
/// licenses and its next answers (`licenses`, `script`) and read what was asked (`requests`).
final class GumroadTestServer {
    static let script = TestPaths.fixtures.appendingPathComponent("gumroad_server.py")
    private let process = Process()
    private let controlFile: URL
    private let logFile: URL
    let port: Int
    /// The licenses the server knows, by key (see the script for their fields; raise
    /// `revision` to change a known one).
    var licenses: [String: JSONValue] = [:] { didSet { writeControl() } }
    /// Answers given before the contract's, in order.
    var script: [JSONValue] = [] { didSet { writeControl() } }

    init(directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        controlFile = directory.appendingPathComponent("control.json")
        logFile = directory.appendingPathComponent("requests.jsonl")
        try Data("{}".utf8).write(to: controlFile)
        port = try TestHTTPServer.launch(
            process, script: Self.script, arguments: [controlFile.path, logFile.path],
            portFile: directory.appendingPathComponent("port"))
    }

    deinit { stop() }

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// A license of Gumroad product `productId` with `uses` uses; `extra` adds or overrides fields
    /// (`"refunded": true`, `"subscription": true`, ...).
    static func license(productId: String = "P-PRO", uses: Int = 0, revision: Int = 0, _ extra: [String: JSONValue] = [:])
        -> JSONValue
    {
        var fields: [String: JSONValue] = [
            "product_id": .string(productId), "uses": .number(Double(uses)), "revision": .number(Double(revision)),
        ]
        fields.merge(extra) { $1 }
        return .object(fields)
    }

    /// Every request so far: `path`, `method`, `form`, `violations`, and `uses` after it.
    var requests: [JSONValue] {
        let text = (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { try? JSONValue(parsing: String($0)) }
    }

    /// The forms of the requests, as `product_id increment_uses_count` pairs (the key left out).
    var asked: [String] {
        requests.map {
            "\($0["form"]?["product_id"]?.stringValue ?? "?") \($0["form"]?["increment_uses_count"]?.stringValue ?? "?")"
        }
    }

    /// The requests that broke the documented contract.
    var violations: [String] {
        requests.flatMap { request in
            (request["violations"]?.arrayValue ?? []).compactMap(\.stringValue).map {
                "\(request["path"]?.stringValue ?? ""): \($0)"
            }
        }
    }

    private func writeControl() {
        let control = JSONValue.object(["licenses": .object(licenses), "script": .array(script)])
        try? Data(control.jsonText.utf8).write(to: controlFile, options: .atomic)
    }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }
}
