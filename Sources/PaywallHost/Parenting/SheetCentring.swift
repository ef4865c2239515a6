import CGtk

/// Where a sheet goes on screen: centred on the window it belongs to (a window of this app, or
/// another process's window it was parented on), else on the primary monitor's work area. X11
/// only: a Wayland client cannot place its windows, the compositor does.
@MainActor
enum SheetCentring {
    /// The top-left corner that centres `window` (at its current or default size) on `parent`'s
    /// frame, or on the primary monitor's work area without one; never above or left of either.
    static func origin(of window: UnsafeMutablePointer<GtkWidget>, over parent: OpaquePointer?) -> (gint, gint) {
        var width: gint = 0
        var height: gint = 0
        gtk_window_get_size(gcast(window), &width, &height)
        var area = GdkRectangle()
        if let parent {
            gdk_window_get_frame_extents(parent, &area)
        } else if let display = gdk_display_get_default(),
            let monitor = gdk_display_get_primary_monitor(display) ?? gdk_display_get_monitor(display, 0)
        {
            gdk_monitor_get_workarea(monitor, &area)
        }
        return (area.x + max(0, (area.width - width) / 2), area.y + max(0, (area.height - height) / 2))
    }

    /// Moves `window` to sit centred on `parent` (see `origin`).
    static func move(_ window: UnsafeMutablePointer<GtkWidget>, over parent: OpaquePointer?) {
        let (x, y) = origin(of: window, over: parent)
        gtk_window_move(gcast(window), x, y)
    }
}
