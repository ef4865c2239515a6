import Foundation
import PaywallCore
import XCTest

/// URLs through the OpenURI portal, as inside a Flatpak sandbox: `paywall present` runs on a
/// private session bus (`dbus-run-session`) beside a stand-in portal (`openuri_portal.py`, which
/// records each OpenURI call), with `PAYWALL_USE_PORTAL=1` and no `$PAYWALL_URL_OPENER`. Buy on a
/// license-key paywall opens the checkout: the portal gets its URL and the paywall's window as
/// the parent, and the app's data stays in the app's XDG folders.
final class PortalTests: EndToEndTestCase {
    static let portal = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("openuri_portal.py")

    func testBuyOpensTheCheckoutThroughThePortalOverThePaywallsWindow() throws {
        // A Flatpak app's home: only ~/.var/app/ID is its own.
        let home = workDir.appendingPathComponent("home")
        let app = home.appendingPathComponent(".var/app/com.example.LumenNotes")
        for folder in ["data", "cache", "config"] {
            try FileManager.default.createDirectory(
                at: app.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        let catalog = workDir.appendingPathComponent("license-catalog.json")
        // The License API is never reached: Buy only opens the checkout.
        try """
        {"store": "lemon_squeezy", "license_api_base_url": "http://127.0.0.1:9",
         "products": [{"id": "lumen.pro.yearly", "display_name": "Lumen Pro", "price": "49.00", "currency": "USD",
          "kind": "non_consumable", "entitlements": ["pro"], "checkout_url": "https://lumen.lemonsqueezy.com/buy/11",
          "lemon_squeezy": {"product_id": 10, "variant_id": 11}}]}
        """.write(to: catalog, atomically: true, encoding: .utf8)
        let record = workDir.appendingPathComponent("openuri.jsonl")
        let template = Self.packageRoot.appendingPathComponent("templates/classic").path
        let process = try PaywallProcess(
            [
                "--", "/usr/bin/python3", Self.portal.path, record.path, "--", PaywallProcess.executable.path, "present",
                template, "--store", catalog.path, "--user", "ada", "--timeout", "60", "--eval",
                "Paywall.purchase('primary')",
            ],
            in: workDir,
            environment: [
                "PAYWALL_USE_PORTAL": "1", "PAYWALL_URL_OPENER": nil, "HOME": home.path,
                "XDG_DATA_HOME": app.appendingPathComponent("data").path,
                "XDG_CACHE_HOME": app.appendingPathComponent("cache").path,
                "XDG_CONFIG_HOME": app.appendingPathComponent("config").path,
            ],
            executable: URL(fileURLWithPath: "/usr/bin/dbus-run-session"))
        let pid = try XCTUnwrap(
            firstLine(of: URL(fileURLWithPath: record.path + ".pid")).flatMap { Int32($0) }, "the portal did not start paywall")
        // paywall ended ends the stand-in portal, whose exit ends the private bus.
        defer {
            kill(pid, SIGKILL)
            process.terminate()
        }

        let call = try XCTUnwrap(firstLine(of: record), "the portal got no OpenURI call")
        let window = try XCTUnwrap(RealInput.waitForWindow(pid: pid, name: "^classic$"), "no paywall window")
        let opened = try JSONValue(parsing: call)
        XCTAssertEqual(opened["uri"], .string("https://lumen.lemonsqueezy.com/buy/11?checkout%5Bcustom%5D%5Buser_id%5D=ada"))
        XCTAssertEqual(opened["parent_window"], .string("x11:0x" + String(try XCTUnwrap(UInt(window)), radix: 16)))
        XCTAssertEqual(lines(of: record, atLeast: 2).count, 1, "one checkout, one call")
        kill(pid, SIGTERM)
        XCTAssertEqual(process.wait().status, 143, "paywall ended by SIGTERM")

        // Everything the runtime wrote is in the app's own folders.
        let written = FileManager.default.enumerator(atPath: home.path)?.compactMap { $0 as? String } ?? []
        let outside = written.filter { !$0.hasPrefix(".var") }
        XCTAssertEqual(outside, [], "written outside the app's folders")
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: app.appendingPathComponent("data/paywall").path),
            "the runtime's databases are not in $XDG_DATA_HOME/paywall: \(written)")
    }

    /// The first line of `file`, waiting for it while paywall starts and loads its page (slow
    /// under load); nil after a minute.
    private func firstLine(of file: URL) -> String? {
        let deadline = Date().addingTimeInterval(60)
        repeat {
            if let text = try? String(contentsOf: file, encoding: .utf8), let line = text.split(separator: "\n").first {
                return String(line)
            }
            usleep(100_000)
        } while Date() < deadline
        return nil
    }
}
