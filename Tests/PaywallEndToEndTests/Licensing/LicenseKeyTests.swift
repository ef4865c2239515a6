import Foundation
import PaywallCore
import XCTest

/// Selling through license keys with the built `paywall` under Xvfb, against the local License
/// API server: Buy opens the checkout (the browser stubbed by `$PAYWALL_URL_OPENER`, the user
/// id as custom data), the paywall turns into the license-key panel, the key is typed into it
/// through the X server, and the paywall closes as purchased; a fresh process then has the
/// entitlement with the server down.
final class LicenseKeyTests: EndToEndTestCase {
    static let key = "38b1460a-5104-4067-a91d-77b872934d51"
    private var server: LicenseAPIServer!
    private var dataDir: String { workDir.appendingPathComponent("data").path }

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try LicenseAPIServer(
            directory: workDir.appendingPathComponent("server"),
            keys: [
                Self.key: [
                    "id": 1, "status": "active", "activation_limit": 2, "activation_usage": 0, "product_id": 10, "variant_id": 11,
                ]
            ])
    }

    override func tearDownWithError() throws {
        XCTAssertEqual(server?.violations ?? [], [], "requests broke the License API's documented form")
        server?.stop()
        try super.tearDownWithError()
    }

    /// A license-key catalog selling the classic template's three products through the server.
    private func catalog() throws -> String {
        let products = [("lumen.pro.yearly", 11), ("lumen.pro.monthly", 12), ("lumen.pro.lifetime", 13)].map { id, variant in
            """
            {"id": "\(id)", "display_name": "Lumen Pro", "price": "49.00", "currency": "USD", "kind": "non_consumable",
             "entitlements": ["pro"], "checkout_url": "https://lumen.lemonsqueezy.com/buy/\(variant)",
             "lemon_squeezy": {"product_id": 10, "variant_id": \(variant)}}
            """
        }
        let path = workDir.appendingPathComponent("license-catalog.json")
        try """
        {"store": "lemon_squeezy", "license_api_base_url": "\(server.baseURL.absoluteString)",
         "customer_portal_url": "https://lumen.lemonsqueezy.com/billing", "products": [\(products.joined(separator: ","))]}
        """.write(to: path, atomically: true, encoding: .utf8)
        return path.path
    }

    /// A catalog selling the same products through Polar (benefit `ben_pro`) at `server`.
    private func polarCatalog(_ server: LicenseAPIServer) throws -> String {
        let products = ["lumen.pro.yearly", "lumen.pro.monthly", "lumen.pro.lifetime"].map { id in
            """
            {"id": "\(id)", "display_name": "Lumen Pro", "price": "49.00", "currency": "USD", "kind": "non_consumable",
             "entitlements": ["pro"], "checkout_url": "https://polar.sh/lumen/checkout/\(id)", "polar": {"benefit_id": "ben_pro"}}
            """
        }
        let path = workDir.appendingPathComponent("polar-catalog.json")
        try """
        {"store": "polar", "polar": {"organization_id": "org_1", "api_base_url": "\(server.baseURL.absoluteString)"},
         "products": [\(products.joined(separator: ","))]}
        """.write(to: path, atomically: true, encoding: .utf8)
        return path.path
    }

    /// `paywall present` of the classic template with the catalog, Buy pressed by the page's
    /// script (the page is web; the panel after it is GTK, driven by real input).
    private func presentAndBuy(_ extra: [String] = [], catalog: String? = nil, environment: [String: String] = [:]) throws -> (
        PaywallProcess, opened: URL, window: String
    ) {
        let (opener, opened) = try urlOpener()
        let template = Self.packageRoot.appendingPathComponent("templates/classic").path
        let process = try PaywallProcess(
            [
                "present", template, "--store", try catalog ?? self.catalog(), "--data-dir", dataDir, "--user", "ada", "--events",
                eventsPath,
                "--timeout", "60", "--eval", "Paywall.purchase('primary')",
            ] + extra,
            // GTK's file chooser keeps its settings in dconf, which needs a session bus the test has not.
            in: workDir,
            environment: ["PAYWALL_URL_OPENER": opener.path, "GSETTINGS_BACKEND": "memory"].merging(environment) { $1 })
        XCTAssertEqual(lines(of: opened, atLeast: 1).count, 1, "Buy opened no checkout")
        let window = try XCTUnwrap(RealInput.waitForWindow(pid: process.process.processIdentifier, name: "^classic$"))
        return (process, opened, window)
    }

    /// Types `text` and presses Return in `window`, through the X server as a keyboard would.
    private func type(_ text: String, into window: String) {
        _ = RealInput.xdotool(["windowfocus", "--sync", window])
        _ = RealInput.xdotool(["type", "--delay", "5", text])
        _ = RealInput.xdotool(["key", "Return"])
    }

    func testAPurchaseThroughTheBrowserAndATypedKeyUnlocksAFreshProcessOffline() throws {
        let (process, opened, window) = try presentAndBuy()
        let checkout = try XCTUnwrap(lines(of: opened, atLeast: 1).first)
        XCTAssertEqual(checkout, "https://lumen.lemonsqueezy.com/buy/11?checkout%5Bcustom%5D%5Buser_id%5D=ada")

        type(Self.key, into: window)
        let result = process.wait()
        XCTAssertEqual(result.stdout, "{\"result\":\"purchased\",\"product_id\":\"lumen.pro.yearly\"}\n", result.stderr)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(server.requests.compactMap { $0["path"] as? String }, ["/v1/licenses/validate", "/v1/licenses/activate"])
        let activated = try XCTUnwrap(loggedEvents().first { $0.name == .licenseActivate })
        XCTAssertEqual(activated.params["license_key"], "****4d51")
        XCTAssertEqual(loggedEvents().last { $0.name == .paywallClose }?.params["result"], "purchased")
        let log = try String(contentsOfFile: eventsPath, encoding: .utf8)
        XCTAssertFalse(log.contains(Self.key), "the key appears unmasked in the event log")

        // A fresh process, the License API gone: the entitlement is there at once.
        server.stop()
        let status = try PaywallProcess.run(["status", "--json", "--data-dir", dataDir, "--user", "ada"], in: workDir)
        XCTAssertEqual(status.status, 0, status.stderr)
        let report = try JSONValue(parsing: status.stdout)
        XCTAssertEqual(report["subscription_status"], "active", status.stdout)
        let license = try XCTUnwrap(report["licenses"]?.arrayValue?.first, status.stdout)
        XCTAssertEqual(license["license_key"], "****4d51")
        XCTAssertEqual(license["is_active"], true)
        XCTAssertFalse(status.stdout.contains(Self.key))
    }

    /// The same purchase sold through Polar: the key typed into the panel is validated and
    /// activated at Polar's API, and a fresh process has it offline, as a `POLAR` license.
    func testAPurchaseThroughPolarWithATypedKeyUnlocksAFreshProcessOffline() throws {
        let key = "LUMEN-7F3A-91C2-4B8E-D0A5"
        let polar = try LicenseAPIServer(
            directory: workDir.appendingPathComponent("polar"),
            keys: [
                key: [
                    "id": "lk_1", "status": "granted", "limit_activations": 2, "expires_at": NSNull(), "benefit_id": "ben_pro",
                    "organization_id": "org_1", "revision": 0,
                ]
            ], script: "polar_server.py")
        defer { polar.stop() }
        let (process, opened, window) = try presentAndBuy(catalog: try polarCatalog(polar))
        XCTAssertEqual(
            lines(of: opened, atLeast: 1).first,
            "https://polar.sh/lumen/checkout/lumen.pro.yearly", "Lemon Squeezy's custom data is Lemon Squeezy's only")
        type(key, into: window)
        let result = process.wait()
        XCTAssertEqual(result.stdout, "{\"result\":\"purchased\",\"product_id\":\"lumen.pro.yearly\"}\n", result.stderr)
        XCTAssertEqual(polar.violations, [], "requests broke Polar's documented API")
        XCTAssertEqual(
            polar.requests.compactMap { $0["path"] as? String },
            ["/v1/customer-portal/license-keys/validate", "/v1/customer-portal/license-keys/activate"])
        XCTAssertEqual(server.requests.count, 0, "a Polar catalog never asks Lemon Squeezy")
        XCTAssertFalse(try String(contentsOfFile: eventsPath, encoding: .utf8).contains(key), "the key appears unmasked")

        polar.stop()
        let status = try PaywallProcess.run(["status", "--json", "--data-dir", dataDir, "--user", "ada"], in: workDir)
        let report = try JSONValue(parsing: status.stdout)
        XCTAssertEqual(report["subscription_status"], "active", status.stdout)
        let license = try XCTUnwrap(report["licenses"]?.arrayValue?.first, status.stdout)
        XCTAssertEqual(license["store"], "POLAR")
        XCTAssertEqual(license["license_key"], "****D0A5")
        XCTAssertEqual(license["is_active"], true)
    }

    /// A seller with no license server: the license file a checkout sent is chosen in the
    /// panel's file chooser (GTK's own dialog here, the portal's inside a Flatpak), verified
    /// with the catalog's public key, and a fresh process has it with no network at all.
    func testAPurchaseWithASignedLicenseFileChosenInThePanelWorksOffline() throws {
        let privateKey = workDir.appendingPathComponent("seller.pem").path
        _ = try Toolchain.run("/usr/bin/openssl", ["genpkey", "-algorithm", "ed25519", "-out", privateKey])
        // The sidebar's Desktop and Downloads are the test's own (user-dirs.dirs), so the rows are
        // the same on every machine: Recent, Home, Desktop, Downloads.
        let downloads = workDir.appendingPathComponent("Downloads")
        let desktop = workDir.appendingPathComponent("Desktop")
        let config = workDir.appendingPathComponent("config")
        for folder in [downloads, desktop, config] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        try "XDG_DESKTOP_DIR=\"\(desktop.path)\"\nXDG_DOWNLOAD_DIR=\"\(downloads.path)\"\n".write(
            to: config.appendingPathComponent("user-dirs.dirs"), atomically: true, encoding: .utf8)
        let license = downloads.appendingPathComponent("Lumen Pro.lic").path
        let signed = try PaywallProcess.run(
            ["license", "sign", "--key", privateKey, "--product", "lumen.pro.yearly", "--licensee", "Ada", "--out", license],
            in: workDir)
        XCTAssertEqual(signed.status, 0, signed.stderr)
        // `sign` prints the public key's hex for the catalog.
        let publicKey = try XCTUnwrap(
            signed.stdout.split(whereSeparator: \.isWhitespace).map(String.init).first {
                $0.count == 64 && $0.allSatisfy(\.isHexDigit)
            }, signed.stdout)
        let products = ["lumen.pro.yearly", "lumen.pro.monthly", "lumen.pro.lifetime"].map { id in
            """
            {"id": "\(id)", "display_name": "Lumen Pro", "price": "49.00", "currency": "USD", "kind": "non_consumable",
             "entitlements": ["pro"], "checkout_url": "https://shop.example/buy/\(id)"}
            """
        }
        let catalog = workDir.appendingPathComponent("signed-catalog.json").path
        try """
        {"store": "signed_license", "license_public_key": "\(publicKey)", "products": [\(products.joined(separator: ","))]}
        """.write(toFile: catalog, atomically: true, encoding: .utf8)

        let (process, _, window) = try presentAndBuy(catalog: catalog, environment: ["XDG_CONFIG_HOME": config.path])
        // From the key field (Activate is off while it is empty): Tab to "Choose license file…", press it.
        _ = RealInput.xdotool(["windowfocus", "--sync", window])
        _ = RealInput.xdotool(["key", "Tab", "space"])
        let chooser = try XCTUnwrap(
            RealInput.waitForWindow(pid: process.process.processIdentifier, name: "^Choose Your License File$"),
            "the file chooser did not open")
        // As a mouse would: the sidebar's Downloads, the file's row, then "Use This File" (the
        // dialog's bottom right corner). (Typing a path into GTK's chooser under Xvfb, which has
        // no window manager, ends in a GTK critical inside its location field, not in this runtime.)
        sleep(1)
        let size = try XCTUnwrap(RealInput.size(window: chooser))
        RealInput.click(window: chooser, x: 72, y: 135)
        usleep(700_000)
        RealInput.click(window: chooser, x: size.width - 300, y: 88)
        usleep(500_000)
        RealInput.click(window: chooser, x: size.width - 50, y: size.height - 22)
        let result = process.wait()
        XCTAssertEqual(result.stdout, "{\"result\":\"purchased\",\"product_id\":\"lumen.pro.yearly\"}\n", result.stderr)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(server.requests.count, 0, "a signed license asks no license server")
        let text = try String(contentsOfFile: license, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertFalse(try String(contentsOfFile: eventsPath, encoding: .utf8).contains(text), "the license appears whole")

        server.stop()
        let status = try PaywallProcess.run(["status", "--json", "--data-dir", dataDir, "--user", "ada"], in: workDir)
        let report = try JSONValue(parsing: status.stdout)
        XCTAssertEqual(report["subscription_status"], "active", status.stdout)
        let kept = try XCTUnwrap(report["licenses"]?.arrayValue?.first, status.stdout)
        XCTAssertEqual(kept["store"], "SIGNED_LICENSE")
        XCTAssertEqual(kept["is_active"], true)
        XCTAssertEqual(kept["grace_ends_at"], .null, "a signed license needs no validation")
    }

    func testAWrongKeyIsAskedAgainAndEscapeCancelsThePurchase() throws {
        let (process, _, window) = try presentAndBuy()
        type("NO-SUCH-KEY-12345", into: window)
        waitForEvents { $0.contains { $0.name == .licenseActivateFail } }
        XCTAssertEqual(loggedEvents().first { $0.name == .licenseActivateFail }?.params["reason"], "not_found")
        // Asked again: the field is focused with the wrong key selected; Escape leaves.
        _ = RealInput.xdotool(["key", "Escape"])
        waitForEvents { $0.contains { $0.name == .transactionAbandon } }
        process.terminate()
        XCTAssertFalse(loggedEvents().contains { $0.name == .licenseActivate })
        XCTAssertNil(loggedEvents().first { $0.name == .paywallClose && $0.params["result"] == "purchased" })
    }

    func testTheCustomerCenterShowsTheLicenseAndDeactivatesThisDevice() throws {
        let catalog = try catalog()
        let redeemed = try PaywallProcess.run(
            ["redeem", "--store", catalog, "--data-dir", dataDir, "lumen://paywall/redeem?license_key=\(Self.key)"], in: workDir)
        XCTAssertEqual(redeemed.status, 0, redeemed.stderr)
        let (opener, opened) = try urlOpener()
        let result = try PaywallProcess.run(
            [
                "customer-center", "--store", catalog, "--data-dir", dataDir, "--events", eventsPath, "--timeout", "50", "--eval",
                """
                const m = await CustomerCenter.waitFor(m => m.screen === 'management');
                const row = document.querySelector('.row.license');
                if (!row) throw new Error('no license row: ' + JSON.stringify(m));
                const text = row.textContent;
                for (const part of ['Lumen Pro', 'Web', 'Active, never expires', 'Key ****4d51', 'Activations: 1 of 2'])
                  if (!text.includes(part)) throw new Error('the row lacks ' + part + ': ' + text);
                if (text.includes('\(Self.key)')) throw new Error('the key unmasked');
                CustomerCenter.tap('[data-path-id="license.manage"]');
                CustomerCenter.tap('[data-path-id="license.deactivate"]');
                const ask = await CustomerCenter.waitFor(m => m.dialog);
                if (ask.dialog.title !== 'Deactivate This Device?') throw new Error(ask.dialog.title);
                CustomerCenter.tap('[data-action="confirm"]');
                const done = await CustomerCenter.waitFor(m => m.dialog && !m.busy && m.dialog.title !== ask.dialog.title);
                if (done.dialog.title !== 'Device Deactivated') throw new Error(done.dialog.title + ': ' + done.dialog.message);
                CustomerCenter.tap('[data-action="ok"]');
                await CustomerCenter.waitFor(m => !m.dialog && m.screen === 'no_purchases');
                CustomerCenter.tap('[data-action="close"]');
                """,
            ],
            in: workDir, environment: ["PAYWALL_URL_OPENER": opener.path])
        XCTAssertEqual(result.stdout, "{\"result\":\"closed\"}\n", result.stderr)
        XCTAssertFalse(result.stderr.contains("threw"), result.stderr)
        XCTAssertEqual(lines(of: opened, atLeast: 1), ["https://lumen.lemonsqueezy.com/billing"], "Manage subscription")
        XCTAssertEqual(server.requests.last?["path"] as? String, "/v1/licenses/deactivate")
        XCTAssertTrue(loggedEvents().contains { $0.name == .licenseDeactivate })

        // Inactive here, in a fresh process too.
        let status = try PaywallProcess.run(["status", "--json", "--data-dir", dataDir], in: workDir)
        let report = try JSONValue(parsing: status.stdout)
        // `licenses` is printed only when there are some.
        XCTAssertNil(report["licenses"], status.stdout)
        XCTAssertNotEqual(report["subscription_status"], "active", status.stdout)
    }
}
