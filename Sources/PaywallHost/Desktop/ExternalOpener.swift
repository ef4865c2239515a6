import CGtk
import Foundation
import PaywallCore

/// Hands URLs to the desktop: in a sandbox (or with `PAYWALL_USE_PORTAL=1`) the OpenURI portal
/// first, then `SystemURLOpener` (`$PAYWALL_URL_OPENER`, else `xdg-open`), else GTK's
/// `gtk_show_uri_on_window`.
@MainActor
package enum ExternalOpener {
    static let environmentVariable = SystemURLOpener.environmentVariable

    /// Opens `url`; false when nothing could (the reason is on stderr).
    @discardableResult
    static func open(_ url: URL, parent: UnsafeMutablePointer<GtkWidget>?) -> Bool {
        if OpenURIPortal.isInUse(), OpenURIPortal.open(url, parent: parent) { return true }
        if SystemURLOpener.open(url) { return true }
        var error: UnsafeMutablePointer<GError>?
        if gtk_show_uri_on_window(gcast(parent), url.absoluteString, guint32(GDK_CURRENT_TIME), &error) == 0 {
            FileHandle.standardError.write(Data("paywall: cannot open \(url.absoluteString): \(consumeError(error))\n".utf8))
            return false
        }
        return true
    }

    /// The license-key store's services with this opener for checkouts (GTK's when neither
    /// `$PAYWALL_URL_OPENER` nor `xdg-open` runs).
    package static var licenseServices: LicenseServices {
        LicenseServices(openURL: { ExternalOpener.open($0, parent: nil) })
    }

    /// Whether a `mailto:` URL has somewhere to go: the portal (which asks the desktop), a
    /// tester's opener, or a mail app the desktop registered for the scheme.
    static var canOpenMail: Bool {
        if OpenURIPortal.isInUse() { return true }
        if let command = ProcessInfo.processInfo.environment[environmentVariable], !command.isEmpty { return true }
        guard let app = g_app_info_get_default_for_uri_scheme("mailto") else { return false }
        g_object_unref(UnsafeMutableRawPointer(app))
        return true
    }
}
