import XCTest

@testable import PaywallCLI

/// A last positional ending in `...` (`paywall report FILE...`) takes one or more arguments.
final class RepeatingPositionalTests: XCTestCase {
    func testFileDotsTakesOneOrMore() throws {
        XCTAssertEqual(try ReportCommand.spec.parse(["a.jsonl"]).positionals, ["a.jsonl"])
        XCTAssertEqual(try ReportCommand.spec.parse(["a.jsonl", "b.jsonl", "--json"]).positionals, ["a.jsonl", "b.jsonl"])
        XCTAssertThrowsError(try ReportCommand.spec.parse(["--json"])) { error in
            XCTAssertEqual((error as? CLIError)?.exitCode, 2)
        }
    }

    func testOtherCommandsStillRefuseExtraArguments() {
        XCTAssertThrowsError(try StatusCommand.spec.parse(["extra"]))
    }
}
