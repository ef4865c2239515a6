import Foundation

/// A paywall bundle on disk: a directory whose entry page is `index.html`.
public struct PaywallBundle: Equatable, Sendable {
    /// The bundle directory, with symlinks resolved.
    public let root: URL
    /// The entry page, relative to `root`.
    public let entry: String

    public enum LoadError: Error, Equatable, CustomStringConvertible {
        case missing(path: String)
        case notADirectory(path: String)
        case unreadable(path: String)
        case noEntry(path: String, entry: String)

        public var description: String {
            switch self {
            case .missing(let p): "bundle not found: \(p) does not exist"
            case .notADirectory(let p): "bundle \(p) is not a directory; pass the folder that holds index.html"
            case .unreadable(let p): "bundle \(p) is not readable; check its permissions"
            case .noEntry(let p, let entry): "bundle \(p) has no \(entry); a bundle's entry page is \(entry)"
            }
        }
    }

    /// Opens the bundle at `path`, checking that it is a readable directory with an entry page.
    public init(path: String, entry: String = "index.html") throws(LoadError) {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else { throw .missing(path: path) }
        guard isDirectory.boolValue else { throw .notADirectory(path: path) }
        guard fm.isReadableFile(atPath: path), fm.isExecutableFile(atPath: path) else { throw .unreadable(path: path) }
        let root = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath()
        guard fm.isReadableFile(atPath: root.appendingPathComponent(entry).path) else {
            throw .noEntry(path: path, entry: entry)
        }
        self.root = root
        self.entry = entry
    }
}
