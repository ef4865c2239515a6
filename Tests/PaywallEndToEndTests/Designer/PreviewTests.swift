import Foundation
import XCTest

/// `paywall preview`: a real window that reloads when a bundle file changes.
final class PreviewTests: EndToEndTestCase {
    func testEditingAFileReloadsThePage() throws {
        let bundle = try inlineBundle("live", body: "<p>version one</p>")
        let preview = try PaywallProcess(["preview", bundle.path, "--events", eventsPath], in: workDir)
        defer { preview.terminate() }
        waitForEvents { $0.contains { $0.name == .pageReady } }

        let css = bundle.appendingPathComponent("style.css")
        try "p { color: red }".write(to: css, atomically: true, encoding: .utf8)
        waitForEvents { events in events.filter { $0.name == .pageReady }.count == 2 }
        let reload = loggedEvents().first { $0.name == .bundleReload }
        XCTAssertEqual(reload?.params["files"], .array([.string(css.resolvingSymlinksInPath().path)]))
        XCTAssertTrue(preview.process.isRunning, "preview stays open across reloads")
    }

    /// The preview window stays wired to its page: host events reach it after reloads too.
    func testPreviewDeliversTemplateVariablesToThePage() throws {
        let bundle = try inlineBundle(
            "vars", body: "<script>Paywall.on('template_variables', () => Paywall.custom('got variables'));</script>")
        let preview = try PaywallProcess(["preview", bundle.path, "--events", eventsPath], in: workDir)
        defer { preview.terminate() }
        waitForEvents { $0.contains { $0.name == .custom && $0.params["data"] == "got variables" } }
    }
}
