import CGtk
import Foundation
import PaywallCore

/// What a paywall (or the customer center) turns into while a license key is asked for: an
/// opaque panel over the page with the form's title and message, the previous attempt's
/// problem, the key field, Activate, "Choose license file…", "Open checkout again" and Cancel.
/// Enter activates, Escape cancels; while the key is checked a spinner replaces the buttons. A
/// signed license comes pasted, from the file chooser, or dropped on the panel (a file or its
/// text); `LicenseText` reads it bounded. The texts come from the core's `LicenseKeyForm`;
/// this only lays them out and hands back what was typed.
@MainActor
final class LicenseKeyPromptView {
    private let widgetRef: GObjectReference<GtkWidget>
    private let titleRef: GObjectReference<GtkWidget>
    private let messageRef: GObjectReference<GtkWidget>
    private let problemRef: GObjectReference<GtkWidget>
    private let fieldLabelRef: GObjectReference<GtkWidget>
    private let entryRef: GObjectReference<GtkWidget>
    private let activateRef: GObjectReference<GtkWidget>
    private let chooseFileRef: GObjectReference<GtkWidget>
    private let checkoutRef: GObjectReference<GtkWidget>
    private let cancelRef: GObjectReference<GtkWidget>
    private let buttonsRef: GObjectReference<GtkWidget>
    private let workingRef: GObjectReference<GtkWidget>
    private let spinnerRef: GObjectReference<GtkWidget>
    private let workingLabelRef: GObjectReference<GtkWidget>
    private var answer: (@MainActor (String?) -> Void)?
    private var checkoutURL: URL?
    private var form: LicenseKeyForm?
    private var strings: StringTable?
    /// The file chooser while it is open (one reference, given back when it answers).
    private(set) var fileChooser: OpaquePointer?
    /// Opens "Open checkout again"'s URL (the host's `ExternalOpener`).
    private let openURL: @MainActor (URL) -> Void

    /// The panel, to lay over the page (or into a window of its own).
    var widget: UnsafeMutablePointer<GtkWidget> { widgetRef.pointer }
    private var entry: UnsafeMutablePointer<GtkWidget> { entryRef.pointer }

    /// The longest text the field takes: a signed license (`LicenseKeyStore.maxLicenseFileBytes`),
    /// so a pasted Keygen license file is never cut short; `LicenseText.answer` refuses a long
    /// text that is no license.
    static let maxKeyLength = gint(LicenseKeyStore.maxLicenseFileBytes)

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
        chooseFileRef = GObjectReference(gtk_button_new_with_label("")!)
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
        for button in [activateRef.pointer, chooseFileRef.pointer, checkoutRef.pointer, cancelRef.pointer] {
            gtk_container_add(gcast(buttons), button)
        }
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
        Signal.connect(UnsafeMutableRawPointer(chooseFileRef.pointer), "clicked") { [weak self] in self?.openFileChooser() }
        Signal.connect(UnsafeMutableRawPointer(checkoutRef.pointer), "clicked") { [weak self] in self?.openCheckout() }
        // Drops land on the whole panel, the field included: a file (text/uri-list) or its text.
        for target in [widget, entry] {
            gtk_drag_dest_set(target, GTK_DEST_DEFAULT_ALL, nil, 0, GDK_ACTION_COPY)
            gtk_drag_dest_add_uri_targets(target)
            gtk_drag_dest_add_text_targets(target)
            Signal.connect(
                UnsafeMutableRawPointer(target), "drag-data-received",
                dataReceived: { [weak self] selection in
                    // The field would insert the text itself: the panel takes it instead.
                    g_signal_stop_emission_by_name(UnsafeMutableRawPointer(target), "drag-data-received")
                    self?.receiveDrop(selection)
                })
        }
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
    /// `strings` is the page's table: its direction, and the words for a file or paste refused.
    func show(_ form: LicenseKeyForm, strings: StringTable, answer: @escaping @MainActor (String?) -> Void) {
        self.answer?(nil)  // never two asks waiting on one field
        self.answer = answer
        self.form = form
        self.strings = strings
        checkoutURL = form.checkoutAgain?.url
        gtk_label_set_text(gcast(titleRef.pointer), form.title)
        gtk_label_set_text(gcast(messageRef.pointer), form.message)
        gtk_label_set_text(gcast(problemRef.pointer), form.problem ?? "")
        gtk_widget_set_visible(problemRef.pointer, form.problem == nil ? 0 : 1)
        gtk_label_set_text_with_mnemonic(gcast(fieldLabelRef.pointer), form.fieldLabel)
        gtk_button_set_label(gcast(activateRef.pointer), form.activate)
        gtk_button_set_label(gcast(chooseFileRef.pointer), form.chooseFile)
        gtk_button_set_label(gcast(cancelRef.pointer), form.cancel)
        gtk_button_set_label(gcast(checkoutRef.pointer), form.checkoutAgain?.label ?? "")
        gtk_widget_set_visible(checkoutRef.pointer, form.checkoutAgain == nil ? 0 : 1)
        gtk_label_set_text(gcast(workingLabelRef.pointer), form.activating)
        Self.describe(entry, name: form.fieldLabel, description: form.problem)
        Toolkit.setTextDirection(of: widget, rightToLeft: strings.isRightToLeft)
        setWorking(false)
        gtk_widget_show(widget)
        gtk_widget_grab_focus(entry)
        gtk_editable_select_region(OpaquePointer(entry), 0, -1)
    }

    /// Takes the panel down; an ask still waiting is answered as cancelled.
    func hide() {
        closeFileChooser()
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

    func pressChooseFile() {
        guard gtk_widget_get_visible(buttonsRef.pointer) != 0 else { return }
        gtk_button_clicked(gcast(chooseFileRef.pointer))
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
    /// What the key field holds.
    var fieldText: String { typedText }
    var keyFieldHasFocus: Bool { gtk_widget_has_focus(entry) != 0 }
    /// The key field's name for screen readers.
    var keyFieldAccessibleName: String? {
        atk_object_get_name(gtk_widget_get_accessible(entry)).map { String(cString: $0) }
    }

    // MARK: Answers

    private var typedText: String { String(cString: gtk_entry_get_text(gcast(entry))) }

    private func textChanged() {
        let blank = typedText.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        gtk_widget_set_sensitive(activateRef.pointer, blank ? 0 : 1)
    }

    /// Activate: what was typed or pasted, as `LicenseText.answer` takes it (a license pasted
    /// over several lines made whole), or the reason it is not taken, in the panel.
    private func submit() {
        guard answer != nil, !typedText.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return }
        do {
            let key = try LicenseText.answer(typedText)
            setWorking(true)
            finish(key)
        } catch {
            showProblem(error)
        }
    }

    /// Takes the license in the file at `path` (chosen or dropped) as the answer, as if its text
    /// had been typed; a file that is too big, not text or unreadable is refused in the panel,
    /// leaving what was typed. (How the chooser and a drop hand over a file; tests call it too.)
    func takeFile(path: String) {
        take { () throws(LicenseText.Problem) in
            try LicenseText.read(path: path, name: URL(fileURLWithPath: path).lastPathComponent)
        }
    }

    /// Takes dropped text (a license or a key) as the answer, as if it had been typed.
    func takeDroppedText(_ text: String) {
        take { () throws(LicenseText.Problem) in try LicenseText.answer(text) }
    }

    private func take(_ read: () throws(LicenseText.Problem) -> String) {
        guard answer != nil, !isWorking else { return }
        do {
            type(try read())
            submit()
        } catch {
            showProblem(error)
        }
    }

    private func showProblem(_ problem: LicenseText.Problem) {
        guard let strings else { return }
        let text = LicenseKeyForm.problem(problem, strings: strings)
        gtk_label_set_text(gcast(problemRef.pointer), text)
        gtk_widget_set_visible(problemRef.pointer, 1)
        Self.describe(entry, name: form?.fieldLabel ?? "", description: text)
    }

    /// A drop: the first `file://` URI of a text/uri-list (a URI of another kind is not a file
    /// here), else the dropped text.
    private func receiveDrop(_ selection: OpaquePointer?) {
        guard let selection else { return }
        if let uris = gtk_selection_data_get_uris(selection) {
            defer { g_strfreev(uris) }
            guard let first = uris[0] else { return }
            var error: UnsafeMutablePointer<GError>?
            guard let path = g_filename_from_uri(first, nil, &error) else {
                g_clear_error(&error)
                return showProblem(.notLicenseFile(name: String(cString: first)))
            }
            defer { g_free(path) }
            return takeFile(path: String(cString: path))
        }
        // GTK hands dropped text over as UTF-8.
        guard let text = gtk_selection_data_get_text(selection) else { return }
        defer { g_free(text) }
        takeDroppedText(String(cString: text))
    }

    // MARK: The file chooser

    /// "Choose license file…": a `GtkFileChooserNative` (the desktop's own chooser, through the
    /// portal inside a Flatpak) over the panel's window, every file shown.
    private func openFileChooser() {
        guard let form, fileChooser == nil else { return }
        let toplevel = gtk_widget_get_toplevel(widget)
        let parent: UnsafeMutablePointer<GtkWindow>? = gtk_widget_is_toplevel(toplevel) != 0 ? gcast(toplevel) : nil
        guard
            let chooser = gtk_file_chooser_native_new(
                form.fileChooserTitle, parent, GTK_FILE_CHOOSER_ACTION_OPEN, form.fileChooserAccept, form.cancel)
        else { return }
        let filter = gtk_file_filter_new()!
        gtk_file_filter_set_name(filter, form.allFiles)
        gtk_file_filter_add_pattern(filter, "*")
        gtk_file_chooser_add_filter(chooser, filter)
        gtk_native_dialog_set_modal(gcast(chooser), 1)
        fileChooser = chooser
        Signal.connect(
            UnsafeMutableRawPointer(chooser), "response",
            enumValue: { [weak self] response in
                guard let self, let fileChooser = self.fileChooser else { return }
                var path: String?
                if Int32(bitPattern: response) == GTK_RESPONSE_ACCEPT.rawValue,
                    let chosen = gtk_file_chooser_get_filename(fileChooser)
                {
                    path = String(cString: chosen)
                    g_free(chosen)
                }
                self.closeFileChooser()
                if let path { self.takeFile(path: path) }
            })
        gtk_native_dialog_show(gcast(chooser))
    }

    private func closeFileChooser() {
        guard let chooser = fileChooser else { return }
        fileChooser = nil
        gtk_native_dialog_destroy(gcast(chooser))
        g_object_unref(UnsafeMutableRawPointer(chooser))
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
