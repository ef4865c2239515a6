import Foundation

/// What the customer center needs from the toolkit hosting its page. The GTK/WebKit host
/// implements it; tests implement it without a display.
@MainActor
public protocol CustomerCenterPage: AnyObject {
    /// Runs a script in the page.
    func evaluate(_ script: String)
    /// Hands a URL to the system's browser.
    func openExternally(_ url: URL)
    /// Opens a web page in the runtime's browser window.
    func openInAppBrowser(_ url: URL)
    /// Opens a `mailto:` URL in the user's mail app; false when no mail app is set up.
    func openMail(_ url: URL) -> Bool
    func copyToClipboard(_ text: String)
    /// Takes the customer center off screen.
    func dismiss()
}
