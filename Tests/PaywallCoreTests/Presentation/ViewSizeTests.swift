import XCTest

@testable import PaywallCore

final class ViewSizeTests: XCTestCase {
    func testParsesWidthByHeight() {
        XCTAssertEqual(ViewSize(parsing: "400x720"), ViewSize(width: 400, height: 720))
        XCTAssertEqual(ViewSize(parsing: "400X720"), ViewSize(width: 400, height: 720))
        XCTAssertEqual(ViewSize(parsing: "1x10000"), ViewSize(width: 1, height: 10_000))
    }

    func testRejectsInvalidSizes() {
        for text in ["400", "x720", "400x", "0x10", "10x0", "-1x5", "abc", "10x10x10", "20000x10", "10x20000", "", "x"] {
            XCTAssertNil(ViewSize(parsing: text), text)
        }
    }

    func testDescriptionAndStandard() {
        XCTAssertEqual(ViewSize(width: 320, height: 568).description, "320x568")
        XCTAssertEqual(ViewSize.standard, ViewSize(width: 400, height: 720))
    }
}
