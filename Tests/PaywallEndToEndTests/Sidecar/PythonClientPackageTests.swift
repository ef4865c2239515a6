import Foundation
import XCTest

/// The Python client as a package: pip-installed from `clients/python` into `.build/venv`
/// (`scripts/venv`), imported from there (typed: `py.typed`), finding `paywall` on PATH, speaking
/// to the real sidecar, and refusing a sidecar whose protocol is newer than its own.
final class PythonClientPackageTests: EndToEndTestCase {
    private func python(_ script: String, environment: [String: String?] = [:]) throws -> PaywallProcess.Outcome {
        try PaywallProcess.run(
            ["-c", script], in: workDir, environment: environment, executable: try ClientVenv.interpreter(), timeout: 120)
    }

    func testTheInstalledPackageSpeaksToPaywallOnPath() throws {
        let bin = workDir.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: bin.appendingPathComponent("paywall"), withDestinationURL: PaywallProcess.executable)
        let outcome = try python(
            """
            import os, paywall_client
            from paywall_client import PaywallClient
            print(os.path.realpath(paywall_client.__file__))
            print(os.path.exists(os.path.join(os.path.dirname(paywall_client.__file__), "py.typed")))
            client = PaywallClient(deliver="thread")
            info = client.call("initialize", {"data_dir": "data"}, timeout=60)
            print(info["protocol_version"], info["runtime_version"], info["subscription_status"])
            print(client.close())
            """, environment: ["PATH": "\(bin.path):/usr/bin:/bin"])
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 4, outcome.stdout)
        guard lines.count == 4 else { return }
        XCTAssertTrue(
            lines[0].hasPrefix(ClientVenv.python.deletingLastPathComponent().deletingLastPathComponent().path + "/lib/"),
            "imported from the venv, not the checkout: \(lines[0])")
        XCTAssertEqual(lines[1], "True", "py.typed is installed")
        let version = try PaywallProcess.run(["--version"], in: workDir)
        XCTAssertEqual(lines[2], "1 \(version.stdout.dropFirst("paywall ".count).dropLast()) unknown")
        XCTAssertEqual(lines[3], "0")
    }

    func testASidecarSpeakingANewerProtocolIsRefused() throws {
        // A stand-in for a future sidecar: it answers initialize with protocol_version 2.
        let newer = workDir.appendingPathComponent("newer-sidecar.py")
        try """
        import json, sys
        for line in sys.stdin:
            request = json.loads(line)
            result = {"subscription_status": "unknown", "runtime_version": "9.0.0", "protocol_version": 2}
            print(json.dumps({"jsonrpc": "2.0", "id": request["id"], "result": result}), flush=True)
        """.write(to: newer, atomically: true, encoding: .utf8)
        let outcome = try python(
            """
            from paywall_client import PaywallClient, PaywallError, NEWER_PROTOCOL
            client = PaywallClient(["/usr/bin/python3", "\(newer.path)"], deliver="thread")
            try:
                client.call("initialize", {}, timeout=30)
                print("accepted")
            except PaywallError as error:
                print(error.code == NEWER_PROTOCOL, error.message)
            print(client.close())
            """)
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        XCTAssertEqual(
            outcome.stdout,
            "True paywall serve speaks protocol 2 (runtime 9.0.0); this paywall_client speaks 1: "
                + "upgrade paywall_client to the runtime's version\n0\n")
    }
}
