import Foundation
import XCTest

/// An app in Python drives `paywall serve` through the Python client (`clients/python`)
/// (`sidecar_test.py`, Debian's /usr/bin/python3): the protocol with the app's own purchase
/// controller and every bad input, parenting on a real X11 window, and a shutdown that keeps a
/// purchase in progress.
final class SidecarTests: EndToEndTestCase {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("sidecar_test.py")

    private func runScript(
        _ scenario: String, _ extra: [String] = [], environment: [String: String?] = [:],
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let catalog = Self.packageRoot.appendingPathComponent("templates/classic/store.json").path
        let outcome = try PaywallProcess.run(
            [
                Self.script.path, "--paywall", PaywallProcess.executable.path, "--catalog", catalog, "--work", workDir.path,
                "--scenario", scenario,
            ] + extra, in: workDir, environment: environment, executable: URL(fileURLWithPath: "/usr/bin/python3"), timeout: 240,
            file: file, line: line)
        let serveErrors = (try? String(contentsOf: workDir.appendingPathComponent("serve-stderr.txt"), encoding: .utf8)) ?? ""
        XCTAssertEqual(
            outcome.status, 0,
            "sidecar_test.py --scenario \(scenario) failed:\n\(outcome.stdout)\n\(outcome.stderr)\n"
                + "paywall serve's stderr:\n\(serveErrors)", file: file, line: line)
        XCTAssertTrue(outcome.stdout.contains("sidecar_test \(scenario): ok"), outcome.stdout, file: file, line: line)
    }

    /// initialize, preload, present, a purchase the app cancels, one it never answers (the
    /// timeout), one closed meanwhile (purchaseCancelled), one it buys (customerInfoChanged),
    /// the other methods, and every bad input with the sidecar still answering after each.
    func testAnAppDrivesTheProtocolWithItsOwnPurchaseController() throws {
        try runScript("protocol")
    }

    /// The paywall (cold and preloaded) and the customer center are transient for the app's
    /// X11 window (WM_TRANSIENT_FOR); a vanished, unknown or other-kind parent is reported and
    /// the window shown unparented.
    func testPaywallsAreParentedOnTheAppsX11Window() throws {
        let screenshot = workDir.appendingPathComponent("parented.png")
        try runScript("parent", ["--screenshot", screenshot.path])
        XCTAssertTrue(FileManager.default.fileExists(atPath: screenshot.path))
        if let keep = ProcessInfo.processInfo.environment["PAYWALL_KEEP_SCREENSHOTS"] {
            try? FileManager.default.copyItem(
                at: screenshot, to: URL(fileURLWithPath: keep).appendingPathComponent("sidecar-parented.png"))
        }
    }

    /// stdin closed while the fake store charges: the purchase settles, the process exits 0,
    /// and `paywall status` shows it.
    func testClosingStdinKeepsThePurchaseInProgress() throws {
        try runScript("shutdown")
    }

    /// On Wayland (Sway, whose xdg-foreign Debian's Weston lacks): the paywall, cold and
    /// preloaded, is parented on a GTK 4 window exported through xdg-foreign (the compositor's
    /// protocol log shows the parent set and not refused; Sway floats the window over it); an
    /// unknown handle leaves it unparented, an X11 id is reported.
    func testPaywallsAreParentedOnTheAppsWaylandWindow() throws {
        let sway = try Sway(in: workDir)
        defer { sway.stop() }
        try runScript("wayland", ["--compositor-log", sway.protocolLog.path], environment: sway.environment)
    }
}
