import CGtk

/// A dimmed layer with a spinner, drawn by the host over the page while a purchase or restore
/// runs, so the user sees progress even if the page shows none.
@MainActor
final class ProgressOverlay {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let spinner: UnsafeMutablePointer<GtkWidget>

    private static let css = """
        .paywall-progress { background-color: rgba(0, 0, 0, 0.45); }
        .paywall-progress label { color: white; font-weight: bold; }
        """

    init(label: String) {
        widget = gtk_event_box_new()
        spinner = gtk_spinner_new()
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12)!
        gtk_widget_set_halign(box, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(box, GTK_ALIGN_CENTER)
        gtk_widget_set_size_request(spinner, 48, 48)
        gtk_container_add(gcast(box), spinner)
        gtk_container_add(gcast(box), gtk_label_new(label))
        gtk_container_add(gcast(widget), box)
        let provider = gtk_css_provider_new()
        gtk_css_provider_load_from_data(provider, Self.css, -1, nil)
        for styled in [widget, gtk_bin_get_child(gcast(widget))!] {
            let context = gtk_widget_get_style_context(styled)
            gtk_style_context_add_provider(context, OpaquePointer(provider), guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        }
        gtk_style_context_add_class(gtk_widget_get_style_context(widget), "paywall-progress")
        gtk_widget_show_all(box)
        gtk_widget_set_no_show_all(widget, 1)  // hidden until a purchase runs
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
