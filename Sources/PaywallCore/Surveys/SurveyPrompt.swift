/// A survey as the host draws it: every text resolved (the config's, and the runtime's own in
/// the page's language), in the order shown. The host answers with a `SurveyAnswer`.
package struct SurveyPrompt: Equatable, Sendable {
    /// The free-text answer: its option's title, the field's placeholder, the submit button.
    package struct Other: Equatable, Sendable {
        package var title: String
        package var placeholder: String
        package var submit: String
    }

    package var title: String
    package var message: String
    package var options: [PaywallSurvey.Option]
    /// Nil without a free-text answer.
    package var other: Other?
    /// The close option's title; nil without one (the dialog's own close still dismisses it).
    package var close: String?

    package init(_ survey: PaywallSurvey, strings: StringTable?) {
        title = survey.title
        message = survey.message
        options = survey.options
        let text = { (key: String) in strings?.text(key) ?? key }
        if survey.includeOther {
            other = Other(
                title: text("survey.other_option"), placeholder: text("survey.other_placeholder"), submit: text("survey.submit"))
        }
        close = survey.includeClose ? text("survey.close") : nil
    }
}
