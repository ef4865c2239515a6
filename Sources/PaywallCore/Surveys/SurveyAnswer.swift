/// How the user left a paywall's survey.
public enum SurveyAnswer: Equatable, Sendable {
    /// Picked the option of this id.
    case option(id: String)
    /// Picked "Other" and wrote `text`.
    case other(text: String)
    /// Closed it unanswered: its close option, the dialog's close, Escape.
    case dismissed
}

/// A survey's answer, as the app's `PaywallDelegate.handleSurveyResponse` receives it (the
/// same fields as the `survey_response` event).
public struct SurveyResponse: Equatable, Sendable {
    public var paywallId: String
    public var surveyId: String
    public var assignmentKey: String
    /// The option picked; `PaywallSurvey.otherOptionId` for the free-text answer.
    public var optionId: String
    /// The option's title as shown (the localized "Other" for the free-text answer).
    public var optionTitle: String
    /// What the user wrote under "Other"; nil for the other options.
    public var customText: String?

    package init(
        paywallId: String, surveyId: String, assignmentKey: String, optionId: String, optionTitle: String,
        customText: String?
    ) {
        self.paywallId = paywallId
        self.surveyId = surveyId
        self.assignmentKey = assignmentKey
        self.optionId = optionId
        self.optionTitle = optionTitle
        self.customText = customText
    }
}
