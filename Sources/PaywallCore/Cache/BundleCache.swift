import Foundation

/// The local, integrity-checked store of paywall bundles, so presenting works offline.
///
/// Layout: `objects/ab/abcdef…` holds each downloaded file once by its SHA-256, so files that
/// versions or bundles share are fetched once; `versions/ID/VERSION/` is an installed version
/// with its own copies (not links: damage to one version must not spread to another);
/// `index.sqlite` records which versions exist. An install is built in `tmp/` and renamed into place, then recorded in one
/// SQLite transaction, so a half-downloaded version is never visible. A version whose files no
/// longer match their hashes is refused and the newest good one is used instead.
@MainActor
package final class BundleCache {
    package let directory: URL
    let index: SQLiteDatabase
    /// How big and how long downloads may be.
    package var limits = DownloadLimits()
    /// How long a request may go without receiving anything, in seconds (`limits.idleTimeout`).
    package var requestTimeout: Double {
        get { limits.idleTimeout }
        set { limits.idleTimeout = newValue }
    }
    /// Where hashing and copying run: off the main actor.
    package var fileWork = BundleFileWork()
    /// Files of one bundle downloaded at the same time.
    static let parallelDownloads = 6

    /// "PWBC": marks the file as a bundle cache index.
    static let applicationId: Int32 = 0x5057_4243

    static let migrations = [
        """
        CREATE TABLE versions (
            bundle_id TEXT NOT NULL, version TEXT NOT NULL, source TEXT NOT NULL,
            etag TEXT, last_modified TEXT, size INTEGER NOT NULL,
            installed_at REAL NOT NULL, last_used_at REAL NOT NULL, refused INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (bundle_id, version)
        );
        CREATE TABLE pins (bundle_id TEXT PRIMARY KEY);
        """
    ]

    package enum CacheError: Error, CustomStringConvertible {
        case invalidManifest(String)
        /// The manifest at this source lacks the id, version or file list that packing writes.
        case unpacked(String)
        case fileMismatch(file: String, reason: String)
        case notCached(String)
        case noGoodVersion(String)
        case versionConflict(id: String, version: String)
        case inUse(String)
        case notModifiedButNotCached(String)
        case tooLarge(String, limit: DownloadLimits.Limit)

        package var description: String {
            switch self {
            case .invalidManifest(let why): why
            case .fileMismatch(let file, let why): "\(file): \(why); the bundle was not installed"
            case .unpacked(let source): "\(source): manifest.json needs id, version and files: the bundle is not packed"
            case .notCached(let id): "no bundle \(id) in the cache; install it first"
            case .noGoodVersion(let id): "every cached version of \(id) failed verification; add it again"
            case .versionConflict(let id, let version):
                "\(id) \(version) is already cached with different content; bump the version in the new bundle's manifest, or remove the cached \(id) first"
            case .notModifiedButNotCached(let source):
                "\(source) answered 304 Not Modified, but nothing from it is cached: the server must send the manifest to a request without If-None-Match or If-Modified-Since; fix its caching, then add the bundle again"
            case .tooLarge(let why, _): why
            case .inUse(let id): "\(id) is on screen in a running paywall; close it, then remove the bundle"
            }
        }
    }

    package init(directory: URL) throws {
        self.directory = directory
        for folder in ["objects", "versions", "tmp", "locks"] {
            try Self.createFolder(directory.appendingPathComponent(folder))
        }
        (index, _) = try RecoveringDatabase.open(
            path: directory.appendingPathComponent("index.sqlite").path, applicationId: Self.applicationId,
            migrations: Self.migrations)
    }

    // MARK: Installing

    /// Installs the bundle at `source` (checking every file against the manifest) and returns
    /// its version. A manifest URL that has not changed since the last install is not fetched
    /// again. Downloads stop at `limits`: sizes and the deadline for the whole bundle.
    @discardableResult
    package func install(_ source: BundleSource) async throws -> InstalledBundle {
        // Held until the install is recorded: garbage collection elsewhere waits for it.
        let lock = try FileLock(path: lockPath, mode: .shared)
        defer { withExtendedLifetime(lock) {} }
        let deadline = Date().addingTimeInterval(limits.deadline)
        let latest = try index.query(
            "SELECT * FROM versions WHERE source = ? ORDER BY installed_at DESC LIMIT 1",
            [.text(source.description)]
        ).first
        // Only a good copy makes "not modified" useful: without one the manifest is asked for whole.
        var known: InstalledBundle?
        if let candidate = latest.flatMap(installed), !candidate.refused, await verify(candidate).isEmpty { known = candidate }
        let validators =
            known == nil
            ? nil
            : latest.map { BundleSource.Validators(etag: $0["etag"]?.string, lastModified: $0["last_modified"]?.string) }
        guard let (data, newValidators) = try await source.manifest(known: validators, limits: limits, deadline: deadline) else {
            // 304: what we have is current; to a request that named no copy, the server is wrong.
            guard let known else { throw CacheError.notModifiedButNotCached(source.description) }
            return known
        }
        let manifest: BundleManifest
        do {
            manifest = try BundleManifest(
                data: data, root: directory, path: "\(source.description) manifest.json", checkPreviewStore: false)
        } catch {
            throw CacheError.invalidManifest(error.description)
        }
        guard let id = manifest.id, let version = manifest.version, !manifest.files.isEmpty else {
            throw CacheError.unpacked(source.description)
        }
        guard BundleManifest.isPlainName(id), BundleManifest.isPlainName(version),
            manifest.files.keys.allSatisfy(BundleManifest.isBundlePath)
        else {
            throw CacheError.invalidManifest("\(source.description): id, version or a file path is not a plain relative name")
        }
        do { try manifest.checkRuntimeVersion() } catch { throw CacheError.invalidManifest(error.description) }
        try checkSizes(manifest, source: source)
        let final = versionDirectory(id: id, version: version)
        if FileManager.default.fileExists(atPath: final.path) {
            // Unreadable, the old copy is damaged and rebuilt; readable, it must be the same bundle.
            let existing = (try? Data(contentsOf: final.appendingPathComponent(BundleManifest.fileName))).flatMap {
                try? BundleManifest(data: $0, root: directory, path: "", checkPreviewStore: false)
            }
            if let existing, existing != manifest { throw CacheError.versionConflict(id: id, version: version) }
            if existing != nil, let current = try installedVersion(id: id, version: version), await verify(current).isEmpty {
                try record(id: id, version: version, source: source, validators: newValidators, size: manifest.totalSize)
                return current
            }
            try FileError.wrap("remove", final.path) { try FileManager.default.removeItem(at: final) }
        }
        try await storeObjects(manifest, from: source, deadline: deadline)
        // Every file is fetched and checked before anything becomes visible.
        let staging = directory.appendingPathComponent("tmp/\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: staging) }
        try await fileWork.copy(
            manifest.files.map { (from: objectURL($0.value.sha256), to: staging.appendingPathComponent($0.key)) })
        let manifestCopy = staging.appendingPathComponent(BundleManifest.fileName)
        try FileError.wrap("write", manifestCopy.path) { try data.write(to: manifestCopy) }
        try Self.createFolder(final.deletingLastPathComponent())
        // rename: the version appears whole
        try FileError.wrap("move to", final.path) { try FileManager.default.moveItem(at: staging, to: final) }
        try record(id: id, version: version, source: source, validators: newValidators, size: manifest.totalSize)
        guard let installed = try installedVersion(id: id, version: version) else { throw CacheError.notCached(id) }
        return installed
    }

    /// Refuses, before any download, a manifest giving a file or the bundle more than `limits` allow.
    private func checkSizes(_ manifest: BundleManifest, source: BundleSource) throws {
        let words = DownloadLimits.words
        if let (path, entry) = manifest.files.sorted(by: { $0.key < $1.key }).first(where: { $0.value.size > limits.maxFileBytes }
        ) {
            throw CacheError.tooLarge(
                "\(source.description): \(path) is \(words(entry.size)) by its manifest, larger than the \(words(limits.maxFileBytes)) limit per file (DownloadLimits.maxFileBytes)",
                limit: .maxFileBytes)
        }
        if manifest.totalSize > limits.maxBundleBytes {
            throw CacheError.tooLarge(
                "\(source.description): the bundle is \(words(manifest.totalSize)) by its manifest, larger than the \(words(limits.maxBundleBytes)) limit per bundle (DownloadLimits.maxBundleBytes)",
                limit: .maxBundleBytes)
        }
    }

    /// Fetches every file the object store lacks, each content once, a few at a time; the first
    /// failure cancels the rest.
    private func storeObjects(_ manifest: BundleManifest, from source: BundleSource, deadline: Date) async throws {
        var byContent: [String: (String, BundleManifest.FileEntry)] = [:]
        for (path, entry) in manifest.files.sorted(by: { $0.key < $1.key }) where byContent[entry.sha256] == nil {
            byContent[entry.sha256] = (path, entry)
        }
        let pending = byContent.values.sorted { $0.0 < $1.0 }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, file) in pending.enumerated() {
                if index >= Self.parallelDownloads { try await group.next() }
                let path = file.0
                let entry = file.1
                group.addTask { try await self.storeObject(path: path, entry: entry, from: source, deadline: deadline) }
            }
            try await group.waitForAll()
        }
    }

    private func storeObject(path: String, entry: BundleManifest.FileEntry, from source: BundleSource, deadline: Date)
        async throws
    {
        let object = objectURL(entry.sha256)
        if let stored = await fileWork.digest(of: object, limit: entry.size), stored == (entry.size, entry.sha256) { return }
        let partial = directory.appendingPathComponent("tmp/\(UUID().uuidString).part")
        defer { try? FileManager.default.removeItem(at: partial) }
        let sink = try DownloadSink(file: partial, limit: entry.size, kind: .declared)
        try await source.file(path, into: sink, limits: limits, deadline: deadline)
        let sha256 = sink.finish()
        guard sink.count == entry.size else {
            throw CacheError.fileMismatch(file: path, reason: "\(sink.count) bytes, the manifest says \(entry.size)")
        }
        guard sha256 == entry.sha256 else {
            throw CacheError.fileMismatch(file: path, reason: "content does not match its sha256")
        }
        try Self.createFolder(object.deletingLastPathComponent())
        _ = try? FileManager.default.removeItem(at: object)
        try FileError.wrap("move to", object.path) { try FileManager.default.moveItem(at: partial, to: object) }
    }

    nonisolated static func createFolder(_ url: URL) throws(FileError) {
        try FileError.wrap("create the folder", url.path) {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }
    }

    private func record(id: String, version: String, source: BundleSource, validators: BundleSource.Validators, size: Int) throws
    {
        let now = Date()
        try index.query(
            """
            INSERT INTO versions (bundle_id, version, source, etag, last_modified, size, installed_at, last_used_at, refused)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0)
            ON CONFLICT(bundle_id, version) DO UPDATE SET source = excluded.source, etag = excluded.etag,
                last_modified = excluded.last_modified, refused = 0
            """,
            [
                .text(id), .text(version), .text(source.description), .optional(validators.etag),
                .optional(validators.lastModified), .integer(Int64(size)), .date(now), .date(now),
            ])
    }

    // MARK: Reading

    /// Every cached version, newest first within each bundle.
    package func list() throws -> [InstalledBundle] {
        try index.query("SELECT * FROM versions ORDER BY bundle_id, installed_at DESC").compactMap(installed)
    }

    /// The id of the bundle last installed from `source` (a config entry names its bundle by source).
    package func bundleId(installedFrom source: BundleSource) throws -> String? {
        try index.query(
            "SELECT bundle_id FROM versions WHERE source = ? ORDER BY installed_at DESC LIMIT 1",
            [.text(source.description)]
        ).first?["bundle_id"]?.string
    }

    /// The newest version of `id` whose files all match their hashes. A version that fails is
    /// refused for good and reported through `onRefused`; the one before it is tried next.
    package func goodVersion(id: String, onRefused: (InstalledBundle, [BundleProblem]) -> Void = { _, _ in }) async throws
        -> InstalledBundle
    {
        let versions = try index.query(
            "SELECT * FROM versions WHERE bundle_id = ? AND refused = 0 ORDER BY installed_at DESC",
            [.text(id)]
        ).compactMap(installed)
        guard !versions.isEmpty else {
            if try index.query("SELECT 1 FROM versions WHERE bundle_id = ?", [.text(id)]).isEmpty {
                throw CacheError.notCached(id)
            }
            throw CacheError.noGoodVersion(id)
        }
        for version in versions {
            // A version made for a newer runtime is skipped, not refused: a later runtime may show it.
            if (try? BundleManifest(root: version.directory).checkRuntimeVersion()) == nil,
                FileManager.default.fileExists(atPath: version.directory.path)
            {
                continue
            }
            let problems = await verify(version)
            if problems.isEmpty {
                try index.query(
                    "UPDATE versions SET last_used_at = ? WHERE bundle_id = ? AND version = ?",
                    [.date(Date()), .text(id), .text(version.version)])
                return version
            }
            try index.query(
                "UPDATE versions SET refused = 1 WHERE bundle_id = ? AND version = ?", [.text(id), .text(version.version)])
            onRefused(version, problems)
        }
        throw CacheError.noGoodVersion(id)
    }

    /// The problems of one cached version: files missing or not matching the manifest.
    /// The files are hashed off the main actor.
    package func verify(_ version: InstalledBundle) async -> [BundleProblem] {
        await fileWork.problems(of: version)
    }

    // MARK: Helpers

    func inUseLockPath(_ id: String) -> String { directory.appendingPathComponent("locks/\(id).inuse").path }

    /// Installs hold it shared; garbage collection takes it exclusively.
    var lockPath: String { directory.appendingPathComponent("lock").path }

    func objectURL(_ sha256: String) -> URL {
        directory.appendingPathComponent("objects/\(sha256.prefix(2))/\(sha256)")
    }

    func versionDirectory(id: String, version: String) -> URL {
        directory.appendingPathComponent("versions/\(id)/\(version)")
    }

    private func installedVersion(id: String, version: String) throws -> InstalledBundle? {
        try index.query("SELECT * FROM versions WHERE bundle_id = ? AND version = ?", [.text(id), .text(version)])
            .first.flatMap(installed)
    }

    private func installed(_ row: SQLiteRow) -> InstalledBundle? {
        guard let id = row["bundle_id"]?.string, let version = row["version"]?.string else { return nil }
        let pinned = (try? !index.query("SELECT 1 FROM pins WHERE bundle_id = ?", [.text(id)]).isEmpty) ?? false
        return InstalledBundle(
            id: id, version: version, directory: versionDirectory(id: id, version: version),
            source: row["source"]?.string ?? "", size: Int(row["size"]?.int ?? 0),
            installedAt: row["installed_at"]?.date ?? .distantPast, lastUsedAt: row["last_used_at"]?.date ?? .distantPast,
            pinned: pinned, refused: row["refused"]?.bool ?? false)
    }
}

extension BundleManifest {
    /// Bytes of all listed files.
    var totalSize: Int { files.values.reduce(0) { $0 + $1.size } }
}
