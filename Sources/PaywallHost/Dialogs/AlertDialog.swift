import CGtk

/// A small modal message with one button, over the paywall window. It does not block the main
/// loop (no `gtk_dialog_run`), so the page and automation keep working while it is up.
@MainActor
enum AlertDialog {
    static func show(title: String, message: String, button: String, parent: UnsafeMutablePointer<GtkWidget>, rightToLeft: Bool) {
        let dialog = gtk_dialog_new()!
        gtk_window_set_title(gcast(dialog), title)
        gtk_window_set_transient_for(gcast(dialog), gcast(parent))
        gtk_window_set_modal(gcast(dialog), 1)
        // Goes with the paywall: a purchase that fails after a close was asked for shows its
        // dialog just before the window goes, and in an app it must not outlive it.
        gtk_window_set_destroy_with_parent(gcast(dialog), 1)
        gtk_window_set_resizable(gcast(dialog), 0)
        let escapedTitle = g_markup_escape_text(title, -1)!
        let escapedMessage = g_markup_escape_text(message, -1)!
        let label = gtk_label_new(nil)!
        gtk_label_set_markup(gcast(label), "<b>\(String(cString: escapedTitle))</b>\n\n\(String(cString: escapedMessage))")
        g_free(escapedTitle)
        g_free(escapedMessage)
        gtk_label_set_line_wrap(gcast(label), 1)
        gtk_label_set_max_width_chars(gcast(label), 40)
        gtk_widget_set_margin_start(label, 18)
        gtk_widget_set_margin_end(label, 18)
        gtk_widget_set_margin_top(label, 18)
        gtk_widget_set_margin_bottom(label, 12)
        gtk_container_add(gcast(gtk_dialog_get_content_area(gcast(dialog))), label)
        gtk_dialog_add_button(gcast(dialog), button, GTK_RESPONSE_OK.rawValue)
        Signal.connect(UnsafeMutableRawPointer(dialog), "response", enumValue: { _ in gtk_widget_destroy(dialog) })
        Toolkit.setTextDirection(of: dialog, rightToLeft: rightToLeft)
        gtk_widget_show_all(dialog)
    }
}
