import CGtk
import CWebKit
import Foundation
import PaywallCore

/// The process's one WebKit context: an ephemeral (nothing written to disk) web context
/// that serves mounted bundles through the `paywall://` scheme. Every paywall view shares it.
@MainActor
package final class WebRuntime {
    let context: UnsafeMutablePointer<WebKitWebContext>
    private(set) var server = BundleServer()
    /// The runtime's page script, injected at document start into every page made from now on,
    /// with the first of `languages` as the Superwall preload's `deviceLocale`.
    var bridgeScript: String {
        let preload: JSONValue = ["deviceLocale": .string(languages.first ?? "en_US")]
        return "window.__SW_DEVICE_PRELOAD__ = \(preload.jsonText);\n" + pageScript
    }
    private let pageScript: String
    /// The page's `navigator.languages` (`de_DE`, ...).
    private(set) var languages: [String] = []
    /// The paywall shown when a bundle cannot load (`web/fallback`).
    let fallbackBundle: PaywallBundle?

    /// - Parameter languages: the page's `navigator.languages` (`de_DE`, ...); the first is also
    ///   the `window.__SW_DEVICE_PRELOAD__.deviceLocale` Superwall page scripts read before they run.
    package init(resources: RuntimeResources, languages: [String] = []) throws {
        fallbackBundle = try? PaywallBundle(path: resources.web.appendingPathComponent("fallback").path)
        pageScript = try resources.bridgeScript()
        context = webkit_web_context_new_ephemeral()!
        setLanguages(languages)
        let security = webkit_web_context_get_security_manager(context)
        // Secure: the page gets a secure context (fetch, modules, crypto). CORS-enabled: ES
        // modules and fetch() of the bundle's own files work.
        webkit_security_manager_register_uri_scheme_as_secure(security, BundleServer.scheme)
        webkit_security_manager_register_uri_scheme_as_cors_enabled(security, BundleServer.scheme)
        let box = Unmanaged.passUnretained(self).toOpaque()
        webkit_web_context_register_uri_scheme(
            context, BundleServer.scheme,
            { request, data in
                let runtime = Unmanaged<WebRuntime>.fromOpaque(data!).takeUnretainedValue()
                MainActor.assumeIsolated { runtime.serve(request) }
            }, box, nil)
    }

    /// Sets `navigator.languages` (and the preload's `deviceLocale`) of the pages loaded from
    /// now on; the web process already running takes them too (`paywall snapshot --locales`).
    func setLanguages(_ languages: [String]) {
        guard !languages.isEmpty else { return }
        self.languages = languages
        let owned = languages.map { strdup($0.replacingOccurrences(of: "_", with: "-")) }
        var tags = owned.map { UnsafePointer($0) } + [nil]
        webkit_web_context_set_preferred_languages(context, &tags)
        for pointer in owned { free(pointer) }
    }

    /// How many views were made: the first one's load starts the web process.
    private(set) var viewsMade = 0

    /// How many views were made since the current web process was chosen (`startFreshWebProcess`):
    /// the first one's load starts that process.
    private(set) var viewsInCurrentProcess = 0

    /// A view that is never shown: every paywall view is related to it, so all of them share
    /// one web process (a preloaded paywall then costs a page, not a process). Replaced by
    /// `startFreshWebProcess`.
    private var currentAnchor: UnsafeMutablePointer<GtkWidget>?

    /// The web processes of this process already running when the current anchor was made
    /// (other runtimes', retired ones): the current one is none of them.
    private(set) var webProcessesBeforeCurrent: Set<Int32> = []

    private var anchor: UnsafeMutablePointer<GtkWidget> {
        if let currentAnchor { return currentAnchor }
        webProcessesBeforeCurrent = Set(ProcessMemory.webProcesses())
        let view = webkit_web_view_new_with_context(context)!
        g_object_ref_sink(UnsafeMutableRawPointer(view))
        currentAnchor = view
        return view
    }

    /// Views made from now on get a new web process; the one so far ends once its last view
    /// is gone (WebKit ends a web process with no page). With automation allowed, nothing
    /// changes: those views have a process each already.
    func startFreshWebProcess() {
        guard let old = currentAnchor else { return }
        currentAnchor = nil
        viewsInCurrentProcess = 0
        gtk_widget_destroy(old)
        g_object_unref(UnsafeMutableRawPointer(old))
    }

    /// Whether WebDriver may drive this process: then every view is made controlled by automation.
    private(set) var allowsAutomation = false

    /// Lets WebKit's WebDriver start an automation session in this process's one context.
    /// Call it before the first view is made (a view's automation flag is fixed when it is made).
    func allowAutomation() {
        precondition(viewsMade == 0, "automation must be allowed before any view is made")
        allowsAutomation = true
        webkit_web_context_set_automation_allowed(context, 1)
    }

    /// A new web view in this runtime's web process, or, with automation allowed, one WebDriver
    /// can drive (WebKit refuses that flag on a related view, so such a view gets this context
    /// and a process of its own). The properties are construct-only, so they go through
    /// `g_object_new_with_properties` (the variadic `g_object_new` is not callable).
    func makeWebView() -> UnsafeMutablePointer<GtkWidget> {
        viewsMade += 1
        viewsInCurrentProcess += 1
        var names: [String] = []
        var values: [GValue] = []
        func add(_ name: String, _ type: GType, _ set: (inout GValue) -> Void) {
            var value = GValue()
            g_value_init(&value, type)
            set(&value)
            names.append(name)
            values.append(value)
        }
        if allowsAutomation {
            add("web-context", webkit_web_context_get_type()) { g_value_set_object(&$0, UnsafeMutableRawPointer(context)) }
            add("is-controlled-by-automation", booleanGType) { g_value_set_boolean(&$0, 1) }
        } else {
            add("related-view", webkit_web_view_get_type()) { g_value_set_object(&$0, UnsafeMutableRawPointer(anchor)) }
        }
        let owned = names.map { strdup($0) }
        var pointers = owned.map { UnsafePointer($0) }
        let object = g_object_new_with_properties(webkit_web_view_get_type(), guint(values.count), &pointers, &values)!
        for pointer in owned { free(pointer) }
        for index in values.indices { g_value_unset(&values[index]) }
        return gcast(object)!
    }

    /// Serves `bundle` on `paywall://host/` and returns its entry URL.
    package func mount(_ bundle: PaywallBundle, host: String, policy: ContentSecurityPolicy = ContentSecurityPolicy()) -> URL {
        server.mount(bundle, host: host, policy: policy)
    }

    /// Stops serving `paywall://host/`.
    package func unmount(host: String) {
        server.unmount(host: host)
    }

    private func serve(_ request: UnsafeMutablePointer<WebKitURISchemeRequest>?) {
        let uri = String(cString: webkit_uri_scheme_request_get_uri(request))
        let response = server.respond(to: uri)
        if response.isEntry, response.status != 200 {
            // An entry page that cannot be served fails the load, so the fallback paywall shows.
            let message = String(decoding: response.body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            let error = g_error_new_literal(g_quark_from_static_string("paywall-bundle"), gint(response.status), message)
            webkit_uri_scheme_request_finish_error(request, error)
            g_error_free(error)
            return
        }
        let bytes = response.body.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }  // WebKit owns a copy
        let stream = g_memory_input_stream_new_from_bytes(bytes)
        let reply = webkit_uri_scheme_response_new(stream, gint64(response.body.count))
        webkit_uri_scheme_response_set_status(reply, guint(response.status), nil)
        webkit_uri_scheme_response_set_content_type(reply, response.mimeType)
        let headers = soup_message_headers_new(SOUP_MESSAGE_HEADERS_RESPONSE)
        for (name, value) in response.headers {
            soup_message_headers_append(headers, name, value)
        }
        webkit_uri_scheme_response_set_http_headers(reply, headers)  // takes ownership
        webkit_uri_scheme_request_finish_with_response(request, reply)
        g_object_unref(UnsafeMutableRawPointer(reply))
        g_object_unref(UnsafeMutableRawPointer(stream))
        g_bytes_unref(bytes)
    }
}
