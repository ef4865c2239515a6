import Foundation
import XCTest

@testable import PaywallCore

final class PaywallEventTests: XCTestCase {
    func testJSONLineIsExact() {
        // 2023-11-14T22:13:20.250Z
        let event = PaywallEvent(
            .paywallClose, ["result": "declined", "paywall_identifier": "pw"],
            timestamp: Date(timeIntervalSince1970: 1_700_000_000.25))
        XCTAssertEqual(
            event.jsonLine,
            #"{"name":"\#(EventName.paywallClose.rawValue)","params":{"paywall_identifier":"pw","result":"declined"},"timestamp":"2023-11-14T22:13:20.250Z"}"#
        )
    }

    func testJSONLineWithoutParams() {
        let event = PaywallEvent(.paywallOpen, timestamp: Date(timeIntervalSince1970: 0))
        XCTAssertEqual(
            event.jsonLine, #"{"name":"\#(EventName.paywallOpen.rawValue)","params":{},"timestamp":"1970-01-01T00:00:00.000Z"}"#)
    }

    func testJSONLineRoundTrips() throws {
        let params: [String: JSONValue] = ["nested": ["list": [1, "two", nil, true]], "url": "https://e.x/a/b"]
        let event = PaywallEvent(.custom, params, timestamp: Date(timeIntervalSince1970: 1))
        let parsed = try JSONValue(parsing: event.jsonLine)
        XCTAssertEqual(parsed["name"], .string(EventName.custom.rawValue))
        XCTAssertEqual(parsed["params"], .object(params))
        XCTAssertFalse(event.jsonLine.contains("\n"))
        XCTAssertTrue(event.jsonLine.contains("https://e.x/a/b"), "slashes are not escaped")
    }
}
