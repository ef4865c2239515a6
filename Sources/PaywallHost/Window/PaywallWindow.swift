import CGtk
import CWebKit
import Foundation
import PaywallCore

/// A top-level window showing a paywall view; the `PaywallPage` a session talks to.
/// `offscreen` windows render without appearing on the desktop (snapshots).
@MainActor
public final class PaywallWindow: PaywallPage {
    public let webView: PaywallWebView
    let session: PaywallSession
    private let windowRef: GObjectReference<GtkWidget>
    var window: UnsafeMutablePointer<GtkWidget> { windowRef.pointer }
    /// Destroyed for good: a page's late calls (a purchase's progress ending after the
    /// purchase closed the paywall) find nothing to draw on and do nothing.
    private(set) var isDestroyed = false
    private let status: StatusOverlay
    private let fallback: (() -> Void)?
    private let strings: StringTable

    /// - Parameter fallback: loads the runtime's fallback paywall into the view.
    public init(webView: PaywallWebView, session: PaywallSession, title: String, size: ViewSize, strings: StringTable, offscreen: Bool = false,
                fallback: (() -> Void)? = nil) {
        self.webView = webView
        self.session = session
        self.strings = strings
        self.fallback = fallback
        status = StatusOverlay(
            retryLabel: strings.text("loading.retry"), closeLabel: strings.text("loading.close"),
            retry: { [weak webView] in
                webView?.reload()
                webView?.onRetry?()
            },
            close: { [weak session] in session?.windowClosedByUser() })
        windowRef = GObjectReference(Toolkit.makeWindow(offscreen: offscreen))
        if !offscreen {
            gtk_window_set_title(gcast(window), title)
            gtk_window_set_default_size(gcast(window), gint(size.width), gint(size.height))
            gtk_window_set_position(gcast(window), GTK_WIN_POS_CENTER)
        }
        gtk_widget_set_size_request(webView.widget, gint(size.width), gint(size.height))
        let overlay = gtk_overlay_new()!
        gtk_container_add(gcast(overlay), webView.widget)
        gtk_overlay_add_overlay(gcast(overlay), status.widget)
        gtk_container_add(gcast(window), overlay)
        Toolkit.setTextDirection(of: window, rightToLeft: strings.isRightToLeft)
        session.page = self
        // Closing with the window manager declines; the session then calls dismiss().
        Signal.connect(UnsafeMutableRawPointer(window), "delete-event", stopping: { [weak self] _ in
            self?.session.windowClosedByUser()
            return true
        })
    }

    public func show() {
        guard !isDestroyed else { return }
        gtk_widget_show_all(window)
        session.presented()
    }

    public func evaluate(_ script: String) {
        webView.evaluate(script)
    }

    public func openExternally(_ url: URL) {
        guard !isDestroyed else { return }
        ExternalOpener.open(url, parent: window)
    }

    public func showProgress(_ visible: Bool) {
        guard !isDestroyed else { return }
        if visible { status.showWorking(strings.text("progress.label")) } else { status.hide() }
    }

    public func showLoading(_ state: LoadingState) {
        guard !isDestroyed else { return }
        switch state {
        case .hidden: status.hide()
        case .loading: status.showWorking(strings.text("loading.label"))
        case .slow: status.showStuck(strings.text("loading.slow"))
        }
    }

    public func showFallback() {
        guard !isDestroyed else { return }
        fallback?()
    }

    public func showAlert(title: String, message: String) {
        guard !isDestroyed else { return }
        AlertDialog.show(title: title, message: message, button: strings.text("dialog.ok"), parent: window,
                         rightToLeft: strings.isRightToLeft)
    }

    public func openInAppBrowser(_ url: URL) {
        guard !isDestroyed else { return }
        InAppBrowser.open(url, title: strings.text("browser.title", ["host": url.host ?? url.absoluteString]), parent: window)
    }

    public func scheduleNotification(title: String, subtitle: String?, body: String, delay: Double) -> Bool {
        DesktopNotifier.schedule(title: title, subtitle: subtitle, body: body, delay: delay)
    }

    /// Frees the GTK window (and with it the web view's widget).
    func destroy() {
        guard !isDestroyed else { return }
        isDestroyed = true
        gtk_widget_destroy(window)
    }

    public func dismiss() {
        guard !isDestroyed else { return }
        gtk_widget_hide(window)
    }
}
