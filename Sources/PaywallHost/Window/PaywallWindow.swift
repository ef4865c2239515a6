import CGtk
import CWebKit
import Foundation
import PaywallCore

/// A top-level window showing a paywall view; the `PaywallPage` a session talks to.
/// `offscreen` windows render without appearing on the desktop (snapshots).
@MainActor
public final class PaywallWindow: PaywallPage {
    public let webView: PaywallWebView
    let window: UnsafeMutablePointer<GtkWidget>
    /// Called after the window was taken off screen by `dismiss()`.
    public var onDismiss: (() -> Void)?

    public init(webView: PaywallWebView, title: String, size: ViewSize, offscreen: Bool = false) {
        self.webView = webView
        window = offscreen ? gtk_offscreen_window_new() : gtk_window_new(GTK_WINDOW_TOPLEVEL)
        if !offscreen {
            gtk_window_set_title(gcast(window), title)
            gtk_window_set_default_size(gcast(window), gint(size.width), gint(size.height))
            gtk_window_set_position(gcast(window), GTK_WIN_POS_CENTER)
        }
        gtk_widget_set_size_request(webView.widget, gint(size.width), gint(size.height))
        gtk_container_add(gcast(window), webView.widget)
        webView.session.page = self
        // Closing with the window manager declines; the session then calls dismiss().
        Signal.connect(UnsafeMutableRawPointer(window), "delete-event", stopping: { [weak self] _ in
            self?.webView.session.windowClosedByUser()
            return true
        })
    }

    public func show() {
        gtk_widget_show_all(window)
        webView.session.presented()
    }

    public func evaluate(_ script: String) {
        webView.evaluate(script)
    }

    public func openExternally(_ url: URL) {
        ExternalOpener.open(url, parent: window)
    }

    public func dismiss() {
        gtk_widget_hide(window)
        onDismiss?()
    }
}
