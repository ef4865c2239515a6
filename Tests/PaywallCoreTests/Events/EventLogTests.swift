import Foundation
import XCTest

@testable import PaywallCore

final class EventLogTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = try makeTemporaryDirectory("EventLogTests")
    }

    override func tearDown() {
        removeTemporaryDirectory(dir)
        dir = nil
    }

    private func lines(of path: String) throws -> [String] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertTrue(text.hasSuffix("\n"), "every line ends with a newline")
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    func testWritesOneJSONObjectPerLine() throws {
        let path = dir.appendingPathComponent("events.jsonl").path
        let log = try EventLog(path: path)
        XCTAssertEqual(log.path, path)
        log.append(PaywallEvent(.paywallOpen, ["paywall_identifier": "pw"]))
        log.append(PaywallEvent(.custom, ["data": "line one\nline two", "n": 2]))

        let lines = try lines(of: path)
        guard lines.count == 2 else { return XCTFail("expected 2 lines, got \(lines)") }
        let first = try JSONValue(parsing: lines[0])
        let second = try JSONValue(parsing: lines[1])
        XCTAssertEqual(first.objectValue.map { Set($0.keys) }, ["name", "params", "timestamp"])
        XCTAssertEqual(first["name"], .string(EventName.paywallOpen.rawValue))
        XCTAssertEqual(first["params"], ["paywall_identifier": "pw"])
        XCTAssertEqual(second["name"], .string(EventName.custom.rawValue))
        XCTAssertEqual(second["params"], ["data": "line one\nline two", "n": 2])

        let stamp = try XCTUnwrap(first["timestamp"]?.stringValue)
        XCTAssertNotNil(
            stamp.range(of: #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$"#, options: .regularExpression),
            stamp)
        XCTAssertNotNil(try? Date(stamp, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
    }

    func testTwoLogsAppendingToOnePathKeepEveryLine() throws {
        let path = dir.appendingPathComponent("shared.jsonl").path
        let a = try EventLog(path: path)
        let b = try EventLog(path: path)
        a.append(PaywallEvent(.paywallOpen))
        b.append(PaywallEvent(.pageReady))
        a.append(PaywallEvent(.paywallDecline))
        b.append(PaywallEvent(.paywallClose))
        let names = try lines(of: path).map { try JSONValue(parsing: $0)["name"] }
        XCTAssertEqual(names, [EventName.paywallOpen, .pageReady, .paywallDecline, .paywallClose].map { .string($0.rawValue) })
    }

    func testReopeningAppendsInsteadOfTruncating() throws {
        let path = dir.appendingPathComponent("again.jsonl").path
        try EventLog(path: path).append(PaywallEvent(.paywallOpen))
        try EventLog(path: path).append(PaywallEvent(.paywallClose))
        XCTAssertEqual(
            try lines(of: path).map { try JSONValue(parsing: $0)["name"] },
            [EventName.paywallOpen, .paywallClose].map { .string($0.rawValue) })
    }

    func testMissingDirectoryThrowsCannotOpenNamingThePath() throws {
        let path = dir.appendingPathComponent("no/such/dir/events.jsonl").path
        do {
            _ = try EventLog(path: path)
            XCTFail("opening \(path) should fail")
        } catch {
            guard case .cannotOpen(let failedPath, let reason) = error else {
                return XCTFail("unexpected error \(error)")
            }
            XCTAssertEqual(failedPath, path)
            XCTAssertFalse(reason.isEmpty)
            XCTAssertTrue(error.description.contains(path), error.description)
            XCTAssertTrue(error.description.hasPrefix("cannot open event log "), error.description)
        }
    }
}
