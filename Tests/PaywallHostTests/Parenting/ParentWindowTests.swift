import CGtk
import PaywallCore
import XCTest

@testable import PaywallHost

/// `ParentWindow`, the typed `parent:` of the facade: what each case parents on, and the
/// sidecar's `parent` text read into it.
final class ParentWindowTests: XCTestCase {
    func testAGtkWindowIsThisAppsWidgetAndTheOthersAreAnotherProcesssWindow() {
        let window = UnsafeMutableRawPointer.allocate(byteCount: 8, alignment: 8)
        defer { window.deallocate() }
        let gtk = ParentWindow.gtk(window).placement
        XCTAssertEqual(gtk.own.map(UnsafeMutableRawPointer.init), window)
        XCTAssertNil(gtk.foreign)
        let x11 = ParentWindow.x11(0x3a0_0007).placement
        XCTAssertNil(x11.own)
        XCTAssertEqual(x11.foreign, .x11(0x3a0_0007))
        let wayland = ParentWindow.wayland(exportedHandle: "a1b2-c3").placement
        XCTAssertNil(wayland.own)
        XCTAssertEqual(wayland.foreign, .wayland("a1b2-c3"))
    }

    /// `paywall serve`'s `parent` strings map onto the same cases an app passes.
    func testTheSidecarsParentTextIsReadIntoTheTypedValue() throws {
        XCTAssertEqual(try ParentWindow(parsing: "x11:0x3a00007"), .x11(0x3a0_0007))
        XCTAssertEqual(try ParentWindow(parsing: "x11:60817415"), .x11(60_817_415))
        XCTAssertEqual(try ParentWindow(parsing: "wayland:a1b2-c3"), .wayland(exportedHandle: "a1b2-c3"))
        XCTAssertThrowsError(try ParentWindow(parsing: "gtk:0x1")) { error in
            XCTAssertTrue("\(error)".contains("unknown kind \"gtk\""), "\(error)")
        }
    }
}
