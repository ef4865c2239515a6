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

    /// The clients are versioned with the runtime they come with: a release bumps all three.
    func testTheClientPackagesCarryTheRuntimesVersion() throws {
        let pyproject = try String(
            contentsOf: Self.packageRoot.appendingPathComponent("clients/python/pyproject.toml"), encoding: .utf8)
        XCTAssertTrue(pyproject.contains("\nversion = \"\(DeviceInfo.runtimeVersion)\"\n"), "clients/python/pyproject.toml")
        let package = try JSONValue(
            parsing: try String(
                contentsOf: Self.packageRoot.appendingPathComponent("clients/node/package.json"), encoding: .utf8))
        XCTAssertEqual(package["version"]?.stringValue, DeviceInfo.runtimeVersion, "clients/node/package.json")
        for file in package["files"]?.arrayValue ?? [] {
            let path = "clients/node/" + (file.stringValue ?? "")
            XCTAssertTrue(FileManager.default.fileExists(atPath: Self.packageRoot.appendingPathComponent(path).path), path)
        }
    }
}
