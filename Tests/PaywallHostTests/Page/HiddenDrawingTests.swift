import CGtk
import Foundation
import PaywallCore
import XCTest

@testable import PaywallHost

/// A preloaded page is drawn while hidden: the first frame its window paints on screen already
/// shows the page, read back from the window's pixels after that paint. Real WebKit views;
/// needs a display (`xvfb-run`).
final class HiddenDrawingTests: XCTestCase {
    private static let marker =
        "<div style=\"position:fixed;left:0;top:0;width:40px;height:40px;background:rgb(18,171,52);z-index:99\"></div>"
    private static let markerPixel: UInt32 = 0x12ab34
    private var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("HiddenDrawingTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    /// The pixels of the first frame painted on screen after `show` runs.
    @MainActor
    private func firstFrameOnScreen(of widget: UnsafeMutablePointer<GtkWidget>, show: () -> Void) async throws -> [UInt32?] {
        var first: [UInt32?]?
        show()  // GTK paints from the main loop, not inside the call: watching after it misses nothing
        let frames = PaintedFrames(widget: widget, points: [(x: 10, y: 10), (x: 30, y: 30)]) { frame in
            guard frame.onScreen else { return true }
            first = frame.pixels
            return false
        }
        let painted = await runLoop { first != nil }
        frames.stop()
        XCTAssertTrue(painted, "the window never painted on screen")
        return first ?? []
    }

    /// Lets a page loaded (or changed) out of sight be drawn there.
    @MainActor
    private func pause() async {
        let until = Date().addingTimeInterval(0.3)
        _ = await runLoop { Date() >= until }
    }

    @MainActor
    func testAPreloadedPaywallsFirstFrameOnScreenShowsThePage() async throws {
        guard try startToolkitOnDisplay() else { return }
        // The classic template (fonts, artwork, animations: a page WebKit takes a while to
        // draw), the marker over its top-left corner.
        let bundle = dir.appendingPathComponent("classic")
        try FileManager.default.copyItem(at: packageRoot.appendingPathComponent("templates/classic"), to: bundle)
        let index = bundle.appendingPathComponent("index.html")
        try String(contentsOf: index, encoding: .utf8).replacingOccurrences(of: "<body>", with: "<body>" + Self.marker)
            .write(to: index, atomically: true, encoding: .utf8)
        let recording = try RecordingPresenter()
        let presenter = recording.presenter
        let loaded = try await recording.preload(bundle.path, as: "first")
        XCTAssertTrue(loaded, "the preload never completed")
        await pause()

        var presentation: PaywallPresentation?
        let pixels = try await firstFrameOnScreen(of: try XCTUnwrap(presenter.preloaded.first?.presentation.webView.widget)) {
            presentation = presenter.presentPreloaded(id: "first") { _ in }
        }
        XCTAssertEqual(
            pixels, [Self.markerPixel, Self.markerPixel],
            "the first frame on screen shows the page (0xf6f5f4 would be the window's empty background)")
        presentation?.dismiss()
    }

    /// What makes the first frame carry the page: WebKit draws a preloaded page while it is
    /// hidden (its animation frames run), in a window no part of which is on the screen (X11).
    @MainActor
    func testAPreloadedPaywallIsDrawnWhileHiddenOffTheScreen() async throws {
        guard try startToolkitOnDisplay() else { return }
        try "<!DOCTYPE html><html><body><p>paid</p></body></html>"
            .write(to: dir.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
        let recording = try RecordingPresenter()
        let presenter = recording.presenter
        let loaded = try await recording.preload(dir.path, as: "hidden")
        XCTAssertTrue(loaded, "the preload never completed")
        let presentation = try XCTUnwrap(presenter.preloaded.first?.presentation)

        var frames = ""
        presentation.webView.callAsync(
            "await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r))); return 'drawn'"
        ) {
            if case .success(let text) = $0 { frames = text }
        }
        let drawn = await runLoop(timeout: 5) { frames == "\"drawn\"" }
        XCTAssertTrue(drawn, "the hidden page draws no frames (a view WebKit sees as hidden runs none)")

        let window = try XCTUnwrap(presentation.view.window)
        XCTAssertNotEqual(gtk_widget_get_mapped(window), 0, "mapped, so that WebKit draws it")
        var x: gint = 0
        var y: gint = 0
        gdk_window_get_origin(gtk_widget_get_window(window), &x, &y)
        let gdkWindow = gtk_widget_get_window(window)
        XCTAssertTrue(
            x + gdk_window_get_width(gdkWindow) <= 0 && y + gdk_window_get_height(gdkWindow) <= 0,
            "wholly off the screen: at \(x),\(y)")
        XCTAssertNotEqual(gtk_window_get_skip_taskbar_hint(gcast(window)), 0, "not listed in the taskbar while hidden")

        let shown = presenter.presentPreloaded(id: "hidden") { _ in }
        let onScreen = await runLoop {
            gdk_window_get_origin(gdkWindow, &x, &y)
            return x >= 0 && y >= 0
        }
        XCTAssertTrue(onScreen, "presenting moves it on screen")
        XCTAssertEqual(gtk_window_get_skip_taskbar_hint(gcast(window)), 0, "and lists it")
        shown?.dismiss()
    }

    @MainActor
    func testAPreloadedCustomerCentersFirstFrameOnScreenShowsItsScreen() async throws {
        guard try startToolkitOnDisplay() else { return }
        let recording = try RecordingPresenter()
        let presenter = recording.presenter
        presenter.preloadCustomerCenter()
        let preloaded = try XCTUnwrap(presenter.preloadedCustomerCenter)
        let drawn = await runLoop { preloaded.session.renderedRevision > 0 }
        XCTAssertTrue(drawn, "the preloaded customer center never drew its screen")
        XCTAssertFalse(recording.names.contains(.customerCenterOpen), "drawn, not yet open")
        preloaded.webView.evaluate(
            "document.documentElement.insertAdjacentHTML('beforeend', \(JSONValue.string(Self.marker).jsonText))")
        await pause()

        let pixels = try await firstFrameOnScreen(of: preloaded.webView.widget) {
            XCTAssertNotNil(presenter.presentCustomerCenter())
        }
        XCTAssertEqual(pixels, [Self.markerPixel, Self.markerPixel], "the first frame on screen shows the drawn page")
        presenter.dismissCustomerCenter()
    }
}
