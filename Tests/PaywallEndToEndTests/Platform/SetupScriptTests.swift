import Foundation
import XCTest

/// One setup for newcomers and CI: the README's first command and `.ci/run` both run
/// `scripts/setup`, and nothing else installs packages, so the two cannot drift.
final class SetupScriptTests: XCTestCase {
    func testTheReadmeAndCIRunTheOneSetupScript() throws {
        let root = EndToEndTestCase.packageRoot
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let ci = try String(contentsOf: root.appendingPathComponent(".ci/run"), encoding: .utf8)
        let setup = try String(contentsOf: root.appendingPathComponent("scripts/setup"), encoding: .utf8)
        let firstCommand = try XCTUnwrap(
            readme.components(separatedBy: "```sh\n").dropFirst().first?.components(separatedBy: "\n").first,
            "the README's first shell block")
        XCTAssertTrue(firstCommand.hasPrefix("scripts/setup"), "the README's first command runs scripts/setup: \(firstCommand)")
        XCTAssertTrue(ci.split(separator: "\n").contains("scripts/setup"), ".ci/run runs scripts/setup")
        XCTAssertFalse(ci.contains("apt-get install"), ".ci/run installs nothing itself; add packages to scripts/setup")
        XCTAssertFalse(readme.contains("apt-get install"), "the README lists no packages of its own; scripts/setup does")
        XCTAssertTrue(setup.contains("apt-get update"), "scripts/setup updates the package lists first")
        XCTAssertTrue(setup.contains("swift.org"), "scripts/setup says where to get Swift")
        XCTAssertTrue(setup.contains("fonts-noto-color-emoji"), "emoji in a paywall's copy need a colour emoji font")
    }
}
