import Foundation
import XCTest

@testable import PaywallCore

/// The hand-written JSON parser and writer agree with Foundation's coders, which they replace
/// on the page-message path, and refuse what is not JSON.
final class JSONCodecTests: XCTestCase {
    private static let corpus = [
        #"null"#, #"true"#, #"false"#, #"0"#, #"-0"#, #"7"#, #"-12"#, #"0.1"#, #"1.5"#, #"-2.25e-3"#, #"1E+20"#,
        #"123456789.125"#, #"1e-7"#, #"999999999999999"#, #"1000000000000000"#, #"4.35"#, #"1e300"#,
        #"1e16"#, #"12345678901234567890"#, #"0.000001"#, #"5e-324"#, #"1.7976931348623157e308"#, #"3.14159"#, #"-1e-300"#,
        #""""#, #""plain""#, #""quote \" backslash \\ slash \/ /""#, #""tab\tnew\nline\r\b\f""#,
        #""\u0001\u001f control""#, #""é ü 漢字 \u00e9 \u6f22""#, #""emoji 😀 \ud83d\ude00""#, #""<script>\u2028""#,
        #"[]"#, #"{}"#, #"[1, [2, [3, {}]], "x", null]"#,
        #"{"b": 1, "a": {"z": [true, false], "é": "x", "B": 2, "a10": 1, "a2": 2}, "": 0}"#,
        #" { "version" : 1 , "payload" : { "events" : [ { "event_name" : "ping" } ] } } "#,
    ]

    func testParserAgreesWithJSONDecoder() throws {
        for text in Self.corpus {
            let expected = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
            XCTAssertEqual(try JSONParser.parse(text), expected, text)
        }
    }

    func testWriterAgreesWithJSONEncoder() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for text in Self.corpus {
            let value = try JSONParser.parse(text)
            let expected = String(decoding: try encoder.encode(value), as: UTF8.self)
            XCTAssertEqual(JSONWriter.text(value), expected, text)
            XCTAssertEqual(try JSONParser.parse(JSONWriter.text(value)), value, "round trip of \(text)")
        }
        XCTAssertEqual(JSONWriter.text(.number(.nan)), "null")
        XCTAssertEqual(JSONWriter.text(.number(-.infinity)), "null")
    }

    func testKeysSortByBytesAsJSONEncoderDoes() throws {
        let decomposed = "A\u{030A}"  // Å as A + combining ring: Swift's < puts it after "B"
        let value = JSONValue.object(["B": 1, decomposed: 2, "A": 3, "\u{1100}\u{1161}": 4, "가a": 5])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        XCTAssertEqual(JSONWriter.text(value), String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    func testByteOrderMarkIsSkippedAndTheLastDuplicateKeyWins() throws {
        XCTAssertEqual(try JSONParser.parse("\u{FEFF}{\"version\": \"2.1.0\"}"), ["version": "2.1.0"])
        XCTAssertEqual(try JSONParser.parse(#"{"a": 1, "a": 2}"#), ["a": 2])
        XCTAssertThrowsError(try JSONParser.parse("[1, \u{FEFF}2]"), "a BOM only counts at the start")
    }

    func testParserRefusesWhatIsNotJSON() {
        let bad = [
            "", " ", "nul", "tru", "01", "1.", ".5", "+1", "-", "1e", "1e400", "[1,]", "[1 2]", "{\"a\" 1}", "{\"a\":1,}",
            "{a:1}", "'x'", "\"unterminated", "\"bad \\x escape\"", "\"\\u12\"", "\"\\ud83d\\u12\"",
            "\"raw\u{01}control\"", "[1] 2", "NaN", "[", "{",
        ]
        for text in bad {
            XCTAssertThrowsError(try JSONParser.parse(text), "accepted \(text.debugDescription)")
        }
    }

    /// As `JSON.parse` does: a surrogate without its pair is kept as U+FFFD rather than refused.
    func testLoneSurrogatesBecomeReplacementCharacters() throws {
        for (text, expected) in [
            (#""\ud800""#, "\u{FFFD}"), (#""\ud83d alone""#, "\u{FFFD} alone"), (#""\ude00""#, "\u{FFFD}"),
            (#""\ud800\u0041""#, "\u{FFFD}A"), (#""\ud800\ud83d\ude00""#, "\u{FFFD}😀"),
            (#""\ude00\ud83d""#, "\u{FFFD}\u{FFFD}"), (#""x\ud800\n""#, "x\u{FFFD}\n"),
        ] {
            XCTAssertEqual(try JSONParser.parse(text), .string(expected), text)
        }
    }

    /// Files refuse what page messages accept: a repeated key, and bytes that are not UTF-8.
    func testFilesRefuseDuplicateKeysAndBytesThatAreNotUTF8() throws {
        XCTAssertEqual(
            try JSONParser.parseFile(Array(#"{"a": {"b": 1}, "c": [{"b": 2}]}"#.utf8)), ["a": ["b": 1], "c": [["b": 2]]])
        XCTAssertThrowsError(try JSONParser.parseFile(Array("{\"a\": 1,\n \"a\": 2}".utf8))) { error in
            XCTAssertEqual(
                "\(error)", #"duplicate key "a" (each key may appear once in an object; remove one) at line 2, column 2"#)
        }
        XCTAssertThrowsError(try JSONParser.parseFile(Array(#"{"é": ""#.utf8) + [0xFF, 0x22, 0x7D])) { error in
            XCTAssertEqual("\(error)", "bytes that are not UTF-8 text (save the file as UTF-8) at line 1, column 8")
        }
        XCTAssertEqual(try JSONParser.parseFile(Array("\u{FEFF}[0.1]".utf8)), [.number(0.1)])
    }

    func testErrorsSayLineAndColumn() {
        XCTAssertThrowsError(try JSONParser.parse("{\n  \"a\": [1,\n  é, 2]}")) { error in
            XCTAssertEqual("\(error)", "unexpected character at line 3, column 3")
        }
    }

    func testDeepNestingIsRefusedNotACrash() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        XCTAssertThrowsError(try JSONParser.parse(deep)) { error in
            XCTAssertTrue("\(error)".contains("nested more than 512 levels"), "\(error)")
        }
        let fine = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        XCTAssertNoThrow(try JSONParser.parse(fine))
    }
}
