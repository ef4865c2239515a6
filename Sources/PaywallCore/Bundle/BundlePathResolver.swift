import Foundation

/// Maps the path of a request URL to a file inside a bundle, refusing anything that could
/// reach outside it: `..` segments (plain or percent-encoded), encoded separators,
/// backslashes, NUL bytes, and symlinks whose target lies outside the bundle.
package struct BundlePathResolver: Sendable {
    package let root: URL

    package enum Resolution: Equatable, Sendable {
        case file(URL)
        /// The request tried to leave the bundle or used a forbidden character (HTTP 403).
        case forbidden(reason: String)
        /// No such file in the bundle (HTTP 404).
        case notFound
        /// The path is longer than `maxPathBytes` or has more than `maxSegments` segments (HTTP 414).
        case tooLong(reason: String)
    }

    /// Linux's PATH_MAX: no file of a bundle can have a longer path.
    package static let maxPathBytes = 4096
    /// Far deeper than any bundle nests; a page asking for more is not looking for a file.
    package static let maxSegments = 256

    /// `root` must already have its symlinks resolved (see `PaywallBundle`).
    package init(root: URL) {
        self.root = root
    }

    /// Resolves `rawPath`, the still percent-encoded path of the request URL (e.g. `/css/a%20b.css`).
    package func resolve(rawPath: String) -> Resolution {
        // Bounded before any work: a page may ask for a path of any length, and everything
        // below is linear in what passes this check.
        guard rawPath.utf8.count <= Self.maxPathBytes else {
            return .tooLong(reason: "path longer than \(Self.maxPathBytes) bytes")
        }
        if rawPath.contains("\\") { return .forbidden(reason: "backslash in path") }
        if rawPath.contains("\0") { return .forbidden(reason: "NUL byte in path") }
        var segments: [String] = []
        for rawSegment in rawPath.split(separator: "/", omittingEmptySubsequences: true) {
            guard segments.count < Self.maxSegments else {
                return .tooLong(reason: "path has more than \(Self.maxSegments) segments")
            }
            guard let segment = String(rawSegment).removingPercentEncoding else {
                return .forbidden(reason: "malformed percent-encoding")
            }
            if segment.contains("/") || segment.contains("\\") { return .forbidden(reason: "encoded path separator") }
            if segment.contains("\0") { return .forbidden(reason: "NUL byte in path") }
            if segment == ".." || segment == "." { return .forbidden(reason: "dot segment in path") }
            segments.append(segment)
        }
        if segments.isEmpty { return .notFound }
        // One join, not one URL copy per segment (that was quadratic in the segment count).
        let candidate = root.path + "/" + segments.joined(separator: "/")
        // realpath() follows every symlink on the way; the result must still be inside the root.
        guard let real = realpath(candidate, nil) else { return .notFound }
        defer { free(real) }
        let resolved = String(cString: real)
        let rootPath = root.path.hasSuffix("/") ? root.path : root.path + "/"
        guard resolved.hasPrefix(rootPath) else { return .forbidden(reason: "path leaves the bundle") }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: resolved, isDirectory: &isDirectory), !isDirectory.boolValue else {
            return .notFound
        }
        return .file(URL(fileURLWithPath: resolved))
    }
}
