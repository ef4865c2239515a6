import XCTest

@testable import PaywallCore

/// `paywall serve`'s `parent`: another process's window, as text.
final class ForeignWindowTests: XCTestCase {
    func testX11IdsInHexOrDecimalAndWaylandHandles() throws {
        XCTAssertEqual(try ForeignWindow(parsing: "x11:0x3a00007"), .x11(0x3a00007))
        XCTAssertEqual(try ForeignWindow(parsing: "x11:0X3A00007"), .x11(0x3a00007))
        XCTAssertEqual(try ForeignWindow(parsing: "x11:60817415"), .x11(60_817_415))
        XCTAssertEqual(try ForeignWindow(parsing: "wayland:a1b2-c3"), .wayland("a1b2-c3"))
        XCTAssertEqual(ForeignWindow.x11(0x3a00007).description, "x11:0x3a00007")
    }

    func testAnythingElseSaysWhatAParentLooksLike() {
        for text in ["", "x11", "x11:", "x11:0", "x11:0xzz", "x11:-1", "mir:1", "wayland:", "wayland:a\nb", "0x3a00007"] {
            XCTAssertThrowsError(try ForeignWindow(parsing: text), text) { error in
                XCTAssertTrue("\(error)".contains("x11:0x3a00007"), "\(text): \(error)")
            }
        }
    }
}
