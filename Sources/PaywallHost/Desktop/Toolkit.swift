import CGtk
import Foundation

/// Process-wide GTK setup and the main loop the host runs in.
@MainActor
package enum Toolkit {
    package struct NoDisplay: Error, CustomStringConvertible {
        package var description: String {
            "cannot open a display (DISPLAY/WAYLAND_DISPLAY); run inside a desktop session or under `xvfb-run -a`"
        }
    }

    /// Initializes GTK and lets Swift concurrency run inside its loop.
    ///
    /// Without a GPU render node, WebKit's accelerated compositing falls back to slow software GL:
    /// the first frames of a page then take about 200 ms instead of about 50 (`paywall bench`).
    /// So on such machines compositing is turned off, unless `WEBKIT_DISABLE_COMPOSITING_MODE`
    /// is already set either way, or WebDriver will drive the process (`automation`): its
    /// screenshot waits for the page's next frame, which without compositing a page that
    /// does not change (the customer center at rest) never draws, so `save_screenshot()` hung.
    package static func initialize(automation: Bool = false) throws(NoDisplay) {
        let hasRenderNode = ((try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri")) ?? [])
            .contains { $0.hasPrefix("renderD") }
        if !hasRenderNode, !automation { setenv("WEBKIT_DISABLE_COMPOSITING_MODE", "1", 0) }
        guard gtk_init_check(nil, nil) != 0 else { throw NoDisplay() }
        MainLoop.integrateDispatch()
    }

    /// `dark` when the desktop prefers a dark theme (GTK's preference, or a `-dark` theme), else `light`.
    package static var interfaceStyle: String {
        if let chosenStyle { return chosenStyle }
        guard let settings = gtk_settings_get_default() else { return "light" }
        var value = GValue()
        g_value_init(&value, booleanGType)
        g_object_get_property(UnsafeMutablePointer(OpaquePointer(settings)), "gtk-application-prefer-dark-theme", &value)
        let prefersDark = g_value_get_boolean(&value) != 0
        g_value_unset(&value)
        var name = GValue()
        g_value_init(&name, stringGType)
        g_object_get_property(UnsafeMutablePointer(OpaquePointer(settings)), "gtk-theme-name", &name)
        let theme = g_value_get_string(&name).map { String(cString: $0) } ?? ""
        g_value_unset(&name)
        return prefersDark || theme.lowercased().hasSuffix("-dark") ? "dark" : "light"
    }

    /// The style `setInterfaceStyle` chose, which wins over the desktop's (nil: the desktop's).
    static var chosenStyle: String?

    /// Makes GTK (and so WebKit's `prefers-color-scheme`) use the dark or light variant.
    package static func setInterfaceStyle(_ style: String) {
        chosenStyle = style
        guard let settings = gtk_settings_get_default() else { return }
        var value = GValue()
        g_value_init(&value, GType(5 << 2))
        g_value_set_boolean(&value, style == "dark" ? 1 : 0)
        g_object_set_property(UnsafeMutablePointer(OpaquePointer(settings)), "gtk-application-prefer-dark-theme", &value)
        g_value_unset(&value)
    }

    /// Lays out `widget` and everything in it right to left or left to right. GTK takes its
    /// default direction from the process's locale, which a presenter's locale may override;
    /// setting it per window leaves an embedding app's own widgets alone.
    static func setTextDirection(of widget: UnsafeMutablePointer<GtkWidget>, rightToLeft: Bool) {
        var direction = rightToLeft ? GTK_TEXT_DIR_RTL : GTK_TEXT_DIR_LTR
        withUnsafeMutablePointer(to: &direction) { pointer in
            setDirection(widget, pointer)
        }
    }

    /// Runs on the GTK thread only (called from `setTextDirection` and GTK's own forall).
    nonisolated private static func setDirection(
        _ widget: UnsafeMutablePointer<GtkWidget>?, _ direction: UnsafeMutablePointer<GtkTextDirection>
    ) {
        gtk_widget_set_direction(widget, direction.pointee)
        guard let widget, g_type_check_instance_is_a(UnsafeMutablePointer(OpaquePointer(widget)), gtk_container_get_type()) != 0
        else { return }
        // forall, not foreach: internal children too (a dialog's action area, a button's label).
        gtk_container_forall(
            gcast(widget),
            { child, data in
                Toolkit.setDirection(child, data!.assumingMemoryBound(to: GtkTextDirection.self))
            }, UnsafeMutableRawPointer(direction))
    }

    private static var styles: Set<String> = []

    /// Adds `css` to the whole screen, once: a provider added to one widget does not reach its
    /// children in GTK 3.
    static func addStyle(_ css: String) {
        guard !styles.contains(css), let screen = gdk_screen_get_default() else { return }
        styles.insert(css)
        let provider = gtk_css_provider_new()
        gtk_css_provider_load_from_data(provider, css, -1, nil)
        gtk_style_context_add_provider_for_screen(screen, OpaquePointer(provider), guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        g_object_unref(UnsafeMutableRawPointer(provider))
    }

    /// A new top-level window, or one that renders without appearing on the desktop
    /// (snapshots). An off-screen window has no decorations: on Wayland, GTK otherwise adds
    /// client-side ones and the view grows by their height (a 400x720 snapshot came out 400x772).
    package static func makeWindow(offscreen: Bool) -> UnsafeMutablePointer<GtkWidget> {
        guard offscreen else { return gtk_window_new(GTK_WINDOW_TOPLEVEL)! }
        let window = gtk_offscreen_window_new()!
        gtk_window_set_decorated(gcast(window), 0)
        return window
    }

    /// Runs the main loop until `quit()`.
    package static func run() {
        gtk_main()
    }

    package static func quit() {
        gtk_main_quit()
    }
}
