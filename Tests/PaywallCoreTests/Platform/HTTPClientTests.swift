import Foundation
import XCTest

@testable import PaywallCore

/// The libcurl client against a local server: each method and body kind as sent, a redirect
/// reported as one (never followed), a body cut short in words, and the sink's limit.
final class HTTPClientTests: XCTestCase {
    private var dir: URL!
    private var server: TestHTTPServer!

    override func setUpWithError() throws {
        dir = try makeTemporaryDirectory("HTTPClientTests")
        server = try TestHTTPServer(root: dir)
        try server.route("echo", ["echo": true])
    }

    override func tearDown() {
        server?.stop()
        removeTemporaryDirectory(dir)
    }

    /// Sends `request` and returns the echo server's JSON of it.
    @MainActor
    private func echo(_ request: HTTPRequest) async throws -> JSONValue {
        let sink = DownloadSink(limit: 10_000, kind: .apiAnswer)
        let response = try await HTTPClient.send(
            request, into: sink, idleTimeout: 5, deadline: Date().addingTimeInterval(30), deadlineReason: "timed out")
        XCTAssertEqual(response.statusCode, 200)
        return try JSONValue(parsing: String(decoding: sink.data, as: UTF8.self))
    }

    @MainActor
    func testEachMethodAndBodyArriveAsSent() async throws {
        let url = server.url("echo")
        let get = try await echo(.get(url))
        XCTAssertEqual(get["method"], "GET")
        XCTAssertEqual(get["body"], "")
        let form = try await echo(.post(url, form: ["b": "x y", "a": "1&2"]))
        XCTAssertEqual(form["method"], "POST")
        XCTAssertEqual(form["content_type"], "application/x-www-form-urlencoded")
        XCTAssertEqual(form["body"], "a=1%262&b=x%20y")
        let json = try await echo(.post(url, json: Data(#"{"event":"open"}"#.utf8)))
        XCTAssertEqual(json["content_type"], "application/json")
        XCTAssertEqual(json["body"], #"{"event":"open"}"#)
        let delete = try await echo(.delete(url))
        XCTAssertEqual(delete["method"], "DELETE")
    }

    @MainActor
    func testARedirectIsReportedAndNotFollowed() async throws {
        try server.route("moved", ["redirect": .string(server.url("echo").absoluteString)])
        let sink = DownloadSink(limit: 10_000, kind: .document)
        await assertThrowsErrorAsync(
            try await HTTPClient.send(
                .get(server.url("moved")), into: sink, idleTimeout: 5, deadline: Date().addingTimeInterval(30),
                deadlineReason: "timed out"),
            contains: "redirected (HTTP 302) to \(server.url("echo").absoluteString); redirects are not followed")
        XCTAssertEqual(sink.count, 0)
    }

    @MainActor
    func testABodyCutShortSaysSo() async throws {
        try server.route("short", ["short": 1000])
        let sink = DownloadSink(limit: 10_000, kind: .document)
        await assertThrowsErrorAsync(
            try await HTTPClient.send(
                .get(server.url("short")), into: sink, idleTimeout: 5, deadline: Date().addingTimeInterval(30),
                deadlineReason: "timed out"),
            contains: "the answer was cut short: the connection closed after 500 bytes of the 1000 it declared")
    }

    /// A stream past the limit stops there: the sink never holds more than its limit.
    @MainActor
    func testAnEndlessBodyStopsAtTheLimit() async throws {
        try server.route("forever", ["forever": true])
        let sink = DownloadSink(limit: 100_000, kind: .apiAnswer)
        await assertThrowsErrorAsync(
            try await HTTPClient.send(
                .get(server.url("forever")), into: sink, idleTimeout: 5, deadline: Date().addingTimeInterval(30),
                deadlineReason: "timed out"),
            contains: "larger than the 100000 bytes limit for a license API's answer")
        XCTAssertLessThanOrEqual(sink.count, 100_000)
    }
}
