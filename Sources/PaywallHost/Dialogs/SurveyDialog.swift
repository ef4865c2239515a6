import CGtk
import PaywallCore

/// A paywall's survey, modal over its window: the title and message, the options as a boxed
/// list (one click answers), an optional "Other" row that opens a text field with a submit
/// button, and an optional close button. Closing the dialog (its close button, Escape) leaves
/// it unanswered. Like `AlertDialog` it does not block the main loop.
@MainActor
final class SurveyDialog {
    /// The dialog's window; held so a late answer never touches freed memory.
    private let dialogRef: GObjectReference<GtkWidget>
    private let listRef: GObjectReference<GtkWidget>
    private var otherRef: OtherField?
    /// The option id of each row, in order; nil for the "Other" row.
    private var rowOptions: [String?] = []
    private var answer: (@MainActor (SurveyAnswer) -> Void)?

    var window: UnsafeMutablePointer<GtkWidget> { dialogRef.pointer }

    /// The longest free-text answer, in characters.
    static let maxOtherLength: gint = 500

    /// Shows `prompt` over `parent` (centred without one) and calls `answer` once.
    init(
        _ prompt: SurveyPrompt, parent: UnsafeMutablePointer<GtkWidget>?, rightToLeft: Bool,
        answer: @escaping @MainActor (SurveyAnswer) -> Void
    ) {
        self.answer = answer
        let dialog = gtk_dialog_new()!
        dialogRef = GObjectReference(dialog)
        gtk_window_set_title(gcast(dialog), prompt.title)
        if let parent {
            gtk_window_set_transient_for(gcast(dialog), gcast(parent))
            gtk_window_set_position(gcast(dialog), GTK_WIN_POS_CENTER_ON_PARENT)
        } else {
            gtk_window_set_position(gcast(dialog), GTK_WIN_POS_CENTER)
        }
        gtk_window_set_modal(gcast(dialog), 1)
        // It belongs to the paywall: when the paywall goes, so does its survey.
        gtk_window_set_destroy_with_parent(gcast(dialog), 1)
        gtk_window_set_resizable(gcast(dialog), 0)

        let content = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12)!
        for side in [gtk_widget_set_margin_start, gtk_widget_set_margin_end, gtk_widget_set_margin_top] { side(content, 18) }
        gtk_widget_set_margin_bottom(content, 12)
        content.addLabel(markup: "<b>\(Self.escaped(prompt.title))</b>")
        if !prompt.message.isEmpty { content.addLabel(markup: Self.escaped(prompt.message)) }

        let list = gtk_list_box_new()!
        listRef = GObjectReference(list)
        gtk_list_box_set_selection_mode(gcast(list), GTK_SELECTION_NONE)
        gtk_list_box_set_activate_on_single_click(gcast(list), 1)
        for option in prompt.options {
            gtk_container_add(gcast(list), Self.row(option.title))
            rowOptions.append(option.id)
        }
        if let other = prompt.other {
            gtk_container_add(gcast(list), Self.row(other.title))
            rowOptions.append(nil)
            otherRef = OtherField(other)
        }
        let frame = gtk_frame_new(nil)!
        gtk_container_add(gcast(frame), list)
        gtk_container_add(gcast(content), frame)
        if let otherRef { gtk_container_add(gcast(content), otherRef.revealer.pointer) }
        gtk_container_add(gcast(gtk_dialog_get_content_area(gcast(dialog))), content)
        if let close = prompt.close {
            gtk_dialog_add_button(gcast(dialog), close, GTK_RESPONSE_CLOSE.rawValue)
        }

        Signal.connect(
            UnsafeMutableRawPointer(list), "row-activated",
            pointer: { [weak self] row in
                self?.activated(row)
            })
        if let otherRef {
            Signal.connect(UnsafeMutableRawPointer(otherRef.entry.pointer), "changed") { [weak self] in self?.textChanged() }
            Signal.connect(UnsafeMutableRawPointer(otherRef.entry.pointer), "activate") { [weak self] in self?.submitOther() }
            Signal.connect(UnsafeMutableRawPointer(otherRef.submit.pointer), "clicked") { [weak self] in self?.submitOther() }
        }
        // The close button, Escape and the window's close all arrive here; an answer destroys
        // the dialog itself, and a dialog destroyed with the paywall was cut short.
        Signal.connect(UnsafeMutableRawPointer(dialog), "response", enumValue: { [weak self] _ in self?.end(.dismissed) })
        Signal.connect(UnsafeMutableRawPointer(dialog), "destroy") { [weak self] in self?.end(.dismissed) }
        Toolkit.setTextDirection(of: dialog, rightToLeft: rightToLeft)
        gtk_widget_show_all(dialog)
        if let otherRef { gtk_widget_set_sensitive(otherRef.submit.pointer, 0) }
    }

    // MARK: What the user does (also how tests drive it, through the same widgets)

    /// Activates the row of option `id` (`nil`: the "Other" row), as a click on it would.
    func activateRow(option id: String?) {
        guard let index = rowOptions.firstIndex(of: id),
            let row = gtk_list_box_get_row_at_index(gcast(listRef.pointer), gint(index))
        else { return }
        gtk_widget_activate(gcast(row as UnsafeMutablePointer<GtkListBoxRow>))
    }

    /// Types `text` into the "Other" field.
    func type(_ text: String) {
        guard let otherRef else { return }
        gtk_entry_set_text(gcast(otherRef.entry.pointer), text)
    }

    /// Clicks the "Other" field's submit button (nothing happens while it is insensitive).
    func clickSubmit() {
        guard let otherRef, gtk_widget_is_sensitive(otherRef.submit.pointer) != 0 else { return }
        gtk_button_clicked(gcast(otherRef.submit.pointer))
    }

    /// Whether the "Other" field is shown.
    var showsOtherField: Bool {
        otherRef.map { gtk_revealer_get_reveal_child(gcast($0.revealer.pointer)) != 0 } ?? false
    }

    // MARK: Answers

    private func activated(_ row: UnsafeMutableRawPointer?) {
        guard let row else { return }
        let index = Int(gtk_list_box_row_get_index(gcast(row)))
        guard rowOptions.indices.contains(index) else { return }
        if let id = rowOptions[index] { return end(.option(id: id)) }
        guard let otherRef else { return }
        gtk_revealer_set_reveal_child(gcast(otherRef.revealer.pointer), 1)
        gtk_widget_grab_focus(otherRef.entry.pointer)
    }

    private var otherText: String {
        otherRef.map { String(cString: gtk_entry_get_text(gcast($0.entry.pointer))) } ?? ""
    }

    private func textChanged() {
        guard let otherRef else { return }
        let blank = otherText.allSatisfy(\.isWhitespace)
        gtk_widget_set_sensitive(otherRef.submit.pointer, blank ? 0 : 1)
    }

    private func submitOther() {
        guard !otherText.allSatisfy(\.isWhitespace) else { return }
        end(.other(text: otherText))
    }

    /// Answers once and takes the dialog down.
    private func end(_ result: SurveyAnswer) {
        guard let answer else { return }
        self.answer = nil
        answer(result)
        gtk_widget_destroy(window)
    }

    // MARK: Widgets

    private static func escaped(_ text: String) -> String {
        let escaped = g_markup_escape_text(text, -1)!
        defer { g_free(escaped) }
        return String(cString: escaped)
    }

    /// A list row with `title`, aligned to the start of the line (right in a right-to-left locale).
    private static func row(_ title: String) -> UnsafeMutablePointer<GtkWidget> {
        let label = gtk_label_new(title)!
        gtk_widget_set_halign(label, GTK_ALIGN_START)
        gtk_label_set_line_wrap(gcast(label), 1)
        gtk_label_set_max_width_chars(gcast(label), 40)
        for side in [gtk_widget_set_margin_start, gtk_widget_set_margin_end] { side(label, 12) }
        for side in [gtk_widget_set_margin_top, gtk_widget_set_margin_bottom] { side(label, 10) }
        let row = gtk_list_box_row_new()!
        gtk_container_add(gcast(row), label)
        return row
    }

    /// The "Other" answer's text field and submit button, hidden until its row is activated.
    @MainActor
    private struct OtherField {
        let revealer: GObjectReference<GtkWidget>
        let entry: GObjectReference<GtkWidget>
        let submit: GObjectReference<GtkWidget>

        init(_ other: SurveyPrompt.Other) {
            let entry = gtk_entry_new()!
            gtk_entry_set_placeholder_text(gcast(entry), other.placeholder)
            gtk_entry_set_max_length(gcast(entry), SurveyDialog.maxOtherLength)
            gtk_widget_set_hexpand(entry, 1)
            let submit = gtk_button_new_with_label(other.submit)!
            gtk_style_context_add_class(gtk_widget_get_style_context(submit), "suggested-action")
            let box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
            gtk_container_add(gcast(box), entry)
            gtk_container_add(gcast(box), submit)
            let revealer = gtk_revealer_new()!
            gtk_container_add(gcast(revealer), box)
            (self.revealer, self.entry, self.submit) = (
                GObjectReference(revealer), GObjectReference(entry), GObjectReference(submit)
            )
        }
    }
}

extension UnsafeMutablePointer<GtkWidget> {
    /// Adds a wrapping label with `markup`, aligned to the start of the line.
    @MainActor
    fileprivate func addLabel(markup: String) {
        let label = gtk_label_new(nil)!
        gtk_label_set_markup(gcast(label), markup)
        gtk_label_set_line_wrap(gcast(label), 1)
        gtk_label_set_max_width_chars(gcast(label), 40)
        gtk_label_set_xalign(gcast(label), 0)
        gtk_container_add(gcast(self), label)
    }
}
