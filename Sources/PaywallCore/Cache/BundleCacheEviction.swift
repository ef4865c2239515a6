import Foundation

/// Taking bundles out of the cache: pins, bundles on screen, removal, and pruning under a
/// size budget, with objects and leftovers collected when no install runs.
extension BundleCache {
    package func pin(_ id: String) throws {
        try index.query("INSERT OR IGNORE INTO pins (bundle_id) VALUES (?)", [.text(id)])
    }

    /// Marks bundle `id` as on screen for as long as the returned lock lives, for every process
    /// using this cache (`CachedPaywall.find` takes it for whoever presents from the cache):
    /// `prune` keeps the bundle and `remove` refuses it meanwhile.
    package func holdInUse(_ id: String) throws -> FileLock {
        try FileLock(path: inUseLockPath(id), mode: .shared)
    }

    /// The right to delete `id`'s files, held until they are gone; nil while it is on screen.
    private func claimForRemoval(_ id: String) throws -> FileLock? {
        try FileLock.trying(inUseLockPath(id), mode: .exclusive)
    }

    /// Removes every version of `id`.
    package func remove(id: String) throws {
        let versions = try list().filter { $0.id == id }
        guard !versions.isEmpty else { throw CacheError.notCached(id) }
        guard let claim = try claimForRemoval(id) else { throw CacheError.inUse(id) }
        defer { withExtendedLifetime(claim) {} }
        try index.transaction {
            try index.query("DELETE FROM versions WHERE bundle_id = ?", [.text(id)])
            try index.query("DELETE FROM pins WHERE bundle_id = ?", [.text(id)])
        }
        try? FileManager.default.removeItem(at: directory.appendingPathComponent("versions/\(id)"))
        try collectGarbage()
    }

    /// Drops refused and superseded versions, then whole bundles least recently used first
    /// while the cache takes more than `budgetBytes` on disk (versions and the objects they came
    /// from). Pinned bundles, `inUse` and bundles on screen in any process are kept. While an
    /// install runs, only superseded versions go. Returns what was removed as `ID VERSION`.
    @discardableResult
    package func prune(budgetBytes: Int, inUse: Set<String> = []) async throws -> [String] {
        var removed: [String] = []
        let pinned = Set(try index.query("SELECT bundle_id FROM pins").compactMap { $0["bundle_id"]?.string })
        var byBundle = Dictionary(grouping: try list(), by: \.id)
        var claims: [String: FileLock] = [:]  // held until the end: nobody starts showing them meanwhile
        for (id, versions) in byBundle where !pinned.contains(id) && !inUse.contains(id) {
            guard let claim = try claimForRemoval(id) else {
                byBundle[id] = nil  // on screen somewhere: not a candidate at all
                continue
            }
            claims[id] = claim
            // Keep the newest version that still verifies.
            var newestGood: InstalledBundle?
            for version in versions where !version.refused {
                if await verify(version).isEmpty {
                    newestGood = version
                    break
                }
            }
            guard let newestGood else { continue }
            for version in versions where version.version != newestGood.version {
                try drop(version)
                removed.append("\(id) \(version.version)")
            }
            byBundle[id] = [newestGood]
        }
        // Disk usage only falls once objects can be collected, which waits for running installs.
        guard let lock = try FileLock.trying(lockPath, mode: .exclusive) else { return removed }
        defer { withExtendedLifetime((lock, claims)) {} }
        try deleteUnreferenced()
        let candidates = byBundle.values.flatMap { $0 }.filter { claims[$0.id] != nil }.sorted { $0.lastUsedAt < $1.lastUsedAt }
        for version in candidates where try diskUsage() > budgetBytes {
            try drop(version)
            try deleteUnreferenced()
            removed.append("\(version.id) \(version.version)")
        }
        return removed
    }

    /// Bytes of every installed version plus every stored object.
    func diskUsage() throws -> Int {
        let versions = try list().reduce(0) { $0 + $1.size }
        let objects = directory.appendingPathComponent("objects")
        let files = FileManager.default.enumerator(at: objects, includingPropertiesForKeys: [.fileSizeKey, .isRegularFileKey])
        var stored = 0
        while let file = files?.nextObject() as? URL {
            guard let values = try? file.resourceValues(forKeys: [.fileSizeKey, .isRegularFileKey]), values.isRegularFile == true
            else { continue }
            stored += values.fileSize ?? 0
        }
        return versions + stored
    }

    func drop(_ version: InstalledBundle) throws {
        try index.query("DELETE FROM versions WHERE bundle_id = ? AND version = ?", [.text(version.id), .text(version.version)])
        try? FileManager.default.removeItem(at: version.directory)
    }

    /// Deletes objects no version links to and leftovers of interrupted installs. Skipped while
    /// an install runs, in this process or another: its files are not recorded yet.
    func collectGarbage() throws {
        guard let lock = try FileLock.trying(lockPath, mode: .exclusive) else { return }
        defer { withExtendedLifetime(lock) {} }
        try deleteUnreferenced()
    }

    /// `collectGarbage`'s work, for a caller holding the cache lock exclusively.
    private func deleteUnreferenced() throws {
        let fm = FileManager.default
        for leftover in (try? fm.contentsOfDirectory(atPath: directory.appendingPathComponent("tmp").path)) ?? [] {
            try? fm.removeItem(at: directory.appendingPathComponent("tmp/\(leftover)"))
        }
        var used = Set<String>()
        for version in try list() {
            if let manifest = try? BundleManifest(root: version.directory) { used.formUnion(manifest.files.values.map(\.sha256)) }
        }
        let objects = directory.appendingPathComponent("objects")
        for prefix in (try? fm.contentsOfDirectory(atPath: objects.path)) ?? [] {
            for name in (try? fm.contentsOfDirectory(atPath: objects.appendingPathComponent(prefix).path)) ?? []
            where !used.contains(name) {
                try? fm.removeItem(at: objects.appendingPathComponent("\(prefix)/\(name)"))
            }
        }
    }
}
