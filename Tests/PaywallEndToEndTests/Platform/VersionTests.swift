import Foundation
import PaywallCore
import XCTest

/// `paywall --version`: the runtime's one version (`DeviceInfo.runtimeVersion`), which the
/// packages are named after and the sidecar's `initialize` answers too.
final class VersionTests: EndToEndTestCase {
    func testVersionPrintsTheRuntimesVersion() throws {
        let result = try PaywallProcess.run(["--version"], in: workDir)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "paywall \(DeviceInfo.runtimeVersion)\n")
        XCTAssertEqual(result.stderr, "")
        let help = try PaywallProcess.run(["--help"], in: workDir)
        XCTAssertTrue(help.stdout.contains("'paywall --version'"), help.stdout)
    }
}
