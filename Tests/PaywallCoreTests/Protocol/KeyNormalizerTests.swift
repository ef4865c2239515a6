import XCTest

@testable import PaywallCore

final class KeyNormalizerTests: XCTestCase {
    func testSnakeCase() {
        XCTAssertEqual(KeyNormalizer.snakeCase("productIdentifier"), "product_identifier")
        XCTAssertEqual(KeyNormalizer.snakeCase("requestID"), "request_id")
        XCTAssertEqual(KeyNormalizer.snakeCase("openURL"), "open_url")
        XCTAssertEqual(KeyNormalizer.snakeCase("URLValue"), "url_value")
        XCTAssertEqual(KeyNormalizer.snakeCase("already_snake"), "already_snake")
        XCTAssertEqual(KeyNormalizer.snakeCase("a2b"), "a2b")
    }

    func testSnakeCaseMoreShapes() {
        XCTAssertEqual(KeyNormalizer.snakeCase("eventName"), "event_name")
        XCTAssertEqual(KeyNormalizer.snakeCase("timeOnPreviousPageMs"), "time_on_previous_page_ms")
        XCTAssertEqual(KeyNormalizer.snakeCase("openUrlExternal"), "open_url_external")
        XCTAssertEqual(KeyNormalizer.snakeCase("page2View"), "page2_view")
        XCTAssertEqual(KeyNormalizer.snakeCase("Data"), "data")
        XCTAssertEqual(KeyNormalizer.snakeCase(""), "")
    }

    func testSnakeCasedObjectNormalizesOnlyTopLevelKeys() {
        let input: [String: JSONValue] = ["eventName": "custom_placement", "params": ["userTier": "gold"]]
        XCTAssertEqual(
            KeyNormalizer.snakeCased(input),
            ["event_name": "custom_placement", "params": ["userTier": "gold"]])
    }

    func testSnakeCasedObjectPrefersTheSnakeCaseTwin() {
        XCTAssertEqual(
            KeyNormalizer.snakeCased(["requestId": "camel", "request_id": "snake"]),
            ["request_id": "snake"])
    }
}
