import Foundation

/// Hands a URL to the desktop without GTK: `$PAYWALL_URL_OPENER` if set (testers point it at a
/// script that records the URL), else `xdg-open`. The host falls back to GTK's own when neither runs.
package enum SystemURLOpener {
    package static let environmentVariable = "PAYWALL_URL_OPENER"

    /// Opens `url`; false when no opener could be started (the reason is on stderr).
    @discardableResult
    package static func open(_ url: URL, environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        if let command = environment[environmentVariable], !command.isEmpty, launch(command, url) { return true }
        if let xdgOpen = which("xdg-open", environment), launch(xdgOpen, url) { return true }
        return false
    }

    static func launch(_ command: String, _ url: URL) -> Bool {
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

    package static func which(_ name: String, _ env: [String: String]) -> String? {
        for dir in (env["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }
}
