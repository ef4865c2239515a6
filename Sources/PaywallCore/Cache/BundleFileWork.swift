import Foundation

/// The bundle cache's file work (hashing and copying bundle files), run off the main actor.
/// `BundleCache` is main-actor bound, which in a GTK app is the UI thread; a bundle of a few
/// megabytes hashed or copied there would freeze the window. Its callers await the result;
/// the index and the locks stay with the cache.
package struct BundleFileWork: Sendable {
    /// Runs on the thread that does each piece of work, before it; tests use it to check
    /// that the thread is not the main one.
    package var probe: (@Sendable () -> Void)?

    package init(probe: (@Sendable () -> Void)? = nil) {
        self.probe = probe
    }

    /// The problems of one cached version: files missing or not matching the manifest.
    func problems(of version: InstalledBundle) async -> [BundleProblem] {
        await run { Self.check(version) }
    }

    /// The byte count and SHA-256 of the file at `url`; nil when it is missing or longer than `limit`.
    func digest(of url: URL, limit: Int) async -> (count: Int, sha256: String)? {
        await run { DownloadSink.digest(of: url, limit: limit) }
    }

    /// Copies each file `from` to `to`, creating the folders on the way.
    func copy(_ files: [(from: URL, to: URL)]) async throws(FileError) {
        let files = files.map { CopyJob(from: $0.from, to: $0.to) }
        let failure = await run { () -> FileError? in
            do throws(FileError) {
                for file in files {
                    try BundleCache.createFolder(file.to.deletingLastPathComponent())
                    try FileError.wrap("copy to", file.to.path) { try FileManager.default.copyItem(at: file.from, to: file.to) }
                }
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    private struct CopyJob: Sendable {
        let from: URL
        let to: URL
    }

    /// Every piece of work goes through here: a detached task, so never the caller's actor,
    /// even where nonisolated async code runs on its caller's (`nonisolated(nonsending)`).
    private func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        let probe = probe
        return await Task.detached {
            probe?()
            return body()
        }.value
    }

    private static func check(_ version: InstalledBundle) -> [BundleProblem] {
        let label = "\(version.id) \(version.version)"
        guard FileManager.default.fileExists(atPath: version.directory.appendingPathComponent(BundleManifest.fileName).path),
            let manifest = try? BundleManifest(root: version.directory), !manifest.files.isEmpty
        else {
            return [BundleProblem(file: "\(label): manifest.json", message: "missing, unreadable or without files")]
        }
        var problems: [BundleProblem] = []
        for (path, entry) in manifest.files.sorted(by: { $0.key < $1.key }) {
            guard let data = FileManager.default.contents(atPath: version.directory.appendingPathComponent(path).path) else {
                problems.append(BundleProblem(file: "\(label): \(path)", message: "missing"))
                continue
            }
            if entry.mismatch(data) != nil {
                problems.append(BundleProblem(file: "\(label): \(path)", message: "does not match its sha256"))
            }
        }
        return problems
    }
}
