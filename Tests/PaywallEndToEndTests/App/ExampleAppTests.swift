import Foundation
import PaywallCore
import XCTest

/// The example app (`Examples/LumenNotes`, its own package: `ExamplePackage`) as a user meets
/// it, under Xvfb: its demo switch
/// presses "Export PDF", the gated placement shows the paywall, the paywall's Buy button buys
/// through the fake store, the export runs and the status line follows the purchase.
final class ExampleAppTests: EndToEndTestCase {
    func testTheDemoBuysProAndTheStatusLineFollows() throws {
        let example = try ExamplePackage.lumenNotes()
        let data = workDir.appendingPathComponent("data")
        let run = try PaywallProcess(
            [], in: workDir,
            environment: ["LUMEN_NOTES_DEMO": "1", "LUMEN_NOTES_DATA_DIR": data.path]
                .merging(PaywallProcess.scribbledMemory) { own, _ in own }, executable: example)
        let result = run.wait()
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(
            result.stdout.split(separator: "\n").map(String.init),
            [
                "status: Lumen Notes Free", "paywall: purchased", "exported PDF",
                "status: Lumen Notes Pro: thanks for your support",
            ], result.stderr)
        // A fresh process reads the purchase from the app's data directory at once.
        let status = try PaywallProcess.run(["status", "--data-dir", data.path], in: workDir)
        XCTAssertTrue(status.stdout.hasPrefix("subscription status: active"), status.stdout)
    }

    /// The app's `.desktop` file routes its redeem links to it and passes `desktop-file-validate`
    /// (Debian's `desktop-file-utils`).
    func testTheDesktopFileRoutesRedeemLinksAndIsValid() throws {
        let desktop = Self.packageRoot.appendingPathComponent("Examples/LumenNotes/data/dev.lumennotes.LumenNotes.desktop")
        let text = try String(contentsOf: desktop, encoding: .utf8)
        XCTAssertTrue(text.split(separator: "\n").contains("MimeType=x-scheme-handler/lumennotes;"), text)
        XCTAssertTrue(text.contains("Exec=LumenNotesExample %u"), "the link must reach the app as its argument")
        let validator = "/usr/bin/desktop-file-validate"
        guard FileManager.default.isExecutableFile(atPath: validator) else {
            return XCTFail("\(validator) is missing: install desktop-file-utils (.ci/run does)")
        }
        XCTAssertEqual(SystemTool.run(validator, [desktop.path]), 0, "desktop-file-validate \(desktop.path) failed")
    }
}
