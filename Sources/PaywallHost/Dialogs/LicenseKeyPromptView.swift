import CGtk
import Foundation
import PaywallCore

/// What a paywall (or the customer center) turns into while a license key is asked for: an
/// opaque panel over the page with the form's title and message, the previous attempt's
/// problem, the key field, Activate, "Open checkout again" and Cancel. Enter activates,
/// Escape cancels; while the key is checked a spinner replaces the buttons. The texts come
/// from the core's `LicenseKeyForm`; this only lays them out and hands back what was typed.
@MainActor
final class LicenseKeyPromptView {
    private let widgetRef: GObjectReference<GtkWidget>
    private let titleRef: GObjectReference<GtkWidget>
    private let messageRef: GObjectReference<GtkWidget>
    private let problemRef: GObjectReference<GtkWidget>
    private let fieldLabelRef: GObjectReference<GtkWidget>
    private let entryRef: GObjectReference<GtkWidget>
    private let activateRef: GObjectReference<GtkWidget>
    private let checkoutRef: GObjectReference<GtkWidget>
    private let cancelRef: GObjectReference<GtkWidget>
    private let buttonsRef: GObjectReference<GtkWidget>
    private let workingRef: GObjectReference<GtkWidget>
    private let spinnerRef: GObjectReference<GtkWidget>
    private let workingLabelRef: GObjectReference<GtkWidget>
    private var answer: (@MainActor (String?) -> Void)?
    private var checkoutURL: URL?
    /// Opens "Open checkout again"'s URL (the host's `ExternalOpener`).
    private let openURL: @MainActor (URL) -> Void

    /// The panel, to lay over the page (or into a window of its own).
    var widget: UnsafeMutablePointer<GtkWidget> { widgetRef.pointer }
    private var entry: UnsafeMutablePointer<GtkWidget> { entryRef.pointer }

    /// The longest key the field takes: keys are about 36 characters; a paste of a whole email is not a key.
    static let maxKeyLength: gint = 256

    private static let css = """
        .paywall-license { background-color: @theme_bg_color; }
        .paywall-license-title { font-size: 1.4em; font-weight: bold; }
        .paywall-license-problem { color: mix(@error_color, @theme_fg_color, 0.3); font-weight: bold; }
        """

    init(openURL: @escaping @MainActor (URL) -> Void) {
        self.openURL = openURL
        let panel = gtk_event_box_new()!
        widgetRef = GObjectReference(panel)
        titleRef = GObjectReference(Self.label())
        messageRef = GObjectReference(Self.label())
        problemRef = GObjectReference(Self.label())
        fieldLabelRef = GObjectReference(Self.label())
        entryRef = GObjectReference(gtk_entry_new()!)
        activateRef = GObjectReference(gtk_button_new_with_label("")!)
        checkoutRef = GObjectReference(gtk_button_new_with_label("")!)
        cancelRef = GObjectReference(gtk_button_new_with_label("")!)
        buttonsRef = GObjectReference(gtk_box_new(GTK_ORIENTATION_VERTICAL, 8)!)
        workingRef = GObjectReference(gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 10)!)
        spinnerRef = GObjectReference(gtk_spinner_new()!)
        workingLabelRef = GObjectReference(Self.label())
        build()
    }

    private func build() {
        Toolkit.addStyle(Self.css)
        for (widget, style) in [
            (widget, "paywall-license"), (titleRef.pointer, "paywall-license-title"),
            (problemRef.pointer, "paywall-license-problem"), (activateRef.pointer, "suggested-action"),
        ] {
            gtk_style_context_add_class(gtk_widget_get_style_context(widget), style)
        }
        gtk_widget_set_name(widget, "license-key-prompt")
        gtk_label_set_mnemonic_widget(gcast(fieldLabelRef.pointer), entry)
        gtk_entry_set_max_length(gcast(entry), Self.maxKeyLength)
        gtk_entry_set_activates_default(gcast(entry), 0)
        gtk_entry_set_input_hints(gcast(entry), GTK_INPUT_HINT_NO_SPELLCHECK)
        gtk_widget_set_hexpand(entry, 1)
        for button in [checkoutRef.pointer, cancelRef.pointer] {
            gtk_button_set_relief(gcast(button), GTK_RELIEF_NONE)
        }
        let buttons = buttonsRef.pointer
        for button in [activateRef.pointer, checkoutRef.pointer, cancelRef.pointer] { gtk_container_add(gcast(buttons), button) }
        let working = workingRef.pointer
        gtk_widget_set_halign(working, GTK_ALIGN_CENTER)
        gtk_widget_set_size_request(spinnerRef.pointer, 24, 24)
        gtk_container_add(gcast(working), spinnerRef.pointer)
        gtk_container_add(gcast(working), workingLabelRef.pointer)

        let card = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12)!
        gtk_widget_set_valign(card, GTK_ALIGN_CENTER)
        for side in [gtk_widget_set_margin_start, gtk_widget_set_margin_end] { side(card, 28) }
        for side in [gtk_widget_set_margin_top, gtk_widget_set_margin_bottom] { side(card, 24) }
        let field = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6)!
        gtk_widget_set_margin_top(field, 6)
        gtk_container_add(gcast(field), fieldLabelRef.pointer)
        gtk_container_add(gcast(field), entry)
        for child in [titleRef.pointer, messageRef.pointer, field, problemRef.pointer, buttons, working] {
            gtk_container_add(gcast(card), child)
        }
        gtk_container_add(gcast(widget), card)

        Signal.connect(UnsafeMutableRawPointer(entry), "changed") { [weak self] in self?.textChanged() }
        Signal.connect(UnsafeMutableRawPointer(entry), "activate") { [weak self] in self?.pressActivate() }
        Signal.connect(UnsafeMutableRawPointer(activateRef.pointer), "clicked") { [weak self] in self?.submit() }
        Signal.connect(UnsafeMutableRawPointer(checkoutRef.pointer), "clicked") { [weak self] in self?.openCheckout() }
        Signal.connect(UnsafeMutableRawPointer(cancelRef.pointer), "clicked") { [weak self] in self?.cancel() }
        // Key presses in the field (or on a button) bubble up to the panel: Escape cancels.
        Signal.connect(
            UnsafeMutableRawPointer(widget), "key-press-event",
            stopping: { [weak self] event in
                guard let self, let event, event.assumingMemoryBound(to: GdkEventKey.self).pointee.keyval == guint(GDK_KEY_Escape)
                else { return false }
                self.cancel()
                return true
            })
        gtk_widget_show_all(card)
        gtk_widget_set_no_show_all(widget, 1)  // hidden until asked
    }

    // MARK: Showing

    /// Shows `form` (a fresh ask: the field enabled and focused, the previous key kept and
    /// selected so a typo is fixed in place) and calls `answer` once: the key, or nil for Cancel.
    func show(_ form: LicenseKeyForm, rightToLeft: Bool, answer: @escaping @MainActor (String?) -> Void) {
        self.answer?(nil)  // never two asks waiting on one field
        self.answer = answer
        checkoutURL = form.checkoutAgain?.url
        gtk_label_set_text(gcast(titleRef.pointer), form.title)
        gtk_label_set_text(gcast(messageRef.pointer), form.message)
        gtk_label_set_text(gcast(problemRef.pointer), form.problem ?? "")
        gtk_widget_set_visible(problemRef.pointer, form.problem == nil ? 0 : 1)
        gtk_label_set_text_with_mnemonic(gcast(fieldLabelRef.pointer), form.fieldLabel)
        gtk_button_set_label(gcast(activateRef.pointer), form.activate)
        gtk_button_set_label(gcast(cancelRef.pointer), form.cancel)
        gtk_button_set_label(gcast(checkoutRef.pointer), form.checkoutAgain?.label ?? "")
        gtk_widget_set_visible(checkoutRef.pointer, form.checkoutAgain == nil ? 0 : 1)
        gtk_label_set_text(gcast(workingLabelRef.pointer), form.activating)
        Self.describe(entry, name: form.fieldLabel, description: form.problem)
        Toolkit.setTextDirection(of: widget, rightToLeft: rightToLeft)
        setWorking(false)
        gtk_widget_show(widget)
        gtk_widget_grab_focus(entry)
        gtk_editable_select_region(OpaquePointer(entry), 0, -1)
    }

    /// Takes the panel down; an ask still waiting is answered as cancelled.
    func hide() {
        gtk_spinner_stop(gcast(spinnerRef.pointer))
        gtk_widget_hide(widget)
        finish(nil)
    }

    private func setWorking(_ working: Bool) {
        gtk_widget_set_sensitive(entry, working ? 0 : 1)
        gtk_widget_set_visible(buttonsRef.pointer, working ? 0 : 1)
        gtk_widget_set_visible(workingRef.pointer, working ? 1 : 0)
        if working { gtk_spinner_start(gcast(spinnerRef.pointer)) } else { gtk_spinner_stop(gcast(spinnerRef.pointer)) }
        textChanged()
    }

    // MARK: What the user does (also how tests drive it, through the same widgets)

    /// Types `text` into the key field, replacing what is there.
    func type(_ text: String) {
        gtk_entry_set_text(gcast(entry), text)
    }

    /// Enter in the key field, or a click on Activate: nothing while the field is blank.
    func pressActivate() {
        guard gtk_widget_is_sensitive(activateRef.pointer) != 0, gtk_widget_get_visible(buttonsRef.pointer) != 0 else { return }
        gtk_button_clicked(gcast(activateRef.pointer))
    }

    func pressCancel() {
        gtk_button_clicked(gcast(cancelRef.pointer))
    }

    func pressCheckoutAgain() {
        guard gtk_widget_get_visible(checkoutRef.pointer) != 0 else { return }
        gtk_button_clicked(gcast(checkoutRef.pointer))
    }

    var isShown: Bool { gtk_widget_get_visible(widget) != 0 }
    /// The key is being checked: the spinner is up and the field is locked.
    var isWorking: Bool { gtk_widget_get_visible(workingRef.pointer) != 0 }
    var problemText: String? {
        gtk_widget_get_visible(problemRef.pointer) != 0 ? String(cString: gtk_label_get_text(gcast(problemRef.pointer))) : nil
    }
    var titleText: String { String(cString: gtk_label_get_text(gcast(titleRef.pointer))) }
    var keyFieldHasFocus: Bool { gtk_widget_has_focus(entry) != 0 }
    /// The key field's name for screen readers.
    var keyFieldAccessibleName: String? {
        atk_object_get_name(gtk_widget_get_accessible(entry)).map { String(cString: $0) }
    }

    // MARK: Answers

    private var typedKey: String {
        String(cString: gtk_entry_get_text(gcast(entry))).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func textChanged() {
        gtk_widget_set_sensitive(activateRef.pointer, typedKey.isEmpty ? 0 : 1)
    }

    private func submit() {
        let key = typedKey
        guard !key.isEmpty, answer != nil else { return }
        setWorking(true)
        finish(key)
    }

    private func cancel() {
        gtk_widget_hide(widget)
        finish(nil)
    }

    private func openCheckout() {
        if let checkoutURL { openURL(checkoutURL) }
    }

    private func finish(_ key: String?) {
        guard let answer else { return }
        self.answer = nil
        answer(key)
    }

    // MARK: Widgets

    private static func label() -> UnsafeMutablePointer<GtkWidget> {
        let label = gtk_label_new(nil)!
        gtk_label_set_line_wrap(gcast(label), 1)
        gtk_label_set_max_width_chars(gcast(label), 40)
        gtk_label_set_xalign(gcast(label), 0)
        return label
    }

    /// The field's name and, after a failed attempt, its description for screen readers.
    private static func describe(_ widget: UnsafeMutablePointer<GtkWidget>, name: String, description: String?) {
        guard let accessible = gtk_widget_get_accessible(widget) else { return }
        atk_object_set_name(accessible, name)
        atk_object_set_description(accessible, description ?? "")
    }
}
