import CWebKit
import PaywallCore
import XCTest

@testable import PaywallHost

/// With automation allowed, paywall views are made for WebDriver and still show their bundle
/// (a view WebDriver can drive cannot share the anchor's process, yet must keep the runtime's
/// context and its `paywall://` scheme).
final class WebDriverAutomationTests: XCTestCase {
    @MainActor
    private func presentClassic(_ presenter: PaywallPresenter) throws -> PaywallPresentation {
        let bundle = try PaywallBundle(path: packageRoot.appendingPathComponent("templates/classic").path)
        return presenter.present(bundle, options: .init(offscreen: true)) { _ in }
    }

    @MainActor
    private func makePresenter() throws -> PaywallPresenter {
        try PaywallPresenter(resources: RuntimeResources(root: packageRoot), locale: "en_US")
    }

    @MainActor
    func testAutomatedViewIsControlledByAutomationAndLoadsItsBundle() async throws {
        guard try startToolkitOnDisplay() else { return }
        let presenter = try makePresenter()
        let automation = presenter.allowAutomation()
        XCTAssertTrue(presenter.allowAutomation() === automation, "one automation per process")
        var events: [PaywallEvent] = []
        presenter.events.observe { events.append($0) }
        let presentation = try presentClassic(presenter)
        let ready = await runLoop { events.contains { $0.name == .pageReady } }
        XCTAssertTrue(ready, "the page never got ready: \(events.map(\.name))")
        XCTAssertEqual(events.first { $0.name == .pageReady }?.params["via"], "ping", "the bundle's own page answered")
        XCTAssertFalse(events.contains { $0.name == .paywallFallback }, "\(events.map(\.name))")
        XCTAssertNotEqual(webkit_web_view_is_controlled_by_automation(presentation.webView.view), 0)
        presentation.dismiss()
    }

    @MainActor
    func testWithoutAutomationViewsAreNotControlled() async throws {
        guard try startToolkitOnDisplay() else { return }
        let presenter = try makePresenter()
        let presentation = try presentClassic(presenter)
        XCTAssertNil(presenter.automation)
        XCTAssertEqual(webkit_web_view_is_controlled_by_automation(presentation.webView.view), 0)
        presentation.dismiss()
    }
}
