import Foundation
import PaywallCore
import XCTest

/// Events reach a local stand-in of PostHog's batch endpoint through the real outbox
/// (SQLite), the real HTTP client and the built `paywall`: nothing is lost offline or to a
/// kill -9, repeats carry the same uuid, a wrong key erases nothing, and without consent
/// nothing is asked of the network.
final class AnalyticsDeliveryTests: EndToEndTestCase {
    private var dataDir: URL { workDir.appendingPathComponent("data") }
    private var outboxPath: String { dataDir.appendingPathComponent("analytics.sqlite").path }

    private func sink(_ server: PostHogServer) -> AnalyticsSink {
        AnalyticsSink(kind: .posthog(.init(host: server.baseURL, apiKey: "phc_test")))
    }

    /// An outbox in the data directory holding `count` events for PostHog; their uuids.
    private func queue(_ count: Int) throws -> (AnalyticsOutbox, [String]) {
        try FileManager.default.createDirectory(at: dataDir, withIntermediateDirectories: true)
        let outbox = try AnalyticsOutbox(path: outboxPath)
        var uuids: [String] = []
        for n in 0..<count {
            var event = PaywallEvent(.paywallOpen, ["paywall_identifier": "classic", "n": .number(Double(n))])
            event.uuid = UUID().uuidString.lowercased()
            event.userId = "$anonymous"
            event.locale = "en"
            outbox.enqueue(line: event.jsonLine, uuid: event.uuid!, at: event.timestamp, context: "{}", sinks: ["posthog"])
            uuids.append(event.uuid!)
        }
        return (outbox, uuids)
    }

    /// A port nothing listens on: a server started there and stopped.
    private func closedPort() throws -> Int {
        let probe = try PostHogServer(directory: workDir.appendingPathComponent("probe"))
        let port = probe.port
        probe.stop()
        return port
    }

    func testOfflineThenOnlineDeliversEveryEventOnce() async throws {
        let (outbox, uuids) = try queue(250)
        let port = try closedPort()
        let offline = AnalyticsSink(
            kind: .posthog(.init(host: URL(string: "http://127.0.0.1:\(port)")!, apiKey: "phc_test")))
        let sender = AnalyticsSender(outbox: outbox, sinks: [offline])
        let left = await sender.pass(deadline: Date().addingTimeInterval(30), force: true)
        XCTAssertNotNil(left["posthog"], "offline: the queue stays")
        XCTAssertEqual(outbox.queuedCount(), 250)
        XCTAssertNotNil(try outbox.status().first?.lastError)

        let server = try PostHogServer(directory: workDir.appendingPathComponent("server"), port: port)
        let online = await sender.pass(deadline: Date().addingTimeInterval(30), force: true)
        XCTAssertEqual(online, [String: String]())
        XCTAssertEqual(outbox.queuedCount(), 0)
        XCTAssertEqual(server.uuids, uuids, "every event once, in order")
        XCTAssertEqual(server.requests.count, 3, "batches of at most 100")
        XCTAssertEqual(server.violations, [])
        XCTAssertNotNil(try outbox.status().first?.lastSuccess)
    }

    func testKillNineMidSendLosesNothingAndRepeatsOnlyWithTheSameUUID() throws {
        let (_, uuids) = try queue(150)
        let server = try PostHogServer(directory: workDir.appendingPathComponent("server"), script: ["hang"])
        let config = workDir.appendingPathComponent("config.json")
        try Data(
            #"{"paywalls": [], "analytics": {"posthog": {"host": "\#(server.baseURL.absoluteString)", "api_key": "phc_test"}}}"#
                .utf8
        ).write(to: config)
        let arguments = ["analytics", "flush", "--config", config.path, "--data-dir", dataDir.path]
        let first = try PaywallProcess(arguments, in: workDir)
        for _ in 0..<1500 where server.requests.isEmpty { usleep(20_000) }
        XCTAssertEqual(server.requests.count, 1, "the first batch is on its way")
        kill(first.process.processIdentifier, SIGKILL)
        first.process.waitUntilExit()
        XCTAssertEqual(first.process.terminationReason, .uncaughtSignal)

        let second = try PaywallProcess.run(arguments, in: workDir)
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(Set(server.uuids), Set(uuids), "nothing lost")
        let hung = Set(server.events.prefix(100).compactMap { $0["uuid"] as? String })
        var seen: [String: Int] = [:]
        for uuid in server.uuids { seen[uuid, default: 0] += 1 }
        for (uuid, times) in seen where times > 1 {
            XCTAssertTrue(hung.contains(uuid), "only the batch in flight at the kill is repeated")
            XCTAssertEqual(times, 2)
        }
        XCTAssertEqual(seen.values.filter { $0 == 2 }.count, 100, "the hung batch was sent again, with its uuids")
        XCTAssertEqual(server.violations, [])
        let status = try PaywallProcess.run(["analytics", "status", "--data-dir", dataDir.path, "--json"], in: workDir)
        let report = try JSONValue(parsing: status.stdout)
        XCTAssertEqual(report["sinks"]?.arrayValue?.first?["queued"], .number(0))
    }

    func testA401KeepsTheQueueAndRecordsTheError() async throws {
        let (outbox, uuids) = try queue(120)
        let server = try PostHogServer(directory: workDir.appendingPathComponent("server"), script: [401, 403, 404])
        let sender = AnalyticsSender(outbox: outbox, sinks: [sink(server)])
        for status in [401, 403, 404] {
            let left = await sender.pass(deadline: Date().addingTimeInterval(30), force: true)
            XCTAssertTrue(left["posthog"]?.contains("HTTP \(status)") == true, "\(left)")
            XCTAssertEqual(outbox.queuedCount(), 120, "a wrong key erases nothing")
        }
        let status = try XCTUnwrap(try outbox.status().first)
        XCTAssertTrue(status.lastError?.contains("HTTP 404") == true, status.lastError ?? "")
        XCTAssertEqual(status.dropped, 0)
        // The CLI says why, and exits 1.
        let config = workDir.appendingPathComponent("config.json")
        try Data(
            #"{"paywalls": [], "analytics": {"posthog": {"host": "http://127.0.0.1:\#(try closedPort())", "api_key": "k"}}}"#.utf8
        ).write(to: config)
        let flush = try PaywallProcess.run(
            ["analytics", "flush", "--config", config.path, "--data-dir", dataDir.path], in: workDir)
        XCTAssertEqual(flush.status, 1)
        XCTAssertTrue(flush.stderr.contains("120 event(s) left queued: posthog: "), flush.stderr)
        // The key fixed: everything arrives.
        let left = await sender.pass(deadline: Date().addingTimeInterval(30), force: true)
        XCTAssertEqual(left, [String: String]())
        XCTAssertEqual(Array(server.uuids.suffix(120)), uuids)
    }

    func testRejectedBatchesAreDroppedCountedAndA413Splits() async throws {
        let (outbox, uuids) = try queue(150)
        let server = try PostHogServer(directory: workDir.appendingPathComponent("server"), script: [413, 400])
        let dropped = DropLog()
        let sender = AnalyticsSender(outbox: outbox, sinks: [sink(server)]) { dropped.add($0) }
        let left = await sender.pass(deadline: Date().addingTimeInterval(30), force: true)
        XCTAssertEqual(left, [String: String]())
        let sizes = server.requests.map { (($0["body"] as? [String: Any])?["batch"] as? [Any])?.count ?? 0 }
        XCTAssertEqual(sizes, [100, 50, 50, 50], "413: the batch of 100 is split; 400 drops one half")
        XCTAssertEqual(Set(server.events.suffix(100).compactMap { $0["uuid"] as? String }), Set(uuids.suffix(100)))
        XCTAssertEqual(dropped.all, [.init(sink: "posthog", reason: "rejected", count: 50)])
        XCTAssertEqual(try outbox.status().first?.dropped, 50)
    }

    func testA429WaitsForRetryAfter() async throws {
        let (outbox, uuids) = try queue(10)
        let server = try PostHogServer(
            directory: workDir.appendingPathComponent("server"), script: [["status": 429, "retry_after": "120"]])
        let sender = AnalyticsSender(outbox: outbox, sinks: [sink(server)])
        _ = await sender.pass(deadline: Date().addingTimeInterval(30), force: false)
        let waiting = await sender.pass(deadline: Date().addingTimeInterval(30), force: false)
        XCTAssertTrue(waiting["posthog"]?.hasPrefix("waiting to retry until") == true, "\(waiting)")
        XCTAssertEqual(server.requests.count, 1, "nothing sent before Retry-After")
        XCTAssertEqual(outbox.queuedCount(), 10)
        // Shutdown's last pass does not wait.
        let last = await sender.pass(deadline: Date().addingTimeInterval(30), force: true)
        XCTAssertEqual(last, [String: String]())
        XCTAssertEqual(Array(server.uuids.suffix(10)), uuids)
    }

    @MainActor
    func testWithoutConsentNothingIsQueuedOrSent() async throws {
        let server = try PostHogServer(directory: workDir.appendingPathComponent("server"))
        let settings = AnalyticsSettings(posthog: .init(host: server.baseURL, apiKey: "phc_test"))
        func runtime() throws -> PaywallRuntime {
            try PaywallRuntime(.init(dataDirectory: dataDir.path, userId: "alice", logLevel: .none, analytics: settings))
        }
        // With consent (the default) the events of a run arrive: the stand-in hears this runtime.
        let first = try runtime()
        first.events.emit(.paywallOpen, ["paywall_identifier": "classic"])
        let sentAll = await first.shutdownAnalytics(within: 10)
        XCTAssertTrue(sentAll)
        XCTAssertEqual(server.events.map { $0["event"] as? String }, ["paywall_open"])
        XCTAssertEqual(server.events.first?["distinct_id"] as? String, "alice")

        let second = try runtime()
        second.events.emit(.paywallOpen, ["paywall_identifier": "queued"])
        try second.setAnalyticsConsent(false)
        second.events.emit(.paywallClose, ["paywall_identifier": "classic"])
        XCTAssertEqual(second.analytics?.outbox.queuedCount(), 0, "withdrawn: the queue is emptied")
        _ = await second.shutdownAnalytics(within: 10)
        // The next run on this data directory keeps the choice, whatever the settings' default.
        let third = try runtime()
        third.events.emit(.paywallOpen, ["paywall_identifier": "classic"])
        XCTAssertEqual(third.analytics?.outbox.queuedCount(), 0)
        _ = await third.shutdownAnalytics(within: 10)
        XCTAssertEqual(server.requests.count, 1, "no request without consent")
    }

    /// A window command sends what it queued as it ends, within 2 s: the customer center as
    /// `present` does (it had quit with its events still queued).
    func testWindowCommandsSendTheirEventsAsTheyEnd() throws {
        let server = try PostHogServer(directory: workDir.appendingPathComponent("server"))
        let config = workDir.appendingPathComponent("config.json")
        try Data(
            #"{"paywalls": [], "analytics": {"posthog": {"host": "\#(server.baseURL.absoluteString)", "api_key": "phc_test"}}}"#
                .utf8
        ).write(to: config)
        let loaded = try PaywallProcess.run(["config", "load", config.path, "--data-dir", dataDir.path], in: workDir)
        XCTAssertEqual(loaded.status, 0, loaded.stderr)
        let center = try PaywallProcess.run(
            [
                "customer-center", "--data-dir", dataDir.path, "--user", "ada", "--timeout", "30", "--eval",
                "CustomerCenter.tap('[data-action=\"close\"]')",
            ],
            in: workDir)
        XCTAssertEqual(center.stdout, "{\"result\":\"closed\"}\n", center.stderr)
        let names = server.events.compactMap { $0["event"] as? String }
        XCTAssertTrue(names.contains("customerCenter_open"), "\(names)")
        XCTAssertTrue(names.contains("customerCenter_close"), "\(names)")
        XCTAssertTrue(server.events.allSatisfy { $0["distinct_id"] as? String == "ada" }, "\(server.events)")
        let status = try PaywallProcess.run(["analytics", "status", "--data-dir", dataDir.path, "--json"], in: workDir)
        XCTAssertEqual(try JSONValue(parsing: status.stdout)["sinks"]?.arrayValue?.first?["queued"], .number(0), status.stdout)
    }

    func testTheWebhookGetsEventLogLinesWithItsHeaders() async throws {
        try FileManager.default.createDirectory(at: dataDir, withIntermediateDirectories: true)
        let outbox = try AnalyticsOutbox(path: outboxPath)
        var event = PaywallEvent(.transactionComplete, ["product_identifier": "pro", "price": "$4.99", "currency": "USD"])
        event.uuid = UUID().uuidString.lowercased()
        event.userId = "alice"
        event.locale = "de_DE"
        outbox.enqueue(line: event.jsonLine, uuid: event.uuid!, at: event.timestamp, context: "{}", sinks: ["webhook"])
        let server = try PostHogServer(directory: workDir.appendingPathComponent("server"))
        let webhook = AnalyticsSink(
            kind: .webhook(
                .init(url: server.baseURL.appendingPathComponent("hook"), headers: ["Authorization": "Bearer secret"])))
        let left = await AnalyticsSender(outbox: outbox, sinks: [webhook]).pass(
            deadline: Date().addingTimeInterval(30), force: true)
        XCTAssertEqual(left, [String: String]())
        let request = try XCTUnwrap(server.requests.first)
        XCTAssertEqual(request["path"] as? String, "/hook")
        XCTAssertEqual(request["content_type"] as? String, "application/json")
        XCTAssertEqual((request["headers"] as? [String: String])?["authorization"], "Bearer secret")
        let body = try JSONValue(
            parsing: String(decoding: try JSONSerialization.data(withJSONObject: request["body"] ?? [:]), as: UTF8.self))
        XCTAssertEqual(body, ["events": [event.json]], "each event as its event-log line")
    }

    func testTheQueueBoundHoldsThroughTheCLI() throws {
        let (_, _) = try queue(AnalyticsOutbox.maxEvents + 5)
        let status = try PaywallProcess.run(["analytics", "status", "--data-dir", dataDir.path, "--json"], in: workDir)
        XCTAssertEqual(status.status, 0, status.stderr)
        let sink = try XCTUnwrap(try JSONValue(parsing: status.stdout)["sinks"]?.arrayValue?.first)
        XCTAssertEqual(sink["queued"], .number(10_000))
        XCTAssertEqual(sink["dropped"], .number(5))
    }
}

/// The drops a sender reported, from its thread.
private final class DropLog: @unchecked Sendable {
    private let lock = NSLock()
    private var drops: [AnalyticsOutbox.Drop] = []
    func add(_ more: [AnalyticsOutbox.Drop]) { lock.withLock { drops += more } }
    var all: [AnalyticsOutbox.Drop] { lock.withLock { drops } }
}
