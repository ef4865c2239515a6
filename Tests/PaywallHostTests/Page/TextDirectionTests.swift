import CGtk
import PaywallCore
import XCTest

@testable import PaywallHost

/// GTK's own widgets in a paywall window (the progress overlay, its buttons) follow the
/// presenter's locale, while GTK's default, which an embedding app's own widgets use, is left alone.
final class TextDirectionTests: XCTestCase {
    @MainActor
    func testAPaywallWindowFollowsThePresentersLocaleAndNothingElse() async throws {
        guard try startToolkitOnDisplay() else { return }
        let root = packageRoot
        let before = gtk_widget_get_default_direction()
        let bundle = try PaywallBundle(path: root.appendingPathComponent("templates/classic").path)
        for (locale, expected) in [("he_IL.UTF-8", GTK_TEXT_DIR_RTL), ("de_DE", GTK_TEXT_DIR_LTR)] {
            let presenter = try PaywallPresenter(resources: RuntimeResources(root: root), locale: locale)
            let presentation = presenter.present(bundle, options: .init(offscreen: true)) { _ in }
            let window = try XCTUnwrap(presentation.view.window, "a sheet has its own window")
            XCTAssertEqual(gtk_widget_get_direction(window), expected, locale)
            let child = try XCTUnwrap(gtk_bin_get_child(gcast(window)), "the window's overlay")
            XCTAssertEqual(gtk_widget_get_direction(child), expected, "\(locale): the widgets inside it too")
            presentation.dismiss()
        }
        XCTAssertEqual(gtk_widget_get_default_direction(), before, "an embedding app's widgets are not touched")
    }
}
