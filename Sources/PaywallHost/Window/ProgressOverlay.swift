import CGtk

/// A dimmed layer with a spinner card, drawn by the host over the page while a purchase or
/// restore runs, so the user sees progress even if the page shows none.
@MainActor
final class ProgressOverlay {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let spinner: UnsafeMutablePointer<GtkWidget>

    private static let css = """
        .paywall-progress { background-color: rgba(0, 0, 0, 0.45); }
        .paywall-progress-card { background-color: rgba(28, 28, 30, 0.92); border-radius: 14px; padding: 22px 28px; }
        .paywall-progress-card label { color: #ffffff; font-weight: bold; }
        .paywall-progress-card spinner { color: #ffffff; }
        """

    init(label: String) {
        widget = gtk_event_box_new()
        spinner = gtk_spinner_new()
        let card = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12)!
        gtk_widget_set_halign(card, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(card, GTK_ALIGN_CENTER)
        gtk_widget_set_size_request(spinner, 40, 40)
        gtk_container_add(gcast(card), spinner)
        gtk_container_add(gcast(card), gtk_label_new(label))
        gtk_container_add(gcast(widget), card)
        Self.installStyle()
        gtk_style_context_add_class(gtk_widget_get_style_context(widget), "paywall-progress")
        gtk_style_context_add_class(gtk_widget_get_style_context(card), "paywall-progress-card")
        gtk_widget_show_all(card)
        gtk_widget_set_no_show_all(widget, 1)  // hidden until a purchase runs
    }

    /// Screen-wide, because a provider added to one widget does not reach its children in GTK 3.
    private static var styled = false
    private static func installStyle() {
        guard !styled, let screen = gdk_screen_get_default() else { return }
        styled = true
        let provider = gtk_css_provider_new()
        gtk_css_provider_load_from_data(provider, css, -1, nil)
        gtk_style_context_add_provider_for_screen(screen, OpaquePointer(provider), guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        g_object_unref(UnsafeMutableRawPointer(provider))
    }

    func setVisible(_ visible: Bool) {
        if visible {
            gtk_spinner_start(gcast(spinner))
            gtk_widget_show(widget)
        } else {
            gtk_spinner_stop(gcast(spinner))
            gtk_widget_hide(widget)
        }
    }
}
