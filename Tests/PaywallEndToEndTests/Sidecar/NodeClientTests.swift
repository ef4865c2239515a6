import Foundation
import XCTest

/// The Node client (`clients/node`): its tests (`node --test`, Node's own runner) against the
/// built `paywall serve`, the app's purchase controller included, and its TypeScript types
/// checked by Debian's `tsc` against an app's use of them.
final class NodeClientTests: EndToEndTestCase {
    static let client = packageRoot.appendingPathComponent("clients/node")

    func testTheNodeClientsTestsPassAgainstTheRealSidecar() throws {
        let outcome = try PaywallProcess.run(
            ["--test", Self.client.appendingPathComponent("test").path], in: workDir,
            environment: ["PAYWALL": PaywallProcess.executable.path], executable: URL(fileURLWithPath: "/usr/bin/node"),
            timeout: 240)
        XCTAssertEqual(outcome.status, 0, "node --test failed:\n\(outcome.stdout)\n\(outcome.stderr)")
        // Each test of the files ran (none skipped or left out).
        XCTAssertTrue(outcome.stdout.contains("# pass 6"), outcome.stdout)
        XCTAssertTrue(outcome.stdout.contains("# fail 0"), outcome.stdout)
    }

    func testTheTypeScriptTypesCheck() throws {
        let outcome = try PaywallProcess.run(
            ["-p", Self.client.appendingPathComponent("test/tsconfig.json").path], in: workDir,
            executable: URL(fileURLWithPath: "/usr/bin/tsc"), timeout: 120)
        XCTAssertEqual(outcome.status, 0, "tsc:\n\(outcome.stdout)\n\(outcome.stderr)")
    }
}
