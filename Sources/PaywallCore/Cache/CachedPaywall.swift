import Foundation

/// A paywall found by id in the app's config and the bundle cache, ready to show: the rule
/// "config entry -> cached bundle -> newest good version -> in-use lock" in one place, so an
/// app presenting from the cache does what `paywall present ID` does.
///
/// Keep the value for as long as the paywall is on screen: its `inUse` lock stops `prune`
/// and `remove` (in any process using the same cache) from deleting the files under it.
@MainActor
package struct CachedPaywall {
    /// The newest version of the bundle whose files all match their hashes.
    package let version: InstalledBundle
    /// That version, opened for presenting.
    package let bundle: PaywallBundle
    /// The config entry's product slots (empty without an entry), laid over the bundle's own slot by slot.
    package let slots: ProductSlots
    /// The config entry's survey, for `PaywallPresenter.Options.survey`.
    package let survey: PaywallSurvey?
    /// Marks the bundle as on screen while it lives.
    package let inUse: FileLock

    /// Finds paywall `id`: a config entry of that id names its bundle by source (and brings
    /// its slots); without one, `id` is a bundle id in the cache. Versions that fail
    /// verification on the way are refused for good and reported through `onRefused`.
    ///
    /// - Returns: nil when neither the config nor the cache knows `id`.
    /// - Throws: `BundleCache.CacheError.notCached` when the config names a bundle that was
    ///   never installed, `.noGoodVersion` when every cached version failed verification,
    ///   `PaywallBundle.LoadError` when the good version cannot be opened, or a database or
    ///   lock error.
    package static func find(
        id: String, config: PaywallConfig?, in cache: BundleCache,
        onRefused: (InstalledBundle, [BundleProblem]) -> Void = { _, _ in }
    ) async throws -> CachedPaywall? {
        let entry = config?.entry(id: id)
        guard try entry != nil || cache.list().contains(where: { $0.id == id }) else { return nil }
        let bundleId = try entry.flatMap { try cache.bundleId(installedFrom: BundleSource($0.source)) } ?? id
        // Taken before the version is chosen, so no prune can delete it in between.
        let inUse = try cache.holdInUse(bundleId)
        let version = try await cache.goodVersion(id: bundleId, onRefused: onRefused)
        return CachedPaywall(
            version: version, bundle: try PaywallBundle(path: version.directory.path),
            slots: entry?.slots ?? ProductSlots(), survey: entry?.survey, inUse: inUse)
    }
}
