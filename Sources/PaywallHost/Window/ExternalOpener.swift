import CGtk
import Foundation
import PaywallCore

/// Hands URLs to the desktop: `SystemURLOpener` (`$PAYWALL_URL_OPENER`, else `xdg-open`), else
/// GTK's `gtk_show_uri_on_window`.
@MainActor
enum ExternalOpener {
    static let environmentVariable = SystemURLOpener.environmentVariable

    static func open(_ url: URL, parent: UnsafeMutablePointer<GtkWidget>?) {
        if SystemURLOpener.open(url) { return }
        var error: UnsafeMutablePointer<GError>?
        if gtk_show_uri_on_window(gcast(parent), url.absoluteString, guint32(GDK_CURRENT_TIME), &error) == 0 {
            FileHandle.standardError.write(Data("paywall: cannot open \(url.absoluteString): \(consumeError(error))\n".utf8))
        }
    }

    /// Whether a `mailto:` URL has somewhere to go: a tester's opener, or a mail app the
    /// desktop registered for the scheme.
    static var canOpenMail: Bool {
        if let command = ProcessInfo.processInfo.environment[environmentVariable], !command.isEmpty { return true }
        guard let app = g_app_info_get_default_for_uri_scheme("mailto") else { return false }
        g_object_unref(UnsafeMutableRawPointer(app))
        return true
    }
}
