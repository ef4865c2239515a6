/// What the app hosting the runtime does with page messages only it can act on. Every method
/// has a default, so an app implements only what it uses.
@MainActor
public protocol PaywallDelegate: AnyObject {
    /// The page's `open_deep_link`: route the app to `link`.
    func handleDeepLink(_ link: String)
    /// The page's `custom` message.
    func handleCustom(_ data: String)
    /// The page's `custom_placement`: the app may register or present another placement.
    func handleCustomPlacement(name: String, params: [String: JSONValue])
    /// The page's `request_callback`: answer with data for the page (`callback_result`).
    func handleCallback(name: String, variables: [String: JSONValue]?) async -> CallbackResult
    /// The page's `request_store_review`. Linux has no app-store review prompt; an app may open
    /// its own review page (Flathub, its website).
    func handleStoreReviewRequest(reviewType: String)
    /// The user answered the paywall's survey (also reported as `survey_response`); a survey
    /// closed unanswered is only reported, as `survey_close`.
    func handleSurveyResponse(_ response: SurveyResponse)
}

/// An app's answer to a page's `request_callback`.
public enum CallbackResult: Equatable, Sendable {
    case success([String: JSONValue]?)
    case failure
}

extension PaywallDelegate {
    public func handleDeepLink(_ link: String) {}
    public func handleCustom(_ data: String) {}
    public func handleCustomPlacement(name: String, params: [String: JSONValue]) {}
    public func handleCallback(name: String, variables: [String: JSONValue]?) async -> CallbackResult { .failure }
    public func handleStoreReviewRequest(reviewType: String) {}
    public func handleSurveyResponse(_ response: SurveyResponse) {}
}
