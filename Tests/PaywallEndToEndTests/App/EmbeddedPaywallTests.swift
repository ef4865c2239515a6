import Foundation
import PaywallCore
import XCTest

/// A paywall as a widget in an app's own window (`paywall present --presentation embedded|pushed`),
/// the ways an app hosts the customer center too: it sells from there, and the app's back
/// button or window close leaves it as the paywall's own close would.
final class EmbeddedPaywallTests: EndToEndTestCase {
    private var dataDir: String { workDir.appendingPathComponent("data").path }
    private let catalog = EndToEndTestCase.packageRoot.appendingPathComponent("templates/classic/store.json").path
    private let template = EndToEndTestCase.packageRoot.appendingPathComponent("templates/classic").path

    private func arguments(_ presentation: String, _ scripts: [String]) -> [String] {
        [
            "present", template, "--store", catalog, "--data-dir", dataDir, "--events", eventsPath, "--timeout", "30",
            "--presentation", presentation,
        ] + scripts.flatMap { ["--eval", $0] }
    }

    func testAnEmbeddedPaywallBuysFromInsideTheAppsWindow() throws {
        for presentation in ["embedded", "pushed"] {
            try? FileManager.default.removeItem(atPath: dataDir)
            let result = try PaywallProcess.run(
                arguments(presentation, ["document.getElementById('purchase').click()"]),
                in: workDir, environment: PaywallProcess.scribbledMemory)
            XCTAssertEqual(
                result.stdout, "{\"result\":\"purchased\",\"product_id\":\"lumen.pro.yearly\"}\n",
                "\(presentation): \(result.stderr)")
        }
        let names = eventNames()
        XCTAssertEqual(names.filter { $0 == .paywallOpen }.count, 2)
        XCTAssertEqual(names.filter { $0 == .transactionComplete }.count, 2)
        XCTAssertEqual(names.filter { $0 == .paywallClose }.count, 2)
    }

    /// The stand-in app's back button (in its header bar, top left) pops a pushed paywall: a
    /// decline from the window, as closing a sheet's window is.
    func testTheAppsBackButtonLeavesAPushedPaywall() throws {
        let process = try PaywallProcess(arguments("pushed", []), in: workDir)
        waitForEvents { $0.contains { $0.name == .pageReady } }
        let window = try XCTUnwrap(RealInput.waitForWindow(pid: process.process.processIdentifier, name: "^classic$"))
        RealInput.click(window: window, x: 22, y: 22)
        let result = process.wait()
        XCTAssertEqual(result.stdout, "{\"result\":\"declined\"}\n", result.stderr)
        let decline = loggedEvents().first { $0.name == .paywallDecline }
        XCTAssertEqual(decline?.params["source"], "window")
    }

    func testAnUnknownPresentationIsAUsageError() throws {
        let result = try PaywallProcess.run(["present", template, "--presentation", "modal"], in: workDir)
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("--presentation must be sheet, embedded or pushed; got 'modal'"), result.stderr)
        XCTAssertEqual(result.stdout, "")
    }
}
