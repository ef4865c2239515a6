import XCTest

@testable import PaywallCore

final class PresentationResultTests: XCTestCase {
    func testJSONLine() {
        XCTAssertEqual(PresentationResult.declined.jsonLine, #"{"result":"declined"}"#)
        XCTAssertEqual(PresentationResult.timeout.jsonLine, #"{"result":"timeout"}"#)
    }

    func testExitCodes() {
        XCTAssertEqual(PresentationResult.declined.exitCode, 0)
        XCTAssertEqual(PresentationResult.timeout.exitCode, 3)
    }

    func testNames() {
        XCTAssertEqual(PresentationResult.declined.name, "declined")
        XCTAssertEqual(PresentationResult.timeout.name, "timeout")
    }
}
