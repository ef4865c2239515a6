import CGtk
import CWebKit
import Foundation
import PaywallCore

/// A WebKit view showing one runtime page (a paywall bundle or the customer center): injects
/// the runtime's page script, forwards page messages, load signals and navigation requests to
/// the page's channel, and runs scripts.
@MainActor
package final class PaywallWebView {
    /// The view as a GTK widget, to put into a window or an app's container.
    package var widget: UnsafeMutablePointer<GtkWidget> { widgetRef.pointer }
    /// Ours until this goes, whichever window or container holds it.
    private let widgetRef: GObjectReference<GtkWidget>
    package let view: UnsafeMutablePointer<WebKitWebView>
    let connection: any PageConnection
    let bundleHost: String
    /// Kept alive: its scheme handler serves this view's requests.
    private let runtime: WebRuntime

    /// The handler name pages post to (`window.webkit.messageHandlers.paywallMessageHandler`).
    static let messageHandler = "paywallMessageHandler"

    /// - Parameter strings: the table whose language and direction the page is shown in
    ///   (`<html lang dir>`, set before the page's own markup is laid out).
    package init(runtime: WebRuntime, connection: any PageConnection, bundleHost: String, strings: StringTable) {
        widgetRef = GObjectReference(runtime.makeWebView())
        view = gcast(widgetRef.pointer)!
        self.connection = connection
        self.runtime = runtime
        self.bundleHost = bundleHost
        configureSettings()
        let document: JSONValue = ["lang": .string(strings.languageTag), "dir": .string(strings.isRightToLeft ? "rtl" : "ltr")]
        installBridge(script: "window.__PAYWALL_DOCUMENT__ = \(document.jsonText);\n" + runtime.bridgeScript)
        connectSignals()
    }

    package func load(_ url: URL) {
        webkit_web_view_load_uri(view, url.absoluteString)
    }

    package func reload() {
        webkit_web_view_reload_bypass_cache(view)
    }

    /// Runs `script` in the page; `completion` gets the result as JSON text, or the exception message.
    package func evaluate(_ script: String, completion: (@MainActor (Result<String, ScriptError>) -> Void)? = nil) {
        guard let completion else {
            webkit_web_view_evaluate_javascript(view, script, -1, nil, nil, nil, nil, nil)
            return
        }
        webkit_web_view_evaluate_javascript(
            view, script, -1, nil, nil, nil, AsyncCallback.function,
            AsyncCallback.userData { [view] result in
                var error: UnsafeMutablePointer<GError>?
                let value = webkit_web_view_evaluate_javascript_finish(view, result, &error)
                completion(Self.jsonResult(value, error))
            })
    }

    /// Runs `body` as an async function (it may `await`); `completion` gets its resolved value as JSON text.
    package func callAsync(_ body: String, completion: @escaping @MainActor (Result<String, ScriptError>) -> Void) {
        // WebKit closes the function right after the body: a body ending in a `//` comment
        // would swallow that brace without a line break of its own.
        webkit_web_view_call_async_javascript_function(
            view, body + "\n", -1, nil, nil, nil, nil, AsyncCallback.function,
            AsyncCallback.userData { [view] result in
                var error: UnsafeMutablePointer<GError>?
                let value = webkit_web_view_call_async_javascript_function_finish(view, result, &error)
                completion(Self.jsonResult(value, error))
            })
    }

    package struct ScriptError: Error, CustomStringConvertible {
        package let message: String
        package var description: String { message }
    }

    private static func jsonResult(_ value: UnsafeMutablePointer<JSCValue>?, _ error: UnsafeMutablePointer<GError>?)
        -> Result<String, ScriptError>
    {
        guard let value else {
            // The script ran but returned something JSON cannot carry (a Promise, a DOM node): not a failure.
            if let error, error.pointee.domain == webkit_javascript_error_quark(),
                error.pointee.code == WEBKIT_JAVASCRIPT_ERROR_INVALID_RESULT.rawValue
            {
                g_error_free(error)
                return .success("null")
            }
            return .failure(ScriptError(message: consumeError(error)))
        }
        defer { g_object_unref(UnsafeMutableRawPointer(value)) }
        guard jsc_value_is_undefined(value) == 0, let json = jsc_value_to_json(value, 0) else { return .success("null") }
        defer { g_free(json) }
        return .success(String(cString: json))
    }

    // MARK: Setup

    private func configureSettings() {
        let settings = webkit_web_view_get_settings(view)
        webkit_settings_set_enable_developer_extras(settings, 1)  // right-click > Inspect for designers
        webkit_settings_set_javascript_can_open_windows_automatically(settings, 0)
        webkit_settings_set_enable_back_forward_navigation_gestures(settings, 0)
    }

    private func installBridge(script: String) {
        let manager = webkit_web_view_get_user_content_manager(view)
        // Top frame only: WebKitGTK cannot tell which frame posted a message.
        let userScript = webkit_user_script_new(
            script, WEBKIT_USER_CONTENT_INJECT_TOP_FRAME, WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START, nil, nil)
        webkit_user_content_manager_add_script(manager, userScript)
        webkit_user_script_unref(userScript)
        webkit_user_content_manager_register_script_message_handler(manager, Self.messageHandler)
        Signal.connect(
            UnsafeMutableRawPointer(manager!), "script-message-received::\(Self.messageHandler)",
            pointer: { [weak self] result in self?.receive(jsResult: result) })
    }

    private func receive(jsResult: UnsafeMutableRawPointer?) {
        guard let value = webkit_javascript_result_get_js_value(OpaquePointer(jsResult)) else { return }
        // The protocol posts JSON text; an object posted by mistake is taken as its JSON.
        let text = jsc_value_is_string(value) != 0 ? jsc_value_to_string(value) : jsc_value_to_json(value, 0)
        guard let text else {
            connection.receive("")  // reported as not JSON
            return
        }
        defer { g_free(text) }
        connection.receive(String(cString: text))
    }

    private func connectSignals() {
        let instance = UnsafeMutableRawPointer(view)
        Signal.connect(instance, "load-changed", enumValue: { [weak self] event in self?.loadChanged(event) })
        Signal.connect(
            instance, "load-failed",
            loadFailed: { [weak self] uri, message, interrupted in
                // A load the policy stopped (a blocked link) is not a failure of the page.
                guard !interrupted else { return false }
                self?.connection.loadFailed(url: uri, reason: message)
                return true  // the fallback paywall replaces WebKit's error page
            })
        Signal.connect(
            instance, "decide-policy",
            decide: { [weak self] decision, kind in
                self?.decide(decision, kind) ?? false
            })
        // Real input on the view (never a page's script): what makes a page's request a user's gesture.
        for name in ["button-press-event", "key-press-event"] {
            Signal.connect(
                instance, name,
                stopping: { [weak self] _ in
                    self?.connection.userInput()
                    return false
                })
        }
        Signal.connect(
            instance, "web-process-terminated",
            enumValue: { [weak self] reason in
                let text =
                    reason == WEBKIT_WEB_PROCESS_CRASHED.rawValue
                    ? "crashed"
                    : reason == WEBKIT_WEB_PROCESS_EXCEEDED_MEMORY_LIMIT.rawValue ? "exceeded_memory_limit" : "terminated_by_api"
                self?.connection.webProcessTerminated(reason: text)
            })
    }

    var currentURI: String {
        webkit_web_view_get_uri(view).map { String(cString: $0) } ?? ""
    }

    private func loadChanged(_ event: UInt32) {
        switch event {
        case WEBKIT_LOAD_STARTED.rawValue:
            connection.loadStarted(url: currentURI)
        case WEBKIT_LOAD_FINISHED.rawValue:
            connection.loadFinished(url: currentURI)
            MainLoop.after(seconds: PageReadiness.pingGracePeriod) { [weak self] in self?.connection.pingGraceElapsed() }
        default:
            break
        }
    }

    /// Returns true when the decision was handled here (navigations); other decisions keep WebKit's default.
    private func decide(_ decision: UnsafeMutableRawPointer?, _ kind: UInt32) -> Bool {
        let newWindow = kind == WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION.rawValue
        guard newWindow || kind == WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION.rawValue else { return false }
        let navigation: UnsafeMutablePointer<WebKitNavigationPolicyDecision>? = gcast(decision)
        let action = webkit_navigation_policy_decision_get_navigation_action(navigation)
        let request = webkit_navigation_action_get_request(action)
        let target = webkit_uri_request_get_uri(request).map { String(cString: $0) } ?? ""
        if connection.shouldAllowNavigation(to: target, bundleHost: bundleHost, newWindow: newWindow) {
            webkit_policy_decision_use(gcast(decision))
        } else {
            webkit_policy_decision_ignore(gcast(decision))
        }
        return true
    }
}
