import CGtk
import CWebKit
import Foundation

/// A plain browser window for the page's `open_url`: the web page the paywall links to
/// (terms, a help article), on top of the paywall, without leaving the app. There is one at
/// a time: each has its own web process (about 250 MB), so a page calling `open_url` in a
/// loop would otherwise exhaust the machine; a new URL loads in the window already open.
@MainActor
enum InAppBrowser {
    private static var window: GObjectReference<GtkWidget>?
    private static var view: UnsafeMutablePointer<WebKitWebView>?

    static func open(_ url: URL, title: String, parent: UnsafeMutablePointer<GtkWidget>) {
        let window = self.window?.pointer ?? makeWindow()
        gtk_window_set_title(gcast(window), title)
        gtk_window_set_transient_for(gcast(window), gcast(parent))
        webkit_web_view_load_uri(view, url.absoluteString)
        gtk_widget_show_all(window)
        gtk_window_present(gcast(window))
    }

    private static func makeWindow() -> UnsafeMutablePointer<GtkWidget> {
        let window = Toolkit.makeWindow(offscreen: false)
        gtk_window_set_default_size(gcast(window), 900, 700)
        // Its own ephemeral context: the paywall scheme and its bridge are not reachable from here.
        let context = webkit_web_context_new_ephemeral()
        let view = webkit_web_view_new_with_context(context)!
        g_object_unref(UnsafeMutableRawPointer(context))
        gtk_container_add(gcast(window), view)
        self.window = GObjectReference(window)
        self.view = gcast(view)
        Signal.connect(UnsafeMutableRawPointer(window), "destroy") {
            self.window = nil
            self.view = nil
        }
        return window
    }
}
