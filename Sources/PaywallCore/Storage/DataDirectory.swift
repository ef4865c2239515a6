import Foundation

/// Where the runtime keeps its databases: `--data-dir DIR`, else `$XDG_DATA_HOME/paywall`,
/// else `~/.local/share/paywall` (the XDG base directory convention).
public struct DataDirectory: Equatable, Sendable {
    public let url: URL

    public init(explicit: String?, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        if let explicit, !explicit.isEmpty {
            url = URL(fileURLWithPath: explicit)
        } else if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            url = URL(fileURLWithPath: xdg).appendingPathComponent("paywall")
        } else {
            let home = environment["HOME"] ?? NSHomeDirectory()
            url = URL(fileURLWithPath: home).appendingPathComponent(".local/share/paywall")
        }
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw DataDirectoryError(message: "cannot create data directory \(url.path): \(error.localizedDescription); pass --data-dir DIR")
        }
    }

    /// The entitlement cache.
    public var entitlementCache: String { url.appendingPathComponent("entitlements.sqlite").path }
    /// Install date, view counters and user attributes.
    public var runtimeState: String { url.appendingPathComponent("runtime.sqlite").path }
    /// The fake store's state.
    public var fakeStore: String { url.appendingPathComponent("fake-store.sqlite").path }
}

public struct DataDirectoryError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
