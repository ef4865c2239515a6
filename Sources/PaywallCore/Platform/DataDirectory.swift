import Foundation

/// Where the runtime keeps its databases: `--data-dir DIR`, else `$XDG_DATA_HOME/paywall`,
/// else `~/.local/share/paywall` (the XDG base directory convention).
package struct DataDirectory: Equatable, Sendable {
    package let url: URL

    /// The directory the arguments and environment name, created when missing.
    package init(explicit: String?, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        self = Self.locate(explicit: explicit, environment: environment)
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw DataDirectoryError(
                message: "cannot create data directory \(url.path): \(FileError.reason(error)); use another one")
        }
    }

    /// The directory the arguments and environment name, whether or not it exists; creates
    /// nothing (for commands that only read).
    package static func locate(explicit: String?, environment: [String: String] = ProcessInfo.processInfo.environment)
        -> DataDirectory
    {
        let home = environment["HOME"] ?? NSHomeDirectory()
        if let explicit, !explicit.isEmpty {
            let url = URL(fileURLWithPath: explicit)
            return DataDirectory(url: url, bundleCacheURL: url.appendingPathComponent("cache"))
        }
        let url =
            if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
                URL(fileURLWithPath: xdg).appendingPathComponent("paywall")
            } else {
                URL(fileURLWithPath: home).appendingPathComponent(".local/share/paywall")
            }
        let cache =
            if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
                URL(fileURLWithPath: xdg).appendingPathComponent("paywall")
            } else {
                URL(fileURLWithPath: home).appendingPathComponent(".cache/paywall")
            }
        return DataDirectory(url: url, bundleCacheURL: cache)
    }

    private init(url: URL, bundleCacheURL: URL) {
        self.url = url
        self.bundleCacheURL = bundleCacheURL
    }

    /// Whether the directory is there (a folder).
    package var exists: Bool { FileSystem.isFolder(url.path) }

    /// The bundle cache: `DIR/cache` with `--data-dir DIR`, else `$XDG_CACHE_HOME/paywall`,
    /// else `~/.cache/paywall` (caches are what XDG_CACHE_HOME is for).
    package var bundleCache: URL { bundleCacheURL }
    private let bundleCacheURL: URL

    /// Whether files can be created and written here: false on a read-only mount, even for
    /// root (whom permissions do not stop).
    package var isWritable: Bool { access(url.path, W_OK) == 0 }

    /// The entitlement cache.
    package var entitlementCache: String { url.appendingPathComponent("entitlements.sqlite").path }
    /// Install date, view counters and user attributes.
    package var runtimeState: String { url.appendingPathComponent("runtime.sqlite").path }
    /// The fake store's state.
    /// The app's paywall config, as last loaded (used offline and when the source is slow).
    package var configCache: String { url.appendingPathComponent("config.json").path }
    /// Experiment assignments, the install's anonymous assignment key and occurrence counts (`AssignmentStore`).
    package var experiments: String { url.appendingPathComponent("experiments.sqlite").path }
    /// The analytics outbox: events waiting for their sinks, and the consent.
    package var analytics: String { url.appendingPathComponent("analytics.sqlite").path }
    package var fakeStore: String { url.appendingPathComponent("fake-store.sqlite").path }
    /// The license keys activated on this machine and their last validation (0600).
    package var licenses: String { url.appendingPathComponent("licenses.sqlite").path }
}

package struct DataDirectoryError: Error, CustomStringConvertible {
    package let message: String
    package var description: String { message }
}
