import Foundation
import PaywallCore
import XCTest

/// Analytics through `paywall serve`: `initialize`'s `analytics` names the sink, the events a
/// client hears reach the PostHog stand-in at shutdown with the same uuid, and
/// `setAnalyticsConsent` false stops them (kept for the data directory).
final class SidecarAnalyticsTests: EndToEndTestCase {
    private func initialize(_ sidecar: SidecarProcess, _ server: PostHogServer) throws {
        let data = workDir.appendingPathComponent("data").path
        sidecar.send(
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"data_dir":"\#(data)","config":{"paywalls":[]},"#
                + #""analytics":{"posthog":{"host":"\#(server.baseURL.absoluteString)","api_key":"phc_test"}}}}"#)
        let answer = try JSONValue(parsing: try XCTUnwrap(sidecar.nextAnswer()))
        XCTAssertNotNil(answer["result"], "\(answer)")
    }

    private func register(_ sidecar: SidecarProcess, id: Int) throws {
        sidecar.send(#"{"jsonrpc":"2.0","id":\#(id),"method":"register","params":{"placement":"nowhere"}}"#)
        XCTAssertNotNil(try JSONValue(parsing: try XCTUnwrap(sidecar.nextAnswer()))["result"])
    }

    func testEventsReachTheSinkAtShutdownAndConsentStopsThem() throws {
        let server = try PostHogServer(directory: workDir.appendingPathComponent("server"))
        let sidecar = try SidecarProcess(in: workDir)
        try initialize(sidecar, server)
        try register(sidecar, id: 2)
        sidecar.send(#"{"jsonrpc":"2.0","id":3,"method":"setAnalyticsConsent","params":{"consent":"no"}}"#)
        let wrong = try JSONValue(parsing: try XCTUnwrap(sidecar.nextAnswer()))
        XCTAssertEqual(wrong["error"]?["code"], -32602)
        sidecar.close()
        let heard = sidecar.notifications.compactMap { try? JSONValue(parsing: $0) }
            .filter { $0["params"]?["name"] == "paywallPresentationRequest" }
        let uuid = try XCTUnwrap(heard.first?["params"]?["uuid"]?.stringValue)
        let sent = server.events.filter { $0["event"] as? String == "paywallPresentationRequest" }
        XCTAssertEqual(sent.map { $0["uuid"] as? String }, [uuid], "sent at shutdown, as the client heard it")
        // An anonymous user is this install, not one `$anonymous` shared by every machine.
        let install = try XCTUnwrap(sent.first?["distinct_id"] as? String)
        XCTAssertTrue(install.hasPrefix("install:"), install)
        XCTAssertEqual(heard.first?["params"]?["user_id"]?.stringValue, install, "the client hears the same user")
        XCTAssertEqual(server.violations, [])

        let requests = server.requests.count
        let withdrawn = try SidecarProcess(in: workDir)
        try initialize(withdrawn, server)
        withdrawn.send(#"{"jsonrpc":"2.0","id":2,"method":"setAnalyticsConsent","params":{"consent":false}}"#)
        XCTAssertEqual(try JSONValue(parsing: try XCTUnwrap(withdrawn.nextAnswer()))["result"], ["consent": false])
        try register(withdrawn, id: 3)
        withdrawn.close()
        let again = try SidecarProcess(in: workDir)
        try initialize(again, server)
        try register(again, id: 2)
        again.close()
        XCTAssertEqual(server.requests.count, requests, "no request without consent, in this run or the next")
    }
}
