import Foundation

@testable import PaywallCore

/// A page without a display, for paywalls and the customer center alike: records what the
/// session asks of it.
@MainActor
final class RecordingPageSurface: PageSurface {
    /// Every script run in the page, in order.
    var evaluated: [String] = []
    var openedExternally: [URL] = []
    /// Pages opened in the runtime's browser window.
    var browsed: [URL] = []
    var mails: [URL] = []
    /// What `openMail` answers (whether a mail app is set up).
    var mailAppAvailable = true
    var copied: [String] = []
    var dismissCount = 0
    /// Every showProgress call, in order.
    var progress: [Bool] = []
    var alerts: [(title: String, message: String)] = []
    /// Surveys asked, with the function that answers each.
    var surveys: [(prompt: SurveyPrompt, answer: @MainActor (SurveyAnswer) -> Void)] = []
    var notifications: [(title: String, body: String, delay: Double)] = []
    /// Whether `scheduleNotification` finds a notification service.
    var canNotify = true
    /// Every loading state the session asked for, in order.
    var loading: [LoadingState] = []
    var fallbacks = 0

    func evaluate(_ script: String) { evaluated.append(script) }
    func openExternally(_ url: URL) { openedExternally.append(url) }
    func openInAppBrowser(_ url: URL) { browsed.append(url) }
    func openMail(_ url: URL) -> Bool {
        mails.append(url)
        return mailAppAvailable
    }
    func copyToClipboard(_ text: String) { copied.append(text) }
    func dismiss() { dismissCount += 1 }
    func showProgress(_ visible: Bool) { progress.append(visible) }
    func showAlert(title: String, message: String) { alerts.append((title, message)) }
    func showSurvey(_ prompt: SurveyPrompt, answer: @escaping @MainActor (SurveyAnswer) -> Void) {
        surveys.append((prompt, answer))
    }
    func showLoading(_ state: LoadingState) { loading.append(state) }
    func showFallback() { fallbacks += 1 }
    func scheduleNotification(title: String, subtitle: String?, body: String, delay: Double) -> Bool {
        if canNotify { notifications.append((title, body, delay)) }
        return canNotify
    }

    /// The events delivered through `accept64('BASE64')`, decoded back to JSON.
    var deliveredEvents: [JSONValue] {
        evaluated.flatMap { script -> [JSONValue] in
            guard let start = script.range(of: "accept64('"),
                let end = script[start.upperBound...].firstIndex(of: "'"),
                let data = Data(base64Encoded: String(script[start.upperBound..<end])),
                let array = try? JSONValue(parsing: String(decoding: data, as: UTF8.self)).arrayValue
            else { return [] }
            return array
        }
    }

    /// The customer center's screen models sent so far, oldest first.
    var models: [JSONValue] {
        deliveredEvents.filter { $0["event_name"] == "customer_center_screen" }.compactMap { $0["model"] }
    }

    var lastModel: JSONValue? { models.last }
}
