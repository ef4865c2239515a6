import Foundation
import PaywallCore
import XCTest

/// Campaigns through `paywall serve`, as an app drives it: two users see variants a and b of
/// one experiment (the window's events carry the variant), a holdout user's gated feature
/// runs with no window, and `getPresentationResult` / `setAssignment` answer as the dry run.
final class SidecarCampaignTests: EndToEndTestCase {
    /// A JSON-RPC client over the sidecar's stdin and stdout.
    private final class Client: @unchecked Sendable {
        let process = Process()
        private let input = Pipe()
        private let output = Pipe()
        private let lock = NSLock()
        private var buffer = Data()
        private var lines: [JSONValue] = []
        private var nextId = 1

        init(in workDir: URL) throws {
            SidecarProcess.configureServe(process, in: workDir, input: input, output: output)
            output.fileHandleForReading.readabilityHandler = { [weak self] handle in
                let data = handle.availableData
                guard let self, !data.isEmpty else { return }
                lock.lock()
                buffer.append(data)
                while let newline = buffer.firstIndex(of: 0x0A) {
                    let line = buffer[buffer.startIndex..<newline]
                    buffer.removeSubrange(buffer.startIndex...newline)
                    if let value = try? JSONValue(parsing: String(decoding: line, as: UTF8.self)) { lines.append(value) }
                }
                lock.unlock()
            }
            try process.run()
        }

        /// Waits for the first line `matching` (a hang guard of 60 s, not a timing check).
        func take(_ matching: (JSONValue) -> Bool) -> JSONValue? {
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline {
                lock.lock()
                if let index = lines.firstIndex(where: matching) {
                    let line = lines.remove(at: index)
                    lock.unlock()
                    return line
                }
                lock.unlock()
                usleep(20_000)
            }
            return nil
        }

        /// Sends a request; returns its id.
        @discardableResult
        func send(_ method: String, _ params: JSONValue = .object([:])) -> Int {
            let id = nextId
            nextId += 1
            let line = JSONValue.object([
                "jsonrpc": "2.0", "id": .number(Double(id)), "method": .string(method), "params": params,
            ])
            input.fileHandleForWriting.write(Data((line.jsonText + "\n").utf8))
            return id
        }

        func result(of id: Int) -> JSONValue? {
            take { $0["id"] == .number(Double(id)) }.map { $0["result"] ?? $0 }
        }

        func call(_ method: String, _ params: JSONValue = .object([:])) -> JSONValue? { result(of: send(method, params)) }

        /// The events named `name` received and not taken yet (no waiting).
        func received(_ name: String) -> [JSONValue] {
            lock.lock()
            defer { lock.unlock() }
            return lines.filter { $0["method"] == "event" && $0["params"]?["name"] == .string(name) }
        }

        func event(_ name: String) -> JSONValue? {
            take { $0["method"] == "event" && $0["params"]?["name"] == .string(name) }?["params"]
        }

        func stop() {
            input.fileHandleForWriting.closeFile()
            process.waitUntilExit()
            output.fileHandleForReading.readabilityHandler = nil
        }
    }

    private func config() -> JSONValue {
        try! JSONValue(parsing: PlacementDryRunTests.configShowingClassic)
    }

    func testTwoUsersSeeVariantsAAndBAndAHoldoutRunsTheGatedFeatureWithNoWindow() throws {
        let client = try Client(in: workDir)
        defer { client.stop() }
        let catalog = Self.packageRoot.appendingPathComponent("templates/classic/store.json").path
        let initialized = client.call(
            "initialize",
            [
                "data_dir": .string(workDir.appendingPathComponent("data").path), "catalog": .string(catalog),
                "config": config(), "locale": "de_DE",
            ])
        XCTAssertNotNil(initialized?["user_id"], "\(String(describing: initialized))")
        // u3 lands in a and u5 in b (their SHA-256 buckets in exp1; see PlacementDryRunTests).
        for (user, variant, paywall) in [("u3", "a", "upsell_a"), ("u5", "b", "upsell_b")] {
            XCTAssertNotNil(client.call("identify", ["user_id": .string(user)]))
            XCTAssertEqual(
                client.call("getPresentationResult", ["placement": "export_pdf"])?["variant_id"], .string(variant), user)
            let register = client.send("register", ["placement": "export_pdf"])
            let fire = client.event("trigger_fire")
            XCTAssertEqual(fire?["params"]?["variant_id"], .string(variant), user)
            XCTAssertEqual(fire?["params"]?["result"], "paywall", user)
            let open = client.event("paywall_open")
            XCTAssertEqual(open?["params"]?["variant_id"], .string(variant), "\(user): the window's events carry the variant")
            XCTAssertEqual(open?["params"]?["experiment_id"], "exp1")
            XCTAssertEqual(open?["params"]?["audience_id"], "de_new")
            XCTAssertNotNil(client.call("dismiss"))
            let close = client.event("paywall_close")
            XCTAssertEqual(close?["params"]?["variant_id"], .string(variant))
            let answer = client.result(of: register)
            XCTAssertEqual(answer?["experiment"]?["variant_id"], .string(variant), "\(String(describing: answer))")
            XCTAssertEqual(answer?["experiment"]?["paywall"], .string(paywall))
            XCTAssertEqual(answer?["feature"], "not_run", "a declined gated paywall does not run the feature")
        }
        // u1 is in the holdout: nothing is shown, the gated feature runs.
        XCTAssertNotNil(client.call("identify", ["user_id": "u1"]))
        let held = client.call("register", ["placement": "export_pdf"])
        XCTAssertEqual(held?["feature"], "run", "\(String(describing: held))")
        XCTAssertEqual(held?["reason"], "holdout")
        XCTAssertEqual(held?["presentation"], .null)
        XCTAssertEqual(held?["experiment"]?["result"], "holdout")
        XCTAssertTrue(
            client.received("paywallPresentationRequest").contains { $0["params"]?["params"]?["reason"] == "holdout" },
            "\(client.received("paywallPresentationRequest"))")
        XCTAssertEqual(client.received("paywall_open").count, 0, "the holdout opened no window")
        // A tester forces u1 into b.
        XCTAssertEqual(
            client.call("setAssignment", ["experiment_id": "exp1", "variant_id": "b"]),
            ["experiment_id": "exp1", "variant_id": "b"])
        XCTAssertEqual(client.call("getPresentationResult", ["placement": "export_pdf"])?["variant_id"], "b")
        let refused = client.call("setAssignment", ["experiment_id": "exp1", "variant_id": "zz"])
        XCTAssertEqual(refused?["error"]?["code"], -32000, "\(String(describing: refused))")
        XCTAssertEqual(client.call("shutdown"), [:])
    }
}
