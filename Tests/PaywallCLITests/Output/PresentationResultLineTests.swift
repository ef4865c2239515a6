import PaywallCore
import XCTest

@testable import PaywallCLI

/// The CLI's line and exit status for each `PresentationResult` (the model stays in the core).
final class PresentationResultLineTests: XCTestCase {
    func testJSONLine() {
        XCTAssertEqual(PresentationResult.declined.jsonLine, #"{"result":"declined"}"#)
        XCTAssertEqual(PresentationResult.timeout.jsonLine, #"{"result":"timeout"}"#)
        XCTAssertEqual(
            PresentationResult.scriptError(message: #"--eval #1 threw: "x""#).jsonLine,
            #"{"result":"script_error","message":"--eval #1 threw: \"x\""}"#)
    }

    func testExitCodes() {
        XCTAssertEqual(PresentationResult.declined.exitCode, 0)
        XCTAssertEqual(PresentationResult.timeout.exitCode, 3)
        XCTAssertEqual(PresentationResult.scriptError(message: "m").exitCode, 4)
        XCTAssertEqual(PresentationResult.purchased(productId: "p").exitCode, 0)
    }
}
