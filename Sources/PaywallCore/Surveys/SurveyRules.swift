/// When a paywall's survey is asked (Superwall's rules): only after the close its trigger
/// names, only to a user not yet assigned its `assignmentKey`, and only to the drawn share of
/// them. The assignment is recorded before the draw, so a user held out is not drawn again:
/// the probability is the share of users asked, not of closes.
package enum SurveyRules {
    /// What a presentation's end counts as: a purchase (`onPurchase`), the user's own close
    /// without buying (`onManualClose`), or neither (a restore; the app's or a timeout's close).
    package static func trigger(for result: PresentationResult, closedByUser: Bool) -> PaywallSurvey.Trigger? {
        switch result {
        case .purchased: .onPurchase
        case .declined where closedByUser: .onManualClose
        default: nil
        }
    }

    /// Whether `survey` is asked now that the presentation ended as `trigger` says. Claims the
    /// user's assignment in `state` (across processes); without a state, or when it cannot be
    /// written, the survey is not asked: it could not be kept to once.
    ///
    /// - Parameter draw: a number in 0..<1 (random; fixed in tests).
    package static func shouldAsk(
        _ survey: PaywallSurvey, after trigger: PaywallSurvey.Trigger?, user: String,
        state: RuntimeState?, draw: () -> Double
    ) -> Bool {
        guard trigger == survey.trigger, let state,
            (try? state.claimSurveyAssignment(survey.assignmentKey, user: user)) == true
        else { return false }
        return draw() < survey.presentationProbability
    }

    /// The draw outside tests.
    package static func randomDraw() -> Double {
        Double.random(in: 0..<1)
    }
}
