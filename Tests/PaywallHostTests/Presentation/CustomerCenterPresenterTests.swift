import CGtk
import PaywallCore
import XCTest

@testable import PaywallHost

/// The presenter's customer-center API in this process, with a real WebKit view: one at a
/// time, programmatic dismiss, a preloaded page used when presenting, the desktop's theme followed. Needs a display
/// (`xvfb-run`), like the end-to-end tests.
final class CustomerCenterPresenterTests: XCTestCase {
    @MainActor
    func testOneAtATimeDismissFromTheAppAndPreloadedPage() async throws {
        guard try startToolkitOnDisplay() else { return }
        let recording = try RecordingPresenter()
        let presenter = recording.presenter
        var names: [EventName] { recording.names }

        presenter.preloadCustomerCenter()
        let preloaded = try XCTUnwrap(presenter.preloadedCustomerCenter)
        let loaded = await runLoop { names.contains(.customerCenterPageReady) }
        XCTAssertTrue(loaded, "the preloaded page never became ready")
        var dismissed = 0
        let view = try XCTUnwrap(presenter.presentCustomerCenter(offscreen: true, onDismiss: { dismissed += 1 }))
        XCTAssertTrue(view === preloaded, "presenting uses the page loaded ahead of time")
        XCTAssertNil(presenter.preloadedCustomerCenter)
        XCTAssertNil(presenter.presentCustomerCenter(offscreen: true), "a second one while one is on screen does nothing")
        XCTAssertNil(presenter.customerCenterWidget(.embedded), "nor as a widget")

        // The page, ready before it was presented, draws its first screen.
        let drawn = await runLoop { view.session.renderedRevision > 0 }
        XCTAssertTrue(drawn, "the customer center page never drew its screen")
        XCTAssertEqual(
            names.filter { $0.rawValue.hasPrefix("customerCenter_") }, [.customerCenterPageReady, .customerCenterOpen])

        // The desktop switches to dark: the page is drawn again, dark.
        Toolkit.setInterfaceStyle("dark")
        defer {
            Toolkit.setInterfaceStyle("light")
            Toolkit.chosenStyle = nil
        }
        var theme = ""
        let dark = await runLoop {
            view.webView.evaluate("document.documentElement.dataset.theme") { if case .success(let t) = $0 { theme = t } }
            return theme == "\"dark\""
        }
        XCTAssertTrue(dark, "the page's theme is \(theme) after the desktop turned dark")

        presenter.dismissCustomerCenter()
        XCTAssertEqual(dismissed, 1)
        XCTAssertTrue(view.session.isDismissed)
        XCTAssertEqual(names.last, .customerCenterClose)
        presenter.dismissCustomerCenter()
        XCTAssertEqual(dismissed, 1, "dismissing twice reports once")

        let again = try XCTUnwrap(presenter.customerCenterWidget(.pushed), "after a dismiss, a new one can be shown")
        XCTAssertFalse(again === view)
        XCTAssertEqual(again.session.presentation, .pushed)

        // The app pops it off its stack: that dismisses it, and the next one can be shown.
        let stack = gtk_stack_new()!
        g_object_ref_sink(UnsafeMutableRawPointer(stack))
        defer { g_object_unref(UnsafeMutableRawPointer(stack)) }
        gtk_container_add(UnsafeMutablePointer(OpaquePointer(stack)), again.view.widget)
        XCTAssertFalse(again.session.isDismissed)
        gtk_container_remove(UnsafeMutablePointer(OpaquePointer(stack)), again.view.widget)
        XCTAssertTrue(again.session.isDismissed, "removing the widget dismissed it")
        XCTAssertEqual(names.last, .customerCenterClose)
        XCTAssertNotNil(presenter.customerCenterWidget(.embedded))
        presenter.dismissCustomerCenter()
    }
}
