import Foundation

extension PaywallSession {
    /// Ends the presentation with `result`, asking the paywall's survey first when
    /// `SurveyRules` say so: `paywall_close` then follows its `survey_response` or
    /// `survey_close`, and the result stays `result` whatever the answer. Under
    /// `DialogPolicy.auto` the survey is closed unanswered at once without being shown.
    ///
    /// - Parameter closedByUser: the user closed the paywall (its page's close or its window's).
    func finishAfterSurvey(_ result: PresentationResult, closedByUser: Bool) {
        guard self.result == nil, surveyPending == nil else { return }
        guard let survey, let page,
            SurveyRules.shouldAsk(
                survey, after: SurveyRules.trigger(for: result, closedByUser: closedByUser),
                user: templateContext?.currentUser ?? Purchases.anonymousUser,
                state: templateContext?.state, draw: surveyDraw)
        else { return finish(result) }
        surveyPending = result
        if dialogs == .auto { return surveyAnswered(.dismissed, auto: true) }
        page.showSurvey(SurveyPrompt(survey, strings: strings)) { [weak self] answer in
            self?.surveyAnswered(answer, auto: false)
        }
    }

    /// Reports how the survey was left (once; the host's later calls do nothing), then ends
    /// the presentation with the result it was asked before.
    func surveyAnswered(_ answer: SurveyAnswer, auto: Bool) {
        guard let pending = surveyPending, let survey else { return }
        surveyPending = nil
        var params: [String: JSONValue] = [
            "survey_id": .string(survey.id), "assignment_key": .string(survey.assignmentKey),
            "trigger": .string(survey.trigger.rawValue),
        ]
        let prompt = SurveyPrompt(survey, strings: strings)
        let chosen: (id: String, title: String, text: String?)?
        switch answer {
        case .option(let id): chosen = prompt.options.first { $0.id == id }.map { ($0.id, $0.title, nil) }
        case .other(let text):
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            chosen = prompt.other.flatMap { trimmed.isEmpty ? nil : (PaywallSurvey.otherOptionId, $0.title, trimmed) }
        case .dismissed: chosen = nil
        }
        if let chosen {
            params["option_id"] = .string(chosen.id)
            params["option_title"] = .string(chosen.title)
            params["custom_text"] = chosen.text.map(JSONValue.string) ?? .null
            channel.emit(.surveyResponse, params)
            delegate?.handleSurveyResponse(
                SurveyResponse(
                    paywallId: paywallId, surveyId: survey.id, assignmentKey: survey.assignmentKey, optionId: chosen.id,
                    optionTitle: chosen.title, customText: chosen.text))
        } else {
            params["auto_answered"] = .bool(auto)
            channel.emit(.surveyClose, params)
        }
        finish(pending)
    }
}
