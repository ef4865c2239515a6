import XCTest

@testable import PaywallCore

final class PresentationResultTests: XCTestCase {
    func testNames() {
        XCTAssertEqual(PresentationResult.declined.name, "declined")
        XCTAssertEqual(PresentationResult.timeout.name, "timeout")
        XCTAssertEqual(PresentationResult.scriptError(message: "m").name, "script_error")
    }
}
