import Foundation
import PaywallCore
import XCTest

/// The customer center driven as a tester drives it: the fake store, `paywall customer-center`
/// with `--eval` scripts tapping `data-*` elements, the event log, and fresh processes
/// reading what changed.
final class CustomerCenterTests: EndToEndTestCase {
    private var dataDir: String { workDir.appendingPathComponent("data").path }
    private let catalog = EndToEndTestCase.packageRoot.appendingPathComponent("templates/classic/store.json").path

    private func customerCenter(
        _ scripts: [String], _ extra: [String] = [], timeout: Int = 50,
        environment: [String: String?] = [:]
    ) throws -> PaywallProcess.Outcome {
        try PaywallProcess.run(
            ["customer-center", "--store", catalog, "--data-dir", dataDir, "--events", eventsPath, "--timeout", "\(timeout)"]
                + extra + scripts.flatMap { ["--eval", $0] }, in: workDir,
            environment: PaywallProcess.scribbledMemory.merging(environment) { _, given in given })
    }

    /// A script line waiting for the dialog that follows a confirmation (not the confirmation itself).
    private static let resultDialog =
        "await CustomerCenter.waitFor(m => m.dialog && !m.busy && !m.dialog.buttons.some(b => b.action === 'confirm'))"

    private func store(_ arguments: [String]) throws -> PaywallProcess.Outcome {
        let result = try PaywallProcess.run(["store"] + arguments + ["--store", catalog, "--data-dir", dataDir], in: workDir)
        XCTAssertEqual(result.status, 0, result.stderr)
        return result
    }

    private func transactions() throws -> [JSONValue] {
        try JSONValue(parsing: try store(["transactions", "--json"]).stdout).arrayValue ?? []
    }

    /// Asserts the process closed normally and no script threw.
    private func assertClosed(_ result: PaywallProcess.Outcome, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(result.stdout, "{\"result\":\"closed\"}\n", result.stderr, file: file, line: line)
        XCTAssertEqual(result.status, 0, file: file, line: line)
        XCTAssertFalse(result.stderr.contains("threw"), result.stderr, file: file, line: line)
    }

    private func params(_ name: EventName) -> [[String: JSONValue]] {
        loggedEvents().filter { $0.name == name }.map(\.params)
    }

    func testBuyOpenRowCancelThroughSurveyRefundAndRestore() throws {
        _ = try store(["buy", "lumen.pro.monthly"])
        let result = try customerCenter([
            // The management screen lists the subscription; its row opens its detail screen.
            """
            await CustomerCenter.waitFor(m => m.screen === 'management');
            CustomerCenter.tap('[data-path-id="detail"][data-product-id="lumen.pro.monthly"]');
            const detail = await CustomerCenter.waitFor(m => m.screen === 'detail');
            if (detail.title !== 'Lumen Pro Monthly') throw new Error('title ' + detail.title);
            for (const id of ['change_plan', 'refund', 'manage_subscription'])
              if (!document.querySelector(`[data-path-id="${id}"][data-product-id="lumen.pro.monthly"]`)) throw new Error('no ' + id);
            """,
            // Cancel: the survey first, then the confirmation, then the result.
            """
            CustomerCenter.tap('[data-path-id="manage_subscription"]');
            await CustomerCenter.waitFor(m => m.screen === 'survey');
            if (document.querySelectorAll('[data-option-id]').length !== 3) throw new Error('survey options');
            CustomerCenter.tap('[data-option-id="too_expensive"]');
            await CustomerCenter.waitFor(m => m.dialog);
            CustomerCenter.tap('[data-action="confirm"]');
            const done = \(Self.resultDialog);
            if (done.dialog.title !== 'Subscription Cancelled') throw new Error(done.dialog.title);
            CustomerCenter.tap('[data-action="ok"]');
            await CustomerCenter.waitFor(m => !m.dialog && m.screen === 'detail');
            if (document.querySelector('[data-path-id="manage_subscription"]')) throw new Error('still cancellable');
            """,
            // Refund: confirmed, reported with its status.
            """
            CustomerCenter.tap('[data-path-id="refund"]');
            await CustomerCenter.waitFor(m => m.dialog);
            CustomerCenter.tap('[data-action="confirm"]');
            const refunded = \(Self.resultDialog);
            if (refunded.dialog.title !== 'Refund Requested') throw new Error(refunded.dialog.title);
            CustomerCenter.tap('[data-action="ok"]');
            const after = await CustomerCenter.waitFor(m => !m.dialog && m.message);
            if (after.message !== "There's nothing to manage for this purchase.") throw new Error(after.message);
            """,
            // Back on the management screen, restore finds nothing active any more.
            """
            CustomerCenter.tap('[data-action="back"]');
            await CustomerCenter.waitFor(m => m.screen === 'management' && !m.back);
            CustomerCenter.tap('[data-path-id="restore"]');
            const restored = await CustomerCenter.waitFor(m => m.dialog && !m.busy);
            if (restored.dialog.title !== 'No Purchases Found') throw new Error(restored.dialog.title);
            CustomerCenter.tap('[data-action="ok"]');
            await CustomerCenter.waitFor(m => !m.dialog);
            CustomerCenter.tap('[data-action="close"]');
            """,
        ])
        assertClosed(result)

        XCTAssertEqual(params(.customerCenterOpen).first, ["screen": "management", "presentation": "sheet"])
        let actions = params(.customerCenterAction)
        XCTAssertEqual(actions.map { $0["path_id"] }, ["manage_subscription", "refund", "restore"])
        XCTAssertEqual(actions.first?["action"], "manage_subscription")
        XCTAssertEqual(actions.first?["product_id"], "lumen.pro.monthly")
        XCTAssertEqual(
            params(.customerCenterSurveyResponse),
            [
                [
                    "survey_id": "cancel_survey", "option_id": "too_expensive", "action": "manage_subscription",
                    "path_id": "manage_subscription", "product_id": "lumen.pro.monthly",
                ]
            ])
        XCTAssertEqual(params(.customerCenterRefundRequest), [["product_id": "lumen.pro.monthly", "status": "success"]])
        XCTAssertTrue(eventNames().contains(.restoreFail), "\(eventNames())")
        XCTAssertEqual(eventNames().last, .customerCenterClose)

        // The fake store, read by a fresh process: auto-renew off, then refunded.
        let subscription = try XCTUnwrap(try transactions().first { $0["product_id"] == "lumen.pro.monthly" })
        XCTAssertEqual(subscription["will_renew"], false, "\(subscription)")
        XCTAssertNotEqual(subscription["revocation_date"], .null, "\(subscription)")
    }

    /// A purchase waiting for approval (Ask to Buy) is a card that says so, not "No Purchases Yet".
    func testAPendingPurchaseIsWaitingForApproval() throws {
        _ = try store(["seed", "lumen.pro.monthly", "pending"])
        let result = try customerCenter([
            """
            const m = await CustomerCenter.waitFor(m => m.screen);
            if (m.screen !== 'management') throw new Error('screen ' + m.screen);
            const card = document.querySelector('[data-product-id="lumen.pro.monthly"]');
            if (!card || !card.textContent.includes('Waiting for approval')) throw new Error('card: ' + (card && card.textContent));
            CustomerCenter.tap('[data-action="close"]');
            """
        ])
        assertClosed(result)
    }

    func testRefundTheUserBacksOutOfIsReportedAsUserCancelled() throws {
        _ = try store(["buy", "lumen.pro.monthly"])
        let result = try customerCenter([
            """
            await CustomerCenter.waitFor(m => m.screen === 'management');
            CustomerCenter.tap('[data-path-id="detail"]');
            await CustomerCenter.waitFor(m => m.screen === 'detail');
            CustomerCenter.tap('[data-path-id="refund"]');
            await CustomerCenter.waitFor(m => m.dialog);
            CustomerCenter.tap('[data-action="dismiss"]');
            await CustomerCenter.waitFor(m => !m.dialog);
            CustomerCenter.tap('[data-action="close"]');
            """
        ])
        assertClosed(result)
        XCTAssertEqual(params(.customerCenterRefundRequest), [["product_id": "lumen.pro.monthly", "status": "user_cancelled"]])
        let subscription = try XCTUnwrap(try transactions().first { $0["product_id"] == "lumen.pro.monthly" })
        XCTAssertEqual(subscription["revocation_date"], .null)
    }

    func testChangePlanSwitchesWithinTheGroup() throws {
        _ = try store(["buy", "lumen.pro.monthly"])
        let result = try customerCenter([
            """
            await CustomerCenter.waitFor(m => m.screen === 'management');
            CustomerCenter.tap('[data-path-id="detail"]');
            await CustomerCenter.waitFor(m => m.screen === 'detail');
            CustomerCenter.tap('[data-path-id="change_plan"]');
            await CustomerCenter.waitFor(m => m.screen === 'plans');
            CustomerCenter.tap('[data-path-id="change_plan"][data-product-id="lumen.pro.yearly"]');
            const done = await CustomerCenter.waitFor(m => m.dialog && !m.busy);
            if (done.dialog.message !== "You're now on Lumen Pro Yearly.") throw new Error(done.dialog.title + ': ' + done.dialog.message);
            CustomerCenter.tap('[data-action="ok"]');
            // An upgrade takes effect at once: the detail screen now shows the new plan.
            const now = await CustomerCenter.waitFor(m => !m.dialog);
            if (now.screen !== 'detail' || now.title !== 'Lumen Pro Yearly') throw new Error(now.screen + ' ' + now.title);
            CustomerCenter.tap('[data-action="close"]');
            """
        ])
        assertClosed(result)
        let products = try transactions().compactMap { $0["product_id"]?.stringValue }
        XCTAssertTrue(products.contains("lumen.pro.yearly"), "\(products)")
    }

    func testContactSupportOpensAMailWithDiagnostics() throws {
        let config = workDir.appendingPathComponent("cc.json")
        try #"{"support": {"email": "help@example.com"}}"#.write(to: config, atomically: true, encoding: .utf8)
        let opened = workDir.appendingPathComponent("opened.txt")
        let opener = workDir.appendingPathComponent("opener.sh")
        try "#!/bin/sh\nprintf '%s\\n' \"$1\" >> '\(opened.path)'\n".write(to: opener, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: opener.path)
        _ = try store(["buy", "lumen.pro.monthly", "--user", "user-42"])
        let result = try customerCenter(
            [
                """
                await CustomerCenter.waitFor(m => m.screen === 'management');
                CustomerCenter.tap('[data-path-id="contact_support"]');
                """
            ], ["--config", config.path, "--app-version", "1.4.2", "--user", "user-42"], timeout: 3,
            environment: ["PAYWALL_URL_OPENER": opener.path])
        XCTAssertEqual(result.status, 3, result.stderr)  // it stays open until the timeout
        let deadline = Date().addingTimeInterval(5)
        while !FileManager.default.fileExists(atPath: opened.path), Date() < deadline { usleep(50_000) }
        let url = try String(contentsOf: opened, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertTrue(url.hasPrefix("mailto:help@example.com?"), url)
        let body = try XCTUnwrap(URLComponents(string: url)?.queryItems?.first { $0.name == "body" }?.value)
        for expected in [
            "User ID: user-42", "App version: 1.4.2", "Paywall runtime: \(DeviceInfo.runtimeVersion)",
            "Active entitlements: pro", "Sandbox: yes", "OS: ",
        ] {
            XCTAssertTrue(body.contains(expected), "missing \(expected) in \(body)")
        }
    }

    func testMalformedPageMessageIsReportedAndTheScreenKeepsWorking() throws {
        let result = try customerCenter([
            """
            await CustomerCenter.waitFor(m => m.screen === 'no_purchases');
            Paywall.send('customer_center_path', {});
            Paywall.send('customer_center_path', { path_id: 'refund' });
            window.webkit.messageHandlers.paywallMessageHandler.postMessage('not json');
            CustomerCenter.tap('[data-action="close"]');
            """
        ])
        assertClosed(result)
        let reasons = params(EventName.pageMessageInvalid).compactMap { $0["reason"]?.stringValue }
        XCTAssertEqual(reasons.count, 3, "\(reasons)")
        XCTAssertTrue(reasons.contains { $0.contains("path_id") }, "\(reasons)")
        XCTAssertTrue(reasons.contains { $0.contains("no path \"refund\" on the no_purchases screen") }, "\(reasons)")
    }

    /// A link in the customer center reaches the system browser and is reported as a paywall's
    /// link is (`url_openExternal`); it needs no click first (the page is the runtime's own).
    func testALinkGoesToTheSystemBrowserWithUrlOpenExternal() throws {
        let (opener, opened) = try urlOpener()
        let result = try customerCenter(
            [
                "await CustomerCenter.waitFor(m => m.screen === 'no_purchases')",
                "location.href = 'https://example.com/help'",
                "await new Promise(done => setTimeout(done, 300))",
                "CustomerCenter.tap('[data-action=\"close\"]')",
            ], environment: ["PAYWALL_URL_OPENER": opener.path])
        assertClosed(result)
        XCTAssertEqual(lines(of: opened, atLeast: 1), ["https://example.com/help"])
        XCTAssertEqual(
            params(.urlOpenExternal), [["url": "https://example.com/help", "source": "link", "page": "customer_center"]])
    }

    func testPushedAndEmbeddedHaveNoCloseButtonAndReportTheirPresentation() throws {
        _ = try store(["buy", "lumen.pro.monthly"])
        for presentation in ["pushed", "embedded"] {
            let result = try customerCenter(
                [
                    """
                    await CustomerCenter.waitFor(m => m.screen === 'management');
                    if (document.querySelector('[data-action="close"]')) throw new Error('a close button');
                    CustomerCenter.tap('[data-path-id="detail"]');
                    await CustomerCenter.waitFor(m => m.screen === 'detail' && m.back);
                    CustomerCenter.tap('[data-path-id="refund"]');
                    """
                ], ["--presentation", presentation], timeout: 2)
            XCTAssertEqual(result.stdout, "{\"result\":\"timeout\"}\n", result.stderr)
            XCTAssertFalse(result.stderr.contains("threw"), result.stderr)
        }
        XCTAssertEqual(params(.customerCenterOpen).map { $0["presentation"] }, ["pushed", "embedded"])
        XCTAssertEqual(
            params(.customerCenterAction).map { $0["path_id"] }, ["refund", "refund"], "both reached the detail screen")
        let bad = try customerCenter([], ["--presentation", "modal"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("--presentation must be sheet, embedded or pushed"), bad.stderr)
    }

    func testBadConfigIsRefusedWithTheFieldNamed() throws {
        let config = workDir.appendingPathComponent("cc.json")
        try #"{"management": {"paths": [{"id": "faq", "type": "url", "url": "https://example.com/faq"}]}}"#
            .write(to: config, atomically: true, encoding: .utf8)
        let result = try customerCenter([], ["--config", config.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("management.paths[0].title: is required for a url path"), result.stderr)
        XCTAssertEqual(result.stdout, "")
    }

    // MARK: Snapshots

    private func snapshot(_ name: String, _ scripts: [String] = [], _ extra: [String] = []) throws -> PNGImage {
        let path = workDir.appendingPathComponent(name).path
        let result = try customerCenter(scripts, ["--snapshot", path] + extra)
        XCTAssertEqual(result.stdout, "{\"path\":\"\(path)\",\"result\":\"snapshot\"}\n", result.stderr)
        XCTAssertEqual(result.status, 0)
        if let keep = ProcessInfo.processInfo.environment["PAYWALL_KEEP_SNAPSHOTS"] {
            try? FileManager.default.copyItem(atPath: path, toPath: "\(keep)/\(name)")
        }
        return try PNGImage(path: path)
    }

    /// Whether any pixel is clearly red (the destructive "Cancel subscription" row).
    private func hasRed(_ image: PNGImage) -> Bool {
        for y in stride(from: 0, to: image.height, by: 2) {
            for x in stride(from: 0, to: image.width, by: 2) {
                let c = image.rgb(x, y)
                if c[0] > 150, c[1] < 90, c[2] < 90 { return true }
            }
        }
        return false
    }

    func testSnapshotsOfNoPurchasesManagementAndDetailScreens() throws {
        let empty = try snapshot("no-purchases.png")
        XCTAssertEqual([empty.width, empty.height], [400, 720])
        empty.assertColor(200, 700, [250, 250, 251], "window background (light)")
        empty.assertColor(10, 10, [255, 255, 255], "header bar")
        XCTAssertGreaterThan(empty.distinctColors(step: 4), 10, "text is drawn")
        /// Rows down the middle drawn in card white: how much of the screen the lists take.
        let cardHeight = { (image: PNGImage) in (60..<image.height).filter { image.rgb(200, $0) == [255, 255, 255] }.count }

        _ = try store(["buy", "lumen.pro.monthly"])
        let management = try snapshot("management.png")
        XCTAssertFalse(hasRed(management), "the management screen has no cancel row")
        XCTAssertGreaterThan(cardHeight(management), cardHeight(empty) + 30, "a subscription row is drawn")

        let detail = try snapshot(
            "detail-dark.png",
            [
                "await CustomerCenter.waitFor(m => m.screen === 'management'); CustomerCenter.tap('[data-path-id=\"detail\"]');"
            ], ["--theme", "dark"])
        detail.assertColor(200, 700, [34, 34, 38], "window background (dark)")
        XCTAssertTrue(hasRed(detail), "the detail screen shows Cancel subscription in red")
    }
}
