import Foundation

/// Appends events to a file, one JSON object per line (JSON Lines), flushed per event so a
/// tester can tail it while the paywall is up and nothing is lost if the process is killed.
package final class EventLog {
    private let handle: FileHandle
    package let path: String

    package enum OpenError: Error, CustomStringConvertible {
        case cannotOpen(path: String, reason: String)
        package var description: String {
            switch self {
            case .cannotOpen(let path, let reason): "cannot open event log \(path): \(reason)"
            }
        }
    }

    /// Opens `path` for appending, creating it when missing.
    package init(path: String) throws(OpenError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        self.path = path
        handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    }

    package func append(_ event: PaywallEvent) {
        // A full disk must not take the paywall down; the event still reached the observers.
        try? handle.write(contentsOf: Data((event.jsonLine + "\n").utf8))
    }
}
