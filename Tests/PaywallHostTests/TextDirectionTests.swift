import CGtk
import PaywallCore
import XCTest

@testable import PaywallHost

/// GTK's own widgets (alert dialogs, the progress overlay) follow the resolved locale's
/// direction, not GTK's idea of the process locale.
final class TextDirectionTests: XCTestCase {
    @MainActor
    func testAPresenterSetsGTKsDirectionFromItsLocale() async throws {
        guard try startToolkitOnDisplay() else { return }
        let resources = RuntimeResources(root: CustomerCenterPresenterTests.packageRoot)
        _ = try PaywallPresenter(resources: resources, locale: "he_IL.UTF-8")
        XCTAssertEqual(gtk_widget_get_default_direction(), GTK_TEXT_DIR_RTL)
        _ = try PaywallPresenter(resources: resources, locale: "de_DE")
        XCTAssertEqual(gtk_widget_get_default_direction(), GTK_TEXT_DIR_LTR)
    }
}
