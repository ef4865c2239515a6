import CGtk
import PaywallCore

/// How a preloaded sheet waits, so that the first frame its window paints on screen already
/// carries the page (`paywall bench`: `preloaded_first_frame_ms`, `preloaded_blank_frames`).
///
/// WebKit draws a view only while it is mapped, and a view that becomes visible waits about
/// 40 ms for a fresh backing store: a window shown only at present paints the window's
/// background first (measured: 1 blank frame, the page at 45-53 ms). So:
/// - `.mappedOffScreen` (X11): the window is mapped at preload, placed off the screen and kept
///   out of the taskbar and pager; presenting moves it on screen. WebKit has drawn the page all
///   along: the first frame on screen carries it.
/// - `.realizedChildren` (Wayland, where a client cannot place its windows, and any other
///   backend): the window is realized and the view and its parents are shown, not the window.
///   The first frame carries the page too, but comes later (WebKit's wait above).
@MainActor
enum HiddenDrawing {
    case mappedOffScreen
    case realizedChildren

    /// The one that works on this display: off screen only where windows can be placed (X11).
    static var forDisplay: HiddenDrawing {
        DisplayBackend.current == .x11 ? .mappedOffScreen : .realizedChildren
    }

    /// Draws `window` (holding `content`) while nothing of it shows.
    func hide(_ window: UnsafeMutablePointer<GtkWidget>, content: UnsafeMutablePointer<GtkWidget>) {
        switch self {
        case .mappedOffScreen:
            gtk_window_set_skip_taskbar_hint(gcast(window), 1)
            gtk_window_set_skip_pager_hint(gcast(window), 1)
            gtk_window_set_focus_on_map(gcast(window), 0)
            gtk_window_set_position(gcast(window), GTK_WIN_POS_NONE)
            // Root coordinates start at 0,0 on every monitor layout: a window wholly to the
            // left of and above that shows nowhere.
            var width: gint = 0
            var height: gint = 0
            gtk_window_get_default_size(gcast(window), &width, &height)
            gtk_window_move(gcast(window), -2 * max(width, 1000), -2 * max(height, 1000))
            gtk_widget_show_all(window)
        case .realizedChildren:
            gtk_widget_show_all(content)
            gtk_widget_realize(window)
        }
    }

    /// Shows the window `hide` drew: centred on `parent` when given (the sheet is then modal
    /// over it), or on the foreign window it was parented on (`ForeignWindow.parent`), else on
    /// the primary monitor, focused.
    func reveal(_ window: UnsafeMutablePointer<GtkWidget>, parent: UnsafeMutablePointer<GtkWidget>?) {
        if let parent {
            gtk_window_set_transient_for(gcast(window), gcast(parent))
            gtk_window_set_modal(gcast(window), 1)
        }
        switch self {
        case .mappedOffScreen:
            gtk_window_set_skip_taskbar_hint(gcast(window), 0)
            gtk_window_set_skip_pager_hint(gcast(window), 0)
            gtk_window_set_focus_on_map(gcast(window), 1)
            SheetCentring.move(
                window, over: parent.flatMap { gtk_widget_get_window($0) } ?? ForeignWindow.parentWindow(of: window))
            gtk_window_present(gcast(window))
        case .realizedChildren:
            gtk_window_set_position(gcast(window), parent == nil ? GTK_WIN_POS_CENTER : GTK_WIN_POS_CENTER_ON_PARENT)
            gtk_widget_show_all(window)
        }
    }
}
