import PaywallSidecar
import XCTest

/// How `paywall serve` cuts the app's bytes into lines.
final class LineFramerTests: XCTestCase {
    private func lines(_ frames: [LineFramer.Frame]) -> [String] {
        frames.map { if case .line(let bytes) = $0 { String(decoding: bytes, as: UTF8.self) } else { "<too long>" } }
    }

    func testLinesAcrossReadsWithCRLFAndBlankLinesSkipped() {
        var framer = LineFramer()
        XCTAssertEqual(lines(framer.feed(Array("{\"a\":1}\n{\"b\"".utf8))), ["{\"a\":1}"])
        XCTAssertEqual(lines(framer.feed(Array(":2}\r\n\n  \n{\"c\":3}\n".utf8))), ["{\"b\":2}", "{\"c\":3}"])
        XCTAssertEqual(lines(framer.feed(Array("partial".utf8))), [])
    }

    /// A line over the limit is reported once, as soon as it crosses it, and its rest is
    /// dropped as it arrives (never held); the next line is read as usual.
    func testALineOverTheLimitIsReportedOnceAndDiscarded() {
        var framer = LineFramer(limit: 10)
        XCTAssertEqual(lines(framer.feed(Array("0123456".utf8))), [])
        XCTAssertEqual(lines(framer.feed(Array("789AB".utf8))), ["<too long>"])
        XCTAssertEqual(lines(framer.feed(Array(repeating: UInt8(ascii: "x"), count: 100))), [])
        XCTAssertEqual(lines(framer.feed(Array("xx\nok\n".utf8))), ["ok"])
        XCTAssertEqual(lines(framer.feed(Array("0123456789\n".utf8))), ["0123456789"], "exactly the limit is fine")
        XCTAssertEqual(LineFramer.maxLineBytes, 1_048_576)
    }
}
