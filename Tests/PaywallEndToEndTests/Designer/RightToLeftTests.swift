import Foundation
import PaywallCore
import XCTest

/// Right-to-left locales: every page is laid out in the user's direction, and left-to-right
/// data inside it keeps its own order.
final class RightToLeftTests: EndToEndTestCase {
    private var dataDir: String { workDir.appendingPathComponent("data").path }
    private let catalog = EndToEndTestCase.packageRoot.appendingPathComponent("templates/classic/store.json").path

    private func customData() -> [String] {
        loggedEvents().filter { $0.name == .custom }.compactMap { $0.params["data"]?.stringValue }
    }

    /// A paywall written `<html lang="en">` is shown in the user's language and direction.
    func testAPaywallGetsTheLocalesLangAndDirection() throws {
        let bundle = try inlineBundle("rtl", body: "<p>x</p>")
        for (locale, expected) in [
            ("he_IL.UTF-8", "he rtl true rtl"), ("ar_EG", "ar rtl true rtl"), ("de_DE", "de ltr false ltr"),
        ] {
            let result = try PaywallProcess.run(
                [
                    "present", bundle.path, "--locale", locale, "--events", eventsPath, "--timeout", "30", "--eval",
                    """
                    const root = document.documentElement, device = Paywall.variables.device;
                    Paywall.custom([root.lang, root.dir, device.isRTL, device.layoutDirection].join(' ')); Paywall.close()
                    """,
                ], in: workDir)
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(customData().last, expected, locale)
        }
    }

    /// The Arabic customer center: right to left, its data isolated ("$anonymous", not "anonymous$").
    func testTheArabicCustomerCenterIsolatesItsData() throws {
        let bought = try PaywallProcess.run(
            ["store", "buy", "lumen.pro.monthly", "--store", catalog, "--data-dir", dataDir],
            in: workDir)
        XCTAssertEqual(bought.status, 0, bought.stderr)
        // The page's own checks: a failed one throws (reported on stderr) and leaves it open.
        let result = try PaywallProcess.run(
            [
                "customer-center", "--store", catalog, "--data-dir", dataDir, "--locale", "ar", "--events", eventsPath,
                "--timeout", "20", "--eval",
                """
                await CustomerCenter.waitFor(m => m.screen === 'management');
                const root = document.documentElement;
                const isolated = Array.from(document.querySelectorAll('.row .title > bdi, .row .detail > bdi'), b => b.textContent);
                const seen = JSON.stringify({dir: root.dir, lang: root.lang, isolated});
                if (root.dir !== 'rtl' || root.lang !== 'ar') throw new Error('direction: ' + seen);
                if (!isolated.includes('$anonymous')) throw new Error('the user id is not isolated: ' + seen);
                if (!isolated.some(text => text.includes('Lumen'))) throw new Error('the product name is not isolated: ' + seen);
                CustomerCenter.tap('[data-action="close"]')
                """,
            ], in: workDir)
        XCTAssertEqual(result.stdout, "{\"result\":\"closed\"}\n", result.stderr)
        XCTAssertEqual(result.status, 0, result.stderr)
    }
}
