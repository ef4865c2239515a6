/// A survey a paywall's config entry attaches (Superwall's paywall survey): asked in a dialog
/// over the paywall when the user closes it without buying (`onManualClose`) or after a
/// purchase (`onPurchase`), to a share of users (`presentationProbability`), and at most once
/// per user per `assignmentKey`. `SurveyRules` decides when; the config's JSON shape is in
/// `PaywallSurvey(json:path:)`.
public struct PaywallSurvey: Equatable, Sendable {
    /// When the survey is asked.
    public enum Trigger: String, Equatable, Sendable, CaseIterable {
        /// The user closed the paywall (its page's close, its window's close) without buying.
        case onManualClose = "on_manual_close"
        /// The paywall ended with a purchase.
        case onPurchase = "on_purchase"
    }

    /// One answer the user can pick.
    public struct Option: Equatable, Sendable {
        public var id: String
        public var title: String

        public init(id: String, title: String) {
            self.id = id
            self.title = title
        }
    }

    /// Reported as `survey_id`.
    public var id: String
    /// A user is asked (or held out) once per key; a new key asks everyone again.
    public var assignmentKey: String
    public var title: String
    public var message: String
    public var trigger: Trigger
    /// The share of users asked, from 0 (nobody) to 1 (everybody); the rest are held out.
    public var presentationProbability: Double
    public var options: [Option]
    /// Adds an "Other" answer with a free-text field (reported with `option_id` `other`).
    public var includeOther: Bool
    /// Adds a "Close" answer that dismisses the survey unanswered (`survey_close`).
    public var includeClose: Bool

    /// The option id of the free-text "Other" answer; config options may not use it.
    package static let otherOptionId = "other"
    /// The most options a survey may list: more would not fit one dialog on a laptop screen.
    package static let maxOptions = 10

    public init(
        id: String, assignmentKey: String, title: String, message: String = "", trigger: Trigger,
        presentationProbability: Double, options: [Option], includeOther: Bool = false, includeClose: Bool = false
    ) {
        self.id = id
        self.assignmentKey = assignmentKey
        self.title = title
        self.message = message
        self.trigger = trigger
        self.presentationProbability = presentationProbability
        self.options = options
        self.includeOther = includeOther
        self.includeClose = includeClose
    }
}
