import Foundation

/// Brings the paywalls of an app's config into the bundle cache: each entry's bundle
/// installed (downloaded and verified, or copied from a folder), and pinned when the entry
/// says `preload`. What `paywall config load` does, for an app to do at start.
public enum ConfiguredPaywalls {
    /// What happened to one entry.
    public struct Outcome {
        public let entry: PaywallConfig.Entry
        /// The version now cached, or why it is not.
        public let result: Result<InstalledBundle, any Error>
    }

    /// Installs every entry of `config` into `cache`, in the config's order; one entry's
    /// failure does not stop the others.
    @MainActor
    package static func cache(_ config: PaywallConfig, in cache: BundleCache) async -> [Outcome] {
        var outcomes: [Outcome] = []
        for entry in config.paywalls {
            do {
                let installed = try await cache.install(BundleSource(entry.source))
                if entry.preload { try cache.pin(installed.id) }
                outcomes.append(Outcome(entry: entry, result: .success(installed)))
            } catch {
                outcomes.append(Outcome(entry: entry, result: .failure(error)))
            }
        }
        return outcomes
    }
}
