import Foundation
import XCTest

/// Buying with the keyboard alone, in every template: real X key events (xdotool) into the
/// paywall window: Tab to a plan, an arrow key or Space to choose it, Tab to the button, Enter.
final class KeyboardPurchaseTests: EndToEndTestCase {
    /// Presents `template` with its sample catalog, waits for the page, presses `keys` one by
    /// one (xdotool key names), and checks the purchase of `product`.
    private func buy(
        _ template: String, keys: [String], product: String, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let folder = Self.packageRoot.appendingPathComponent("templates/\(template)")
        let process = try PaywallProcess(
            [
                "present", folder.path, "--store", folder.appendingPathComponent("store.json").path, "--data-dir",
                workDir.appendingPathComponent("data-\(template)").path, "--locale", "en_US", "--events", eventsPath,
                "--timeout", "60", "--eval", Self.listeningScript(focused: true),
            ], in: workDir)
        let window = try XCTUnwrap(
            RealInput.waitForWindow(pid: process.process.processIdentifier, name: "^\(template)$"), file: file, line: line)
        _ = RealInput.xdotool(["windowfocus", "--sync", window])
        // A key sent before the page has the focus and has painted was lost on CI.
        waitUntilListening(file: file, line: line)
        for key in keys {
            _ = RealInput.xdotool(["key", "--window", window, key])
            usleep(150_000)  // one key handled before the next, as a person types
        }
        let result = process.wait(file: file, line: line)
        XCTAssertEqual(
            result.stdout, "{\"result\":\"purchased\",\"product_id\":\"\(product)\"}\n", "\(template): \(result.stderr)",
            file: file, line: line)
    }

    func testClassicBuysTheMonthlyPlan() throws {
        // Close, then the plans (the yearly one checked): Right chooses monthly, Tab reaches Buy.
        try buy("classic", keys: ["Tab", "Tab", "Right", "Tab", "Return"], product: "lumen.pro.monthly")
    }

    func testMinimalBuysItsPlan() throws {
        try buy("minimal", keys: ["Tab", "Tab", "Return"], product: "lumen.pro.yearly")
    }

    func testComparisonBuysTheMonthlyPlan() throws {
        try buy("comparison", keys: ["Tab", "Tab", "Right", "space", "Tab", "Return"], product: "lumen.pro.monthly")
    }

    func testTrialTimelineStartsTheTrial() throws {
        try buy("trial-timeline", keys: ["Tab", "Tab", "Return"], product: "lumen.pro.yearly")
    }

    func testCarouselBuysTheMonthlyPlanAfterTheSlides() throws {
        // Close, the slides (Right shows the second, which enables the back arrow), the back arrow,
        // three dots, the next arrow, then the plans: Right and Enter choose monthly.
        try buy(
            "carousel",
            keys: ["Tab", "Tab", "Right", "Tab", "Tab", "Tab", "Tab", "Tab", "Tab", "Right", "Return", "Tab", "Return"],
            product: "lumen.pro.monthly")
    }

    func testLifetimeBuysTheOneTimePurchase() throws {
        try buy("lifetime", keys: ["Tab", "Tab", "Return"], product: "lumen.pro.lifetime")
    }

    func testWinbackBuysTheRegularPlanForSomeoneWhoNeverSubscribed() throws {
        try buy("winback", keys: ["Tab", "Tab", "Return"], product: "lumen.pro.yearly")
    }
}
