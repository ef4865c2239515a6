import Foundation

/// What a presentation needs from the UI toolkit hosting the page. The GTK/WebKit host
/// implements it; tests can implement it without a display.
@MainActor
public protocol PaywallPage: AnyObject {
    /// Runs a script in the page's main frame.
    func evaluate(_ script: String)
    /// Hands a URL to the system (browser, mail client).
    func openExternally(_ url: URL)
    /// Takes the paywall off screen.
    func dismiss()
    /// Shows or hides a progress overlay drawn by the host over the page (the page cannot be
    /// trusted to show one while a purchase or restore runs).
    func showProgress(_ visible: Bool)
    /// Tells the user something in a dialog of the host's.
    func showAlert(title: String, message: String)
    /// Opens a web page in a browser window of the host's (`open_url`).
    func openInAppBrowser(_ url: URL)
    /// Shows the host's placeholder while the page loads, Retry and Close when it is slow, or nothing.
    func showLoading(_ state: LoadingState)
    /// Replaces the page with the runtime's fallback paywall (the bundle could not load).
    func showFallback()
    /// Shows a desktop notification after `delay` seconds; false when the desktop has no
    /// notification service the host can reach.
    func scheduleNotification(title: String, subtitle: String?, body: String, delay: Double) -> Bool
}

/// What the host draws over a page that is not ready yet.
public enum LoadingState: Equatable, Sendable {
    case hidden
    case loading
    /// The load is taking longer than the timeout: the user may retry or close.
    case slow
}
