import CGtk
import CWebKit
import Foundation
import PaywallHost

/// Instruments for `paywall bench`: the baselines the runtime's paths are compared with,
/// measured the same way in the same process. `package`: scaffolding for the CLI, not app API.
@MainActor
package enum BenchmarkProbes {
    /// Adds a bare `rawEcho` script-message handler to `webView` that answers each message by
    /// calling `window.__rawEchoReply()`: WebKit's own page -> native -> page round trip, with
    /// none of the runtime's decoding.
    package static func installRawEcho(on webView: PaywallWebView) {
        let manager = webkit_web_view_get_user_content_manager(webView.view)
        webkit_user_content_manager_register_script_message_handler(manager, "rawEcho")
        Signal.connect(
            UnsafeMutableRawPointer(manager!), "script-message-received::rawEcho",
            pointer: { [weak webView] _ in
                webView?.evaluate("window.__rawEchoReply()")
            })
    }

    /// Loads `url` (a `file://` page) in a plain view of its own that may read other local files,
    /// runs `script` there once loaded, and hands back its JSON result.
    package static func runInFileView(_ url: URL, script: String, completion: @escaping @MainActor (String) -> Void) {
        let window = Toolkit.makeWindow(offscreen: true)
        let widget = webkit_web_view_new()!
        let view: UnsafeMutablePointer<WebKitWebView> = gcast(widget)!
        let settings = webkit_web_view_get_settings(view)
        webkit_settings_set_allow_file_access_from_file_urls(settings, 1)
        gtk_container_add(gcast(window), widget)
        gtk_widget_show_all(window)
        Signal.connect(
            UnsafeMutableRawPointer(view), "load-changed",
            enumValue: { event in
                guard event == WEBKIT_LOAD_FINISHED.rawValue else { return }
                webkit_web_view_call_async_javascript_function(
                    view, script, -1, nil, nil, nil, nil, AsyncCallback.function,
                    AsyncCallback.userData { result in
                        var error: UnsafeMutablePointer<GError>?
                        var json = "null"
                        if let value = webkit_web_view_call_async_javascript_function_finish(view, result, &error) {
                            if let text = jsc_value_to_json(value, 0) {
                                json = String(cString: text)
                                g_free(text)
                            }
                            g_object_unref(UnsafeMutableRawPointer(value))
                        }
                        if let error { g_error_free(error) }
                        gtk_widget_destroy(window)
                        completion(json)
                    })
            })
        webkit_web_view_load_uri(view, url.absoluteString)
    }

    /// A plain GTK window with a label, realized and not shown: the simplest window's first
    /// frame, the reference a preloaded paywall's is compared with.
    package final class PlainWindow {
        private let window: UnsafeMutablePointer<GtkWidget>
        package let label: UnsafeMutablePointer<GtkWidget>

        package init() {
            window = gtk_window_new(GTK_WINDOW_TOPLEVEL)!
            gtk_window_set_default_size(gcast(window), 400, 400)
            label = gtk_label_new("bench")!
            gtk_container_add(gcast(window), label)
            gtk_widget_realize(window)
        }

        package func show() { gtk_widget_show_all(window) }
        package func destroy() { gtk_widget_destroy(window) }
    }
}
