import CGtk

/// A layer the host draws over the page, never trusting the page to: a spinner card while a
/// purchase or restore runs or the page loads, and for a slow load a message with Retry and
/// Close.
@MainActor
final class StatusOverlay {
    // Held, not borrowed: the page may ask to hide the overlay after its window is gone.
    private let widgetRef: GObjectReference<GtkWidget>
    private let spinnerRef: GObjectReference<GtkWidget>
    private let labelRef: GObjectReference<GtkWidget>
    private let buttonsRef: GObjectReference<GtkWidget>
    var widget: UnsafeMutablePointer<GtkWidget> { widgetRef.pointer }
    private var spinner: UnsafeMutablePointer<GtkWidget> { spinnerRef.pointer }
    private var label: UnsafeMutablePointer<GtkWidget> { labelRef.pointer }
    private var buttons: UnsafeMutablePointer<GtkWidget> { buttonsRef.pointer }

    private static let css = """
        .paywall-progress { background-color: rgba(0, 0, 0, 0.45); }
        .paywall-progress-card { background-color: rgba(28, 28, 30, 0.92); border-radius: 14px; padding: 22px 28px; }
        .paywall-progress-card > label { color: #ffffff; font-weight: bold; }
        .paywall-progress-card spinner { color: #ffffff; }
        """

    /// - Parameters: `retry` and `close` run when the slow-load buttons are pressed.
    init(retryLabel: String, closeLabel: String, retry: @escaping @MainActor () -> Void, close: @escaping @MainActor () -> Void) {
        widgetRef = GObjectReference(gtk_event_box_new())
        spinnerRef = GObjectReference(gtk_spinner_new())
        labelRef = GObjectReference(gtk_label_new(nil))
        buttonsRef = GObjectReference(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8))
        let card = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12)!
        gtk_widget_set_halign(card, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(card, GTK_ALIGN_CENTER)
        gtk_widget_set_size_request(spinner, 40, 40)
        gtk_label_set_line_wrap(gcast(label), 1)
        gtk_label_set_max_width_chars(gcast(label), 28)
        gtk_label_set_justify(gcast(label), GTK_JUSTIFY_CENTER)
        for (text, action, name) in [(retryLabel, retry, "retry"), (closeLabel, close, "close")] {
            let button = gtk_button_new_with_label(text)!
            gtk_widget_set_name(button, name)
            Signal.connect(UnsafeMutableRawPointer(button), "clicked", action)
            gtk_container_add(gcast(buttons), button)
        }
        gtk_widget_set_halign(buttons, GTK_ALIGN_CENTER)
        for child in [spinner, label, buttons] { gtk_container_add(gcast(card), child) }
        gtk_container_add(gcast(widget), card)
        Toolkit.addStyle(Self.css)
        gtk_style_context_add_class(gtk_widget_get_style_context(widget), "paywall-progress")
        gtk_style_context_add_class(gtk_widget_get_style_context(card), "paywall-progress-card")
        gtk_widget_show_all(card)
        gtk_widget_set_no_show_all(widget, 1)  // hidden until needed
    }

    /// A spinner with `text`.
    func showWorking(_ text: String) {
        gtk_label_set_text(gcast(label), text)
        gtk_widget_show(spinner)
        gtk_spinner_start(gcast(spinner))
        gtk_widget_hide(buttons)
        gtk_widget_show(widget)
    }

    /// `text` with Retry and Close, no spinner.
    func showStuck(_ text: String) {
        gtk_label_set_text(gcast(label), text)
        gtk_spinner_stop(gcast(spinner))
        gtk_widget_hide(spinner)
        gtk_widget_show(buttons)
        gtk_widget_show(widget)
    }

    func hide() {
        gtk_spinner_stop(gcast(spinner))
        gtk_widget_hide(widget)
    }
}
