import Foundation
import PaywallCore

/// Shows desktop notifications with `notify-send` (libnotify), the freedesktop way a command
/// line can reach the notification service; `$PAYWALL_NOTIFIER` replaces it (tests, other tools).
/// It is called as `COMMAND TITLE BODY`.
@MainActor
enum DesktopNotifier {
    static let environmentVariable = "PAYWALL_NOTIFIER"

    /// The command to run, or nil when the desktop offers none.
    static var command: String? {
        let env = ProcessInfo.processInfo.environment
        if let custom = env[environmentVariable], !custom.isEmpty { return custom }
        return SystemURLOpener.which("notify-send", env)
    }

    /// Schedules a notification; false when no notifier exists.
    static func schedule(title: String, subtitle: String?, body: String, delay: Double) -> Bool {
        guard let command else { return false }
        let text = [subtitle, body].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: "\n")
        MainLoop.after(seconds: delay) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: command)
            process.arguments = [title, text]
            try? process.run()
        }
        return true
    }
}
