import CGtk
import CWebKit
import PaywallCore

/// WebKit's WebDriver (`WebKitWebDriver`) driving this process, for testers' Selenium scripts
/// (`--automation`). The driver launches the process with `WEBKIT_INSPECTOR_SERVER` set and
/// starts one automation session; that session's request for a browsing context gets the page
/// the process already shows, so a script drives the real page, bridge and store rather than
/// an empty browser view.
@MainActor
package final class WebDriverAutomation {
    /// The name the session reports: a script asks for it as its `browserName` capability.
    package static let browserName = "paywall"

    /// The page to hand the driver when its session asks for one; nil refuses.
    package var page: () -> PaywallWebView? = { nil }
    /// The driver closed the page it was given (`close()`, `quit()`).
    package var onClose: () -> Void = {}
    /// The driver gets the one page; a request for another window is refused.
    private var handedOut = false

    /// Turns automation on for `runtime`'s context (before any view is made).
    init(runtime: WebRuntime) {
        runtime.allowAutomation()
        Signal.connect(
            UnsafeMutableRawPointer(runtime.context), "automation-started",
            pointer: { [weak self] session in
                self?.started(session)
            })
    }

    private func started(_ session: UnsafeMutableRawPointer?) {
        guard let session else { return }
        let info = webkit_application_info_new()
        webkit_application_info_set_name(info, Self.browserName)
        let version = (Version(DeviceInfo.runtimeVersion)?.components ?? []) + [0, 0, 0]
        webkit_application_info_set_version(info, guint64(version[0]), guint64(version[1]), guint64(version[2]))
        webkit_automation_session_set_application_info(gcast(session), info)
        webkit_application_info_unref(info)
        Signal.connectReturningPointer(session, "create-web-view") { [weak self] in self?.handOut() }
    }

    /// The page's view, once (transfer none: the page keeps owning it).
    private func handOut() -> UnsafeMutableRawPointer? {
        guard !handedOut, let page = page() else { return nil }
        handedOut = true
        Signal.connect(UnsafeMutableRawPointer(page.view), "close") { [weak self] in self?.onClose() }
        return UnsafeMutableRawPointer(page.view)
    }
}
