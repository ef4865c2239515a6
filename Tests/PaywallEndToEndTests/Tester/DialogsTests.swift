import Foundation
import PaywallCore
import XCTest

/// `--dialogs auto`: the runtime's own dialogs (purchase pending or failed, restore found
/// nothing) are answered with their default button and logged as `dialog_shown`, so a
/// scripted run reaches its end by itself.
final class DialogsTests: EndToEndTestCase {
    private var dataDir: String { workDir.appendingPathComponent("data").path }
    private let catalog = EndToEndTestCase.packageRoot.appendingPathComponent("templates/classic/store.json").path
    private let template = EndToEndTestCase.packageRoot.appendingPathComponent("templates/classic").path

    /// Clicks `button`, waits for the dialog the page hears about, then closes the paywall.
    private func presentAnsweringDialogs(clicking button: String) throws -> PaywallProcess.Outcome {
        let script = """
            const shown = new Promise(done => Paywall.on('dialog_shown', done));
            document.getElementById('\(button)').click();
            const dialog = await shown;
            if (dialog.answer !== 'ok') throw new Error('answer ' + dialog.answer);
            Paywall.close();
            """
        return try PaywallProcess.run(
            [
                "present", template, "--store", catalog, "--data-dir", dataDir, "--events", eventsPath, "--timeout", "60",
                "--dialogs", "auto", "--strict", "--eval", script,
            ], in: workDir, timeout: 90)
    }

    private func setOutcome(_ outcome: String) throws {
        let result = try PaywallProcess.run(
            ["store", "set-outcome", outcome, "--store", catalog, "--data-dir", dataDir], in: workDir)
        XCTAssertEqual(result.status, 0, result.stderr)
    }

    private func assertDialog(title: String, messageContains: String, file: StaticString = #filePath, line: UInt = #line) {
        let dialogs = loggedEvents().filter { $0.name == EventName.dialogShown }
        XCTAssertEqual(dialogs.count, 1, "\(eventNames())", file: file, line: line)
        XCTAssertEqual(dialogs.first?.params["title"], .string(title), file: file, line: line)
        XCTAssertTrue(
            dialogs.first?.params["message"]?.stringValue?.contains(messageContains) ?? false,
            "\(String(describing: dialogs.first))", file: file, line: line)
        XCTAssertEqual(dialogs.first?.params["answer"], "ok", file: file, line: line)
    }

    func testPendingPurchaseDialogIsAnswered() throws {
        try setOutcome("pending")
        let result = try presentAnsweringDialogs(clicking: "purchase")
        XCTAssertEqual(result.stdout, "{\"result\":\"declined\"}\n", result.stderr)
        XCTAssertEqual(result.status, 0)
        XCTAssertTrue(eventNames().contains(.transactionPending), "\(eventNames())")
        assertDialog(title: "Waiting for Approval", messageContains: "Your purchase needs")
    }

    func testFailedPurchaseDialogIsAnswered() throws {
        try setOutcome("failed:card_declined")
        let result = try presentAnsweringDialogs(clicking: "purchase")
        XCTAssertEqual(result.stdout, "{\"result\":\"declined\"}\n", result.stderr)
        XCTAssertEqual(result.status, 0)
        assertDialog(title: "Purchase Failed", messageContains: "card_declined")
    }

    func testEmptyRestoreDialogIsAnswered() throws {
        let result = try presentAnsweringDialogs(clicking: "restore")
        XCTAssertEqual(result.stdout, "{\"result\":\"declined\"}\n", result.stderr)
        XCTAssertEqual(result.status, 0)
        assertDialog(title: "No Purchases Found", messageContains: "no active purchases")
    }

    /// `preview` has no scripts: the page itself restores, and closes once the dialog was answered.
    func testPreviewAnswersDialogsToo() throws {
        let bundle = try inlineBundle(
            "restore",
            body: """
                <script>
                Paywall.on('dialog_shown', dialog => { if (dialog.answer === 'ok') Paywall.close(); });
                window.addEventListener('load', () => Paywall.restore());
                </script>
                """)
        let result = try PaywallProcess.run(
            ["preview", bundle.path, "--store", catalog, "--data-dir", dataDir, "--events", eventsPath, "--dialogs", "auto"],
            in: workDir, timeout: 90)
        XCTAssertEqual(result.status, 0, result.stderr)
        assertDialog(title: "No Purchases Found", messageContains: "no active purchases")
    }

    func testUnknownDialogPolicyIsAUsageError() throws {
        let result = try PaywallProcess.run(["present", template, "--dialogs", "yes"], in: workDir)
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("--dialogs must be auto or show"), result.stderr)
    }
}
