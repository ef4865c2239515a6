import Foundation
import XCTest

/// `scripts/check-build-warnings`, which `.ci/run` runs on the build's log: a compiler warning
/// from our code fails CI; SwiftPM's note on GTK's pkg-config flags does not.
final class BuildWarningsCheckTests: EndToEndTestCase {
    private func check(_ log: String) throws -> PaywallProcess.Outcome {
        let file = workDir.appendingPathComponent("build-\(UUID().uuidString).log")
        try log.write(to: file, atomically: true, encoding: .utf8)
        return try PaywallProcess.run(
            [file.path], in: workDir,
            executable: EndToEndTestCase.packageRoot.appendingPathComponent("scripts/check-build-warnings"))
    }

    func testAWarningInOurSourcesOrTestsFailsAndIsNamed() throws {
        let warning =
            "/src/paywall/Sources/PaywallCore/Licenses/InstanceName.swift:12:62: warning: 'init(cString:)' is deprecated"
        let failed = try check("[12/80] Compiling PaywallCore InstanceName.swift\n\(warning)\n")
        XCTAssertEqual(failed.status, 1)
        XCTAssertTrue(failed.stderr.contains(warning), failed.stderr)
        XCTAssertTrue(failed.stderr.contains("1 compiler warning(s) in Sources/ or Tests/"), failed.stderr)

        let inTests = try check("Tests/PaywallCoreTests/App/X.swift:65:23: warning: 'try' must precede 'await'\n")
        XCTAssertEqual(inTests.status, 1, "relative paths count too")
    }

    func testThePkgConfigNoteAndACleanBuildPass() throws {
        let passed = try check(
            """
            warning: prohibited flag(s): -pthread, -pthread, -Wl,--export-dynamic, -pthread
            [1/1] Compiling PaywallCore JSONValue.swift
            Build complete! (31.75s)

            """)
        XCTAssertEqual(passed.status, 0, passed.stderr)
        XCTAssertEqual(passed.stderr, "")
    }

    func testCIRunsItOnTheBuildsLog() throws {
        let ci = try String(contentsOf: EndToEndTestCase.packageRoot.appendingPathComponent(".ci/run"), encoding: .utf8)
        XCTAssertTrue(ci.contains("swift build --build-tests 2>&1 | tee .build/build.log"), ci)
        XCTAssertTrue(ci.contains("scripts/check-build-warnings .build/build.log"), ci)
    }
}
