import CGtk
import Foundation

/// Hands URLs to the desktop: `$PAYWALL_URL_OPENER` if set (testers point it at a script),
/// else `xdg-open`, else GTK's `gtk_show_uri_on_window`.
@MainActor
enum ExternalOpener {
    static let environmentVariable = "PAYWALL_URL_OPENER"

    static func open(_ url: URL, parent: UnsafeMutablePointer<GtkWidget>?) {
        let env = ProcessInfo.processInfo.environment
        if let command = env[environmentVariable], !command.isEmpty, launch(command, url) { return }
        if let xdgOpen = which("xdg-open", env), launch(xdgOpen, url) { return }
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

    private static func launch(_ command: String, _ url: URL) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command)
        process.arguments = [url.absoluteString]
        process.standardOutput = FileHandle.nullDevice
        do {
            try process.run()
            return true
        } catch {
            FileHandle.standardError.write(Data("paywall: cannot run \(command): \(error)\n".utf8))
            return false
        }
    }

    static func which(_ name: String, _ env: [String: String]) -> String? {
        for dir in (env["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }
}
