import Foundation

/// Where the runtime keeps its databases: `--data-dir DIR`, else `$XDG_DATA_HOME/paywall`,
/// else `~/.local/share/paywall` (the XDG base directory convention).
public struct DataDirectory: Equatable, Sendable {
    public let url: URL

    public init(explicit: String?, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let home = environment["HOME"] ?? NSHomeDirectory()
        if let explicit, !explicit.isEmpty {
            url = URL(fileURLWithPath: explicit)
            bundleCacheURL = url.appendingPathComponent("cache")
        } else {
            if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
                url = URL(fileURLWithPath: xdg).appendingPathComponent("paywall")
            } else {
                url = URL(fileURLWithPath: home).appendingPathComponent(".local/share/paywall")
            }
            if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
                bundleCacheURL = URL(fileURLWithPath: xdg).appendingPathComponent("paywall")
            } else {
                bundleCacheURL = URL(fileURLWithPath: home).appendingPathComponent(".cache/paywall")
            }
        }
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw DataDirectoryError(message: "cannot create data directory \(url.path): \(FileError.reason(error)); pass --data-dir DIR")
        }
    }

    /// The bundle cache: `DIR/cache` with `--data-dir DIR`, else `$XDG_CACHE_HOME/paywall`,
    /// else `~/.cache/paywall` (caches are what XDG_CACHE_HOME is for).
    public var bundleCache: URL { bundleCacheURL }
    private var bundleCacheURL: URL

    /// Whether files can be created and written here: false on a read-only mount, even for
    /// root (whom permissions do not stop).
    package var isWritable: Bool { access(url.path, W_OK) == 0 }

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
