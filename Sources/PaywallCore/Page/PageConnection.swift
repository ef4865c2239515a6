/// What a web view hosting a runtime page reports: the page's raw messages, its load
/// progress, the navigations it starts and the user's input on it. `PageChannel` implements
/// it, for paywalls and the customer center alike, so one web view type hosts both.
@MainActor
package protocol PageConnection: AnyObject {
    /// The raw text the page posted to `paywallMessageHandler`.
    func receive(_ text: String)
    func loadStarted(url: String)
    func loadFinished(url: String)
    func loadFailed(url: String, reason: String)
    /// The ping grace period after a finished load ran out.
    func pingGraceElapsed()
    func webProcessTerminated(reason: String)
    /// Whether the view may load `url`; otherwise the channel handed it to the system or blocked it.
    func shouldAllowNavigation(to url: String, bundleHost: String, newWindow: Bool) -> Bool
    /// The user clicked or pressed a key in the view: what a page does next may need a user's gesture.
    func userInput()
}
