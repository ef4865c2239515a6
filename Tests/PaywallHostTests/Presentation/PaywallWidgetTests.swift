import CGtk
import PaywallCore
import XCTest

@testable import PaywallHost

/// A paywall the ways an app hosts it, in this process with a real WebKit view: a widget in
/// the app's own container, and a sheet modal over the app's window. Needs a display.
final class PaywallWidgetTests: XCTestCase {
    @MainActor
    func testAnEmbeddedPaywallLivesInTheAppsContainerAndTakingItOutDeclines() async throws {
        guard try startToolkitOnDisplay() else { return }
        let presenter = try PaywallPresenter(resources: RuntimeResources(root: packageRoot), locale: "en_US")
        var names: [EventName] = []
        presenter.events.observe { names.append($0.name) }
        let bundle = try PaywallBundle(path: packageRoot.appendingPathComponent("templates/classic").path)
        let window = gtk_offscreen_window_new()!
        defer { gtk_widget_destroy(window) }
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_container_add(gcast(window), box)
        var results: [PresentationResult] = []
        let presentation = presenter.paywallWidget(bundle, as: .embedded) { results.append($0) }
        XCTAssertNil(presentation.view.window, "a widget has no window of its own")
        gtk_box_pack_start(gcast(box), presentation.view.widget, 1, 1, 0)
        gtk_widget_show_all(window)
        let ready = await runLoop { names.contains(.pageReady) }
        XCTAssertTrue(ready, "the embedded page never became ready")
        XCTAssertTrue(gtk_widget_get_toplevel(presentation.view.widget) == window, "the page is inside the app's window")
        XCTAssertEqual(presentation.view.style, .embedded)

        // The app takes the widget out (its page closed): the paywall ends as a decline.
        gtk_container_remove(gcast(box), presentation.view.widget)
        let ended = await runLoop { !results.isEmpty }
        XCTAssertTrue(ended)
        XCTAssertEqual(results, [.declined])
        XCTAssertEqual(
            names.filter { [.paywallOpen, .paywallDecline, .paywallClose].contains($0) },
            [.paywallOpen, .paywallDecline, .paywallClose])
    }

    @MainActor
    func testASheetOverTheAppsWindowIsModalAndDismissTakesTheWidgetOut() async throws {
        guard try startToolkitOnDisplay() else { return }
        let presenter = try PaywallPresenter(resources: RuntimeResources(root: packageRoot), locale: "en_US")
        let bundle = try PaywallBundle(path: packageRoot.appendingPathComponent("templates/classic").path)
        let app = gtk_window_new(GTK_WINDOW_TOPLEVEL)!
        defer { gtk_widget_destroy(app) }
        var results: [PresentationResult] = []
        let sheet = presenter.present(bundle, parent: .gtk(app)) { results.append($0) }
        let window = try XCTUnwrap(sheet.view.window)
        XCTAssertTrue(gtk_window_get_transient_for(gcast(window)) == gcast(app), "the sheet belongs to the app's window")
        XCTAssertEqual(gtk_window_get_modal(gcast(window)), 1)
        sheet.dismiss()
        _ = await runLoop { !results.isEmpty }
        XCTAssertEqual(results, [.declined])

        // A widget the app dismisses from code leaves the app's container.
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        g_object_ref_sink(UnsafeMutableRawPointer(box))
        defer { g_object_unref(UnsafeMutableRawPointer(box)) }
        let widget = presenter.paywallWidget(bundle, as: .pushed) { results.append($0) }
        gtk_box_pack_start(gcast(box), widget.view.widget, 1, 1, 0)
        widget.dismiss()
        _ = await runLoop { results.count == 2 }
        XCTAssertEqual(results, [.declined, .declined])
        XCTAssertNil(gtk_widget_get_parent(widget.view.widget), "out of the app's container")
    }
}
