import CWebKit
import PaywallCore
import XCTest

@testable import PaywallHost

/// With automation allowed, paywall views are made for WebDriver and still show their bundle
/// (a view WebDriver can drive cannot share the anchor's process, yet must keep the runtime's
/// context and its `paywall://` scheme).
final class WebDriverAutomationTests: XCTestCase {
    @MainActor
    func testAutomatedViewIsControlledByAutomationAndLoadsItsBundle() async throws {
        guard ProcessInfo.processInfo.environment["DISPLAY"] != nil else {
            XCTFail("needs a display: run the suite under `xvfb-run -a`")
            return
        }
        try Toolkit.initialize()
        let root = CustomerCenterPresenterTests.packageRoot
        let presenter = try PaywallPresenter(resources: RuntimeResources(root: root), locale: "en_US")
        let automation = presenter.allowAutomation()
        XCTAssertTrue(presenter.allowAutomation() === automation, "one automation per process")
        var events: [PaywallEvent] = []
        presenter.events.observe { events.append($0) }
        let bundle = try PaywallBundle(path: root.appendingPathComponent("templates/classic").path)
        let presentation = presenter.present(bundle, options: .init(offscreen: true)) { _ in }
        let ready = await runLoop { events.contains { $0.name == "page_ready" } }
        XCTAssertTrue(ready, "the page never got ready: \(events.map(\.name))")
        XCTAssertEqual(events.first { $0.name == "page_ready" }?.params["via"], "ping", "the bundle's own page answered")
        XCTAssertFalse(events.contains { $0.name == "paywall_fallback" }, "\(events.map(\.name))")
        XCTAssertNotEqual(webkit_web_view_is_controlled_by_automation(presentation.webView.view), 0)
        presentation.dismiss()
    }

    @MainActor
    func testWithoutAutomationViewsAreNotControlled() async throws {
        guard ProcessInfo.processInfo.environment["DISPLAY"] != nil else {
            XCTFail("needs a display: run the suite under `xvfb-run -a`")
            return
        }
        try Toolkit.initialize()
        let root = CustomerCenterPresenterTests.packageRoot
        let presenter = try PaywallPresenter(resources: RuntimeResources(root: root), locale: "en_US")
        let bundle = try PaywallBundle(path: root.appendingPathComponent("templates/classic").path)
        let presentation = presenter.present(bundle, options: .init(offscreen: true)) { _ in }
        XCTAssertNil(presenter.automation)
        XCTAssertEqual(webkit_web_view_is_controlled_by_automation(presentation.webView.view), 0)
        presentation.dismiss()
    }
}
