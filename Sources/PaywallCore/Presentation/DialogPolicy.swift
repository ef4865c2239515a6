/// What the runtime does with its own dialogs (a purchase pending, failed or unavailable; a
/// restore that found nothing or failed): show them until the user answers (`show`), or answer
/// them at once with their default button, their only one, OK (`auto`: scripted runs, which
/// cannot click a GTK dialog). Either way each is reported as `dialog_shown`.
package enum DialogPolicy: String, Sendable, CaseIterable {
    case show
    case auto

    /// The answer `auto` gives: the dialogs' default (and only) button.
    package static let defaultAnswer = "ok"
}
