import Foundation
import XCTest

@testable import PaywallCore

final class JSONValueTests: XCTestCase {
    func testRoundTripOfNestedValues() throws {
        let value: JSONValue = [
            "null": nil, "yes": true, "no": false, "int": 42, "negative": -7,
            "fraction": .number(2.5), "text": "héllo \"quoted\"\n",
            "list": [1, [2, [3]], ["k": "v"]], "empty": [:], "emptyList": [],
        ]
        XCTAssertEqual(try JSONValue(parsing: value.jsonText), value)
    }

    func testParsesEveryKind() throws {
        XCTAssertEqual(try JSONValue(parsing: "null"), .null)
        XCTAssertEqual(try JSONValue(parsing: "true"), .bool(true))
        XCTAssertEqual(try JSONValue(parsing: "1"), .number(1), "a number is not a boolean")
        XCTAssertEqual(try JSONValue(parsing: "0"), .number(0), "a number is not a boolean")
        XCTAssertEqual(try JSONValue(parsing: "-1.25e2"), .number(-125))
        XCTAssertEqual(try JSONValue(parsing: #""s""#), .string("s"))
        XCTAssertEqual(try JSONValue(parsing: #"[1, "a"]"#), [1, "a"])
        XCTAssertEqual(try JSONValue(parsing: #"{"a": {"b": null}}"#), ["a": ["b": nil]])
        XCTAssertThrowsError(try JSONValue(parsing: "{nope"))
    }

    func testWholeNumbersPrintWithoutFraction() {
        XCTAssertEqual(JSONValue.number(3).jsonText, "3")
        XCTAssertEqual(JSONValue.number(-12).jsonText, "-12")
        XCTAssertEqual(JSONValue.number(0).jsonText, "0")
        XCTAssertEqual(JSONValue.number(86_400_000).jsonText, "86400000")
        XCTAssertEqual(JSONValue.number(1.5).jsonText, "1.5")
        XCTAssertEqual(([1, .number(2.0)] as JSONValue).jsonText, "[1,2]")
    }

    func testKeysAreSorted() {
        let value: JSONValue = ["zeta": 1, "alpha": ["d": 1, "c": 2], "mid": true]
        XCTAssertEqual(value.jsonText, #"{"alpha":{"c":2,"d":1},"mid":true,"zeta":1}"#)
    }

    func testAccessors() {
        let value: JSONValue = ["s": "x", "b": true, "a": [1], "o": ["k": 1]]
        XCTAssertEqual(value["s"]?.stringValue, "x")
        XCTAssertEqual(value["b"]?.boolValue, true)
        XCTAssertEqual(value["a"]?.arrayValue, [1])
        XCTAssertEqual(value["o"]?.objectValue, ["k": 1])
        XCTAssertNil(value["s"]?.boolValue)
        XCTAssertNil(value["missing"])
        XCTAssertNil(JSONValue.string("x")["k"])
    }
}
