import Foundation
import XCTest

@testable import PaywallCore

/// How queued events become each sink's request, what the settings accept, and what never
/// leaves the machine.
final class AnalyticsSinkTests: XCTestCase {
    private let context = AnalyticsSink.Context(
        runtimeVersion: "0.1.0", appVersion: "2.3", osName: "Debian GNU/Linux", osVersion: "13", store: "controller")

    private func row(_ event: PaywallEvent) -> AnalyticsOutbox.Row {
        AnalyticsOutbox.Row(id: 1, uuid: event.uuid ?? "", line: event.jsonLine, context: context.json.jsonText)
    }

    private var event: PaywallEvent {
        var event = PaywallEvent(
            .transactionComplete,
            ["product_identifier": "pro.monthly", "price": "$4.99", "currency": "USD", "assignments": ["exp": "b"]],
            timestamp: Date(timeIntervalSince1970: 1_800_000_000))
        event.uuid = "0d1c6f0e-5b7a-4c4e-9d0f-2a1b3c4d5e6f"
        event.userId = "alice"
        event.locale = "de_DE"
        return event
    }

    func testPostHogGetsTheBatchAPIsShape() throws {
        let sink = AnalyticsSink(
            kind: .posthog(.init(host: URL(string: "https://eu.i.posthog.com")!, apiKey: "phc_key")))
        let request = sink.request(for: [row(event)])
        XCTAssertEqual(request.url.absoluteString, "https://eu.i.posthog.com/batch/")
        XCTAssertEqual(request.method, "POST")
        XCTAssertEqual(request.headers["Content-Type"], "application/json")
        let body = try JSONValue(parsing: String(decoding: request.body ?? Data(), as: UTF8.self))
        XCTAssertEqual(body["api_key"], "phc_key")
        let item = try XCTUnwrap(body["batch"]?.arrayValue?.first)
        XCTAssertEqual(item["event"], "transaction_complete")
        XCTAssertEqual(item["distinct_id"], "alice")
        XCTAssertEqual(item["uuid"], "0d1c6f0e-5b7a-4c4e-9d0f-2a1b3c4d5e6f")
        XCTAssertEqual(item["timestamp"], "2027-01-15T08:00:00.000Z")
        let properties = try XCTUnwrap(item["properties"])
        XCTAssertEqual(properties["price"], "$4.99")
        XCTAssertEqual(properties["currency"], "USD")
        XCTAssertEqual(properties["assignments"], ["exp": "b"])
        XCTAssertEqual(properties["locale"], "de_DE")
        XCTAssertEqual(properties["store"], "controller")
        XCTAssertEqual(properties["app_version"], "2.3")
        XCTAssertEqual(properties["runtime_version"], "0.1.0")
        XCTAssertEqual(properties["$os"], "Debian GNU/Linux")
    }

    func testTheWebhookGetsEventLogLines() throws {
        let sink = AnalyticsSink(
            kind: .webhook(.init(url: URL(string: "https://example.com/hook")!, headers: ["Authorization": "Bearer t"])))
        let request = sink.request(for: [row(event)])
        XCTAssertEqual(request.url.absoluteString, "https://example.com/hook")
        XCTAssertEqual(request.headers["Authorization"], "Bearer t")
        let body = try JSONValue(parsing: String(decoding: request.body ?? Data(), as: UTF8.self))
        XCTAssertEqual(body, ["events": [event.json]])
    }

    func testNoLicenseKeyLinkOrEmailIsSent() {
        let sent = AnalyticsPipeline.sendable(
            PaywallEvent(
                .licenseActivate,
                ["license_key": "****4d51", "link": "app://paywall/redeem?license_key=****", "customer_email": "a@b.c", "n": 1]))
        XCTAssertEqual(sent.params, ["n": 1])
    }

    func testSettingsAreHTTPSOnlyButForLoopback() throws {
        let ok = try AnalyticsSettings(
            json: try JSONValue(
                parsing:
                    #"{"posthog": {"host": "http://127.0.0.1:8000", "api_key": "phc"}, "send_sandbox": true, "consent": false}"#),
            path: "analytics")
        XCTAssertEqual(ok.posthog?.host.absoluteString, "http://127.0.0.1:8000")
        XCTAssertTrue(ok.sendSandbox)
        XCTAssertFalse(ok.consent)
        XCTAssertThrowsError(
            try AnalyticsSettings(
                json: try JSONValue(parsing: #"{"webhook": {"url": "http://example.com/hook"}}"#), path: "analytics")
        ) { error in
            XCTAssertEqual(
                "\(error)",
                "analytics.webhook.url: must be https (http only to a loopback address, for tests); got http://example.com/hook")
        }
        XCTAssertThrowsError(
            try AnalyticsSettings(json: try JSONValue(parsing: #"{"posthog": {"host": "https://x.y"}}"#), path: "analytics")
        ) { XCTAssertEqual("\($0)", "analytics.posthog.api_key is required: the project API key (phc_...)") }
    }

    func testRetryAfterReadsSecondsAndDates() {
        XCTAssertEqual(AnalyticsSender.seconds(retryAfter: "120"), 120)
        let later = Date().addingTimeInterval(3600)
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "GMT")
        format.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        let seconds = AnalyticsSender.seconds(retryAfter: format.string(from: later)) ?? 0
        XCTAssertTrue((3590...3600).contains(seconds), "\(seconds)")
    }
}
