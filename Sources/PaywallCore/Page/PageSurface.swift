import Foundation

/// What a runtime page (a paywall or the customer center) needs from the toolkit showing
/// it. The GTK/WebKit host implements it once for both pages; tests implement it without a
/// display.
@MainActor
package protocol PageSurface: AnyObject {
    /// Runs a script in the page's main frame.
    func evaluate(_ script: String)
    /// Hands a URL to the system (browser, mail client).
    func openExternally(_ url: URL)
    /// Opens a web page in a browser window of the host's (`open_url`).
    func openInAppBrowser(_ url: URL)
    /// Opens a `mailto:` URL in the user's mail app; false when no mail app is set up.
    func openMail(_ url: URL) -> Bool
    func copyToClipboard(_ text: String)
    /// Shows or hides a progress overlay drawn by the host over the page (the page cannot be
    /// trusted to show one while a purchase or restore runs).
    func showProgress(_ visible: Bool)
    /// Shows the host's placeholder while the page loads, Retry and Close when it is slow, or nothing.
    func showLoading(_ state: LoadingState)
    /// Replaces the page with the runtime's fallback paywall (the bundle could not load).
    func showFallback()
    /// Tells the user something in a dialog of the host's.
    func showAlert(title: String, message: String)
    /// Asks a paywall's survey in a dialog of the host's, modal over the page; calls `answer`
    /// once, with how the user left it.
    func showSurvey(_ prompt: SurveyPrompt, answer: @escaping @MainActor (SurveyAnswer) -> Void)
    /// Shows a desktop notification after `delay` seconds; false when the desktop has no
    /// notification service the host can reach.
    func scheduleNotification(title: String, subtitle: String?, body: String, delay: Double) -> Bool
    /// Takes the page off screen.
    func dismiss()
}

/// What the host draws over a page that is not ready yet.
package enum LoadingState: Equatable, Sendable {
    case hidden
    case loading
    /// The load is taking longer than the timeout: the user may retry or close.
    case slow
}
