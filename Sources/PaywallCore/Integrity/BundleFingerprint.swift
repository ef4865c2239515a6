import Foundation

/// A cheap summary of a bundle directory (every file's path, size and modification time),
/// compared between polls so `preview` reloads when a designer saves a file.
package struct BundleFingerprint: Equatable, Sendable {
    private var entries: [String: Entry]

    private struct Entry: Equatable, Sendable {
        var size: Int
        var modified: Date
    }

    /// Reads the current state of every file below `root` (hidden files included; a symlinked
    /// file counts with its target's size and time).
    package init(root: URL) {
        entries = [:]
        let fm = FileManager.default
        guard let walker = fm.enumerator(at: root, includingPropertiesForKeys: [.fileSizeKey, .contentModificationDateKey])
        else { return }
        for case let url as URL in walker {
            guard
                let values = try? url.resolvingSymlinksInPath().resourceValues(forKeys: [
                    .fileSizeKey, .contentModificationDateKey, .isRegularFileKey,
                ]),
                values.isRegularFile == true
            else { continue }
            entries[url.path] = Entry(size: values.fileSize ?? 0, modified: values.contentModificationDate ?? .distantPast)
        }
    }

    /// Paths added, removed or changed since `earlier`, sorted.
    package func changes(since earlier: BundleFingerprint) -> [String] {
        Set(entries.keys).union(earlier.entries.keys).filter { entries[$0] != earlier.entries[$0] }.sorted()
    }
}
