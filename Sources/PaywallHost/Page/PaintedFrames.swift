import CGtk
import Dispatch

/// Watches the frames GTK paints for the window holding a widget: after each paint of the
/// window's frame clock (`after-paint`) it reads the window's pixels back at points of the
/// widget, so a caller sees what a user saw in that frame (`paywall bench`'s first content
/// frame, the first-frame tests). A window not realized yet is watched from its realization.
/// `package`: an instrument, not app API.
@MainActor
package final class PaintedFrames {
    /// One painted frame.
    package struct Frame: Sendable {
        /// When its paint ended, in milliseconds of `DispatchTime`'s uptime.
        package let endedAt: Double
        /// Whether the window was on the screen then (an X11 window waiting off screen is not).
        package let onScreen: Bool
        /// The pixels at the points, `0xRRGGBB`; nil where they could not be read.
        package let pixels: [UInt32?]
    }

    private let widget: UnsafeMutablePointer<GtkWidget>
    private let points: [(x: Int, y: Int)]
    private var onFrame: (@MainActor (Frame) -> Bool)?
    private var clock: UnsafeMutableRawPointer?
    private var paintHandler: gulong = 0
    private var realizeHandler: gulong = 0
    private var toplevel: UnsafeMutablePointer<GtkWidget> { gtk_widget_get_toplevel(widget) }

    /// Starts watching; `onFrame` gets each frame until it returns false (or `stop()`).
    package init(
        widget: UnsafeMutablePointer<GtkWidget>, points: [(x: Int, y: Int)],
        onFrame: @escaping @MainActor (Frame) -> Bool
    ) {
        self.widget = widget
        self.points = points
        self.onFrame = onFrame
        let window = gtk_widget_get_toplevel(widget)!
        if gtk_widget_get_realized(window) != 0 {
            attach()
        } else {
            realizeHandler = Signal.connect(UnsafeMutableRawPointer(window), "realize") { [weak self] in self?.attach() }
        }
    }

    private func attach() {
        if realizeHandler != 0 {
            g_signal_handler_disconnect(UnsafeMutableRawPointer(toplevel), realizeHandler)
            realizeHandler = 0
        }
        guard onFrame != nil, let frameClock = gtk_widget_get_frame_clock(toplevel) else { return }
        clock = UnsafeMutableRawPointer(frameClock)
        g_object_ref(clock)
        paintHandler = Signal.connect(clock!, "after-paint") { [weak self] in self?.painted() }
    }

    private func painted() {
        let frame = Frame(
            endedAt: Double(DispatchTime.now().uptimeNanoseconds) / 1e6, onScreen: isOnScreen,
            pixels: points.map(read))
        if onFrame?(frame) == false { stop() }
    }

    /// Stops watching.
    package func stop() {
        onFrame = nil
        if let clock {
            g_signal_handler_disconnect(clock, paintHandler)
            g_object_unref(clock)
            self.clock = nil
        }
        if realizeHandler != 0 {
            g_signal_handler_disconnect(UnsafeMutableRawPointer(toplevel), realizeHandler)
            realizeHandler = 0
        }
    }

    private var isOnScreen: Bool {
        guard gtk_widget_get_mapped(toplevel) != 0, let window = gtk_widget_get_window(toplevel) else { return false }
        var x: gint = 0
        var y: gint = 0
        gdk_window_get_origin(window, &x, &y)
        return x + gdk_window_get_width(window) > 0 && y + gdk_window_get_height(window) > 0
    }

    /// The pixel at `point` of the widget, read back from its toplevel's window.
    private func read(_ point: (x: Int, y: Int)) -> UInt32? {
        var x: gint = 0
        var y: gint = 0
        guard let window = gtk_widget_get_window(toplevel),
            gtk_widget_translate_coordinates(widget, toplevel, gint(point.x), gint(point.y), &x, &y) != 0,
            let pixbuf = gdk_pixbuf_get_from_window(window, x, y, 1, 1)
        else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        guard let p = gdk_pixbuf_get_pixels(pixbuf) else { return nil }
        return UInt32(p[0]) << 16 | UInt32(p[1]) << 8 | UInt32(p[2])
    }

    deinit {
        MainActor.assumeIsolated { stop() }
    }
}
