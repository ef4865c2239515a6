import CGtk
import CWebKit
import Foundation
import PaywallCore

/// The customer center's web view and the `CustomerCenterPage` its session talks to. Shown in
/// a window of its own (`.sheet`) or as a widget the app puts into its own container
/// (`.embedded`) or navigation stack (`.pushed`).
@MainActor
public final class CustomerCenterView: CustomerCenterPage {
    public let session: CustomerCenterSession
    public let webView: PaywallWebView
    /// The view as a GTK widget, for `.embedded` and `.pushed`: add it to your container or `GtkStack`.
    public var widget: UnsafeMutablePointer<GtkWidget> { webView.widget }
    /// The sheet's window; nil when the app holds the widget.
    var window: UnsafeMutablePointer<GtkWidget>? { windowRef?.pointer }
    private var windowRef: GObjectReference<GtkWidget>?
    private let strings: StringTable
    /// Its page was asked to load (ahead of time, or when it was shown).
    var isLoading = false

    init(session: CustomerCenterSession, webView: PaywallWebView, strings: StringTable) {
        self.session = session
        self.webView = webView
        self.strings = strings
        session.page = self
    }

    /// Puts the view into a window of its own, modal over `parent` when there is one.
    /// `offscreen` renders without showing anything (snapshots).
    func showAsSheet(parent: UnsafeMutablePointer<GtkWidget>?, size: ViewSize, offscreen: Bool) {
        let window = Toolkit.makeWindow(offscreen: offscreen)
        if !offscreen {
            gtk_window_set_title(gcast(window), strings.text("cc.window.title"))
            gtk_window_set_default_size(gcast(window), gint(size.width), gint(size.height))
            if let parent {
                gtk_window_set_transient_for(gcast(window), gcast(parent))
                gtk_window_set_modal(gcast(window), 1)
                gtk_window_set_position(gcast(window), GTK_WIN_POS_CENTER_ON_PARENT)
            } else {
                gtk_window_set_position(gcast(window), GTK_WIN_POS_CENTER)
            }
        }
        gtk_widget_set_size_request(widget, gint(size.width), gint(size.height))
        gtk_container_add(gcast(window), widget)
        Signal.connect(UnsafeMutableRawPointer(window), "delete-event", stopping: { [weak self] _ in
            self?.session.dismiss()
            return true
        })
        windowRef = GObjectReference(window)
        gtk_widget_show_all(window)
    }

    /// For `.embedded` and `.pushed`: the app taking the widget out of its container (its stack
    /// popped, its window destroyed) dismisses the customer center, as its close button would.
    func dismissWhenRemoved() {
        Signal.connect(UnsafeMutableRawPointer(widget), "parent-set", pointer: { [weak self] _ in
            guard let self, gtk_widget_get_parent(self.widget) == nil else { return }
            self.session.dismiss()
        })
    }

    // MARK: CustomerCenterPage

    public func evaluate(_ script: String) {
        webView.evaluate(script)
    }

    public func openExternally(_ url: URL) {
        ExternalOpener.open(url, parent: toplevel)
    }

    public func openInAppBrowser(_ url: URL) {
        InAppBrowser.open(url, title: strings.text("browser.title", ["host": url.host ?? url.absoluteString]), parent: toplevel)
    }

    public func openMail(_ url: URL) -> Bool {
        guard ExternalOpener.canOpenMail else { return false }
        ExternalOpener.open(url, parent: toplevel)
        return true
    }

    public func copyToClipboard(_ text: String) {
        gtk_clipboard_set_text(gtk_clipboard_get(gdk_atom_intern("CLIPBOARD", 0)), text, -1)
    }

    public func dismiss() {
        if let window {
            gtk_widget_destroy(window)
            windowRef = nil
        } else if let parent = gtk_widget_get_parent(widget) {
            // The app's container held it; the web view stays alive until this view goes.
            gtk_container_remove(gcast(parent), widget)
        }
    }

    /// The window that dialogs and browser windows belong to.
    private var toplevel: UnsafeMutablePointer<GtkWidget> {
        window ?? gtk_widget_get_toplevel(widget)
    }
}
