import CGtk
import Foundation

/// Opens URLs through the desktop portal (`org.freedesktop.portal.OpenURI.OpenURI` on the
/// session bus), the only way out of a Flatpak sandbox: used inside one (`/.flatpak-info`
/// exists) or with `PAYWALL_USE_PORTAL=1`, ahead of `$PAYWALL_URL_OPENER` and `xdg-open`.
@MainActor
enum OpenURIPortal {
    static let environmentVariable = "PAYWALL_USE_PORTAL"
    /// How long the portal may take to take the request; it answers at once (the app chooser
    /// it may show answers later, by a signal this does not wait for).
    static let timeoutMilliseconds: gint = 5000

    /// Whether URLs go through the portal.
    static func isInUse(
        environment: [String: String] = ProcessInfo.processInfo.environment, sandboxMarker: String = "/.flatpak-info"
    ) -> Bool {
        environment[environmentVariable] == "1" || FileManager.default.fileExists(atPath: sandboxMarker)
    }

    /// Asks the portal to open `url` over `parent` (or over the app's active window); false when
    /// no portal took it (the reason is on stderr).
    static func open(_ url: URL, parent: UnsafeMutablePointer<GtkWidget>?) -> Bool {
        var error: UnsafeMutablePointer<GError>?
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            return failed(url, "no session bus: \(consumeError(error))")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
        let options = g_variant_type_new("a{sv}")
        defer { g_variant_type_free(options) }
        var arguments: [OpaquePointer?] = [
            g_variant_new_string(parentWindow(parent ?? activeWindow())), g_variant_new_string(url.absoluteString),
            g_variant_new_array(g_variant_type_element(options), nil, 0),
        ]
        let reply = g_dbus_connection_call_sync(
            bus, "org.freedesktop.portal.Desktop", "/org/freedesktop/portal/desktop", "org.freedesktop.portal.OpenURI",
            "OpenURI", g_variant_new_tuple(&arguments, gsize(arguments.count)), nil, G_DBUS_CALL_FLAGS_NONE,
            timeoutMilliseconds, nil, &error)
        guard let reply else { return failed(url, consumeError(error)) }
        g_variant_unref(reply)
        return true
    }

    /// The portal's `parent_window`: `x11:XID` for an X11 window; "" (no parent) otherwise
    /// (a Wayland window would need an xdg-foreign handle, which GTK 3 exports asynchronously).
    static func parentWindow(_ widget: UnsafeMutablePointer<GtkWidget>?) -> String {
        guard let widget, let window = gtk_widget_get_window(widget),
            g_type_check_instance_is_a(gcast(window), gdk_x11_window_get_type()) != 0
        else { return "" }
        return "x11:0x" + String(gdk_x11_window_get_xid(window), radix: 16)
    }

    /// The app's focused window, else its first visible one: the parent of a URL opened
    /// without one (a license-key checkout started from a paywall).
    private static func activeWindow() -> UnsafeMutablePointer<GtkWidget>? {
        let windows = gtk_window_list_toplevels()
        defer { g_list_free(windows) }
        var visible: UnsafeMutablePointer<GtkWidget>?
        var node: UnsafeMutablePointer<GList>? = windows
        while let current = node {
            let widget: UnsafeMutablePointer<GtkWidget>? = gcast(current.pointee.data)
            if let widget, gtk_widget_get_mapped(widget) != 0 {
                if gtk_window_is_active(gcast(widget)) != 0 { return widget }
                visible = visible ?? widget
            }
            node = current.pointee.next
        }
        return visible
    }

    private static func failed(_ url: URL, _ reason: String) -> Bool {
        FileHandle.standardError.write(
            Data("paywall: the OpenURI portal could not open \(url.absoluteString): \(reason); trying the next opener\n".utf8))
        return false
    }
}
