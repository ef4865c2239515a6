import CGtk
import Foundation
import PaywallCore

/// Makes a sheet's window transient for, and modal over, a window of another process (an app
/// driving `paywall serve`): the window manager keeps it above that window and centred on it.
extension ForeignWindow {
    /// Parents `window` (a toplevel, realized here when it is not yet) on this foreign window.
    /// Returns why it could not (the window then stays unparented), or nil when it is parented.
    @MainActor
    func parent(_ window: UnsafeMutablePointer<GtkWidget>) -> String? {
        gtk_widget_realize(window)
        guard let own = gtk_widget_get_window(window), let display = gdk_display_get_default() else {
            return "parent \(self): the paywall's window could not be realized"
        }
        switch (self, DisplayBackend.current) {
        case (.x11(let id), .x11):
            // NULL (with X's error trapped) when no such window exists: closed, or not a window id.
            guard let foreign = gdk_x11_window_foreign_new_for_display(display, CUnsignedLong(id)) else {
                return "parent \(self): no such X11 window (it was closed, or the id is wrong); shown unparented"
            }
            gdk_window_set_transient_for(own, foreign)
            // GDK keeps a plain pointer to the parent: it lives as long as the window does.
            g_object_set_data_full(UnsafeMutablePointer<GObject>(own), Self.parentKey, UnsafeMutableRawPointer(foreign)) {
                g_object_unref($0)
            }
            // GTK centres a sheet on the screen (it does not know this parent), and without a
            // window manager nothing else places it: over the parent, as a dialog sits. A sheet
            // drawn off screen while preloaded is placed when it is revealed (`HiddenDrawing`).
            gtk_window_set_position(gcast(window), GTK_WIN_POS_NONE)
            SheetCentring.move(window, over: foreign)
        case (.wayland(let handle), .wayland):
            let accepted = handle.withCString {
                gdk_wayland_window_set_transient_for_exported(own, UnsafeMutablePointer(mutating: $0))
            }
            guard accepted != 0 else {
                return "parent \(self): the compositor does not support xdg-foreign (zxdg_importer_v1); shown unparented"
            }
        case (.x11, _):
            return
                "parent \(self): an X11 window id, but this display is not X11 (set GDK_BACKEND=x11 or pass a wayland: handle); shown unparented"
        case (.wayland, _):
            return "parent \(self): a Wayland handle, but this display is not Wayland (pass an x11: window id); shown unparented"
        }
        gtk_window_set_modal(gcast(window), 1)
        return nil
    }

    private static let parentKey = "paywall-foreign-parent"

    /// The other process's window `window` was parented on (X11), if it was.
    @MainActor
    static func parentWindow(of window: UnsafeMutablePointer<GtkWidget>) -> OpaquePointer? {
        guard let own = gtk_widget_get_window(window),
            let data = g_object_get_data(UnsafeMutablePointer<GObject>(own), parentKey)
        else { return nil }
        return OpaquePointer(data)
    }
}
