import Foundation

/// Taking bundles out of the cache: pins, bundles on screen, removal, and pruning under a
/// size budget, with objects and leftovers collected when no install runs.
extension BundleCache {
    public func pin(_ id: String) throws {
        try index.query("INSERT OR IGNORE INTO pins (bundle_id) VALUES (?)", [.text(id)])
    }

    /// Marks bundle `id` as on screen for as long as the returned lock lives, for every process
    /// using this cache: `prune` keeps it and `remove` refuses it meanwhile.
    public func holdInUse(_ id: String) throws -> FileLock {
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("locks"), withIntermediateDirectories: true)
        return try FileLock(path: inUseLockPath(id), mode: .shared)
    }

    /// Whether some process holds `id` on screen (`holdInUse`).
    func isHeldInUse(_ id: String) -> Bool {
        guard FileManager.default.fileExists(atPath: inUseLockPath(id)) else { return false }
        return FileLock(trying: inUseLockPath(id), mode: .exclusive) == nil
    }

    /// Removes every version of `id`.
    public func remove(id: String) throws {
        let versions = try list().filter { $0.id == id }
        guard !versions.isEmpty else { throw CacheError.notCached(id) }
        guard !isHeldInUse(id) else { throw CacheError.inUse(id) }
        try index.transaction {
            try index.query("DELETE FROM versions WHERE bundle_id = ?", [.text(id)])
            try index.query("DELETE FROM pins WHERE bundle_id = ?", [.text(id)])
        }
        try? FileManager.default.removeItem(at: directory.appendingPathComponent("versions/\(id)"))
        try collectGarbage()
    }

    /// Drops refused and superseded versions, then whole bundles least recently used first
    /// while the cache is over `budgetBytes`. Pinned bundles and `inUse` (on screen) are kept.
    /// Returns what was removed as `ID VERSION`.
    @discardableResult
    public func prune(budgetBytes: Int, inUse: Set<String> = []) throws -> [String] {
        var removed: [String] = []
        let inUse = inUse.union(try list().map(\.id).filter(isHeldInUse))
        let pinned = Set(try index.query("SELECT bundle_id FROM pins").compactMap { $0["bundle_id"]?.string })
        var byBundle = Dictionary(grouping: try list(), by: \.id)
        for (id, versions) in byBundle {
            // Keep the newest version that still verifies; pinned and on-screen bundles keep all.
            let newestGood = versions.first { !$0.refused && verify($0).isEmpty }
            guard !pinned.contains(id), !inUse.contains(id), let newestGood else { continue }
            for version in versions where version.version != newestGood.version {
                try drop(version)
                removed.append("\(id) \(version.version)")
            }
            byBundle[id] = [newestGood]
        }
        try collectGarbage()
        // The budget covers what the cache takes on disk: versions and the objects they came from.
        let candidates = byBundle.values.flatMap { $0 }.filter { !pinned.contains($0.id) && !inUse.contains($0.id) }
            .sorted { $0.lastUsedAt < $1.lastUsedAt }
        for version in candidates where try diskUsage() > budgetBytes {
            try drop(version)
            try collectGarbage()
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
        guard let lock = FileLock(trying: lockPath, mode: .exclusive) else { return }
        defer { withExtendedLifetime(lock) {} }
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
            for name in (try? fm.contentsOfDirectory(atPath: objects.appendingPathComponent(prefix).path)) ?? [] where !used.contains(name) {
                try? fm.removeItem(at: objects.appendingPathComponent("\(prefix)/\(name)"))
            }
        }
    }
}
