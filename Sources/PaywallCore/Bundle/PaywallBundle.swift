import Foundation

/// A paywall bundle on disk: a directory whose entry page is its manifest's `entry`
/// (`index.html` without one).
package struct PaywallBundle: Equatable, Sendable {
    /// The bundle directory, with symlinks resolved.
    package let root: URL
    /// The entry page, relative to `root`.
    package let entry: String
    /// The bundle's name in events (`paywall_identifier`): its manifest's `id`, else the
    /// folder's name (a cached version's folder is named for its version, not the bundle).
    package let identifier: String

    package enum LoadError: Error, Equatable, CustomStringConvertible {
        case missing(path: String)
        case notADirectory(path: String)
        case unreadable(path: String)
        case noEntry(path: String, entry: String)
        case badManifest(String)

        package var description: String {
            switch self {
            case .missing(let p): "bundle not found: \(p) does not exist"
            case .notADirectory(let p): "bundle \(p) is not a directory; pass the folder that holds index.html"
            case .unreadable(let p): "bundle \(p) is not readable; check its permissions"
            case .noEntry(let p, let entry) where entry == PaywallBundle.defaultEntry:
                "bundle \(p) has no \(entry); a bundle's entry page is \(entry) unless its manifest.json names another \"entry\""
            case .noEntry(let p, let entry): "bundle \(p) has no \(entry), the entry page its manifest.json names"
            case .badManifest(let why): why
            }
        }
    }

    package static let defaultEntry = "index.html"

    /// Opens the bundle at `path`, checking that it is a readable directory with an entry page:
    /// `entry` if given, else the one its manifest names.
    package init(path: String, entry: String? = nil) throws(LoadError) {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else { throw .missing(path: path) }
        guard isDirectory.boolValue else { throw .notADirectory(path: path) }
        guard fm.isReadableFile(atPath: path), fm.isExecutableFile(atPath: path) else { throw .unreadable(path: path) }
        let root = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath()
        let manifest: BundleManifest
        do { manifest = try BundleManifest(root: root) } catch { throw .badManifest(error.description) }
        let entry = entry ?? manifest.entry
        if let problem = BundleManifest.entryProblem(entry) {
            throw .badManifest("\(root.appendingPathComponent(BundleManifest.fileName).path): \(problem)")
        }
        guard fm.isReadableFile(atPath: root.appendingPathComponent(entry).path) else {
            throw .noEntry(path: path, entry: entry)
        }
        self.root = root
        self.entry = entry
        identifier = manifest.id.flatMap { $0.isEmpty ? nil : $0 } ?? root.lastPathComponent
    }
}
