import Foundation

/// One version of a bundle in the cache.
public struct InstalledBundle: Equatable, Sendable {
    public var id: String
    public var version: String
    /// The version's directory, which `BundleServer` serves.
    package var directory: URL
    package var source: String
    /// Bytes of its files.
    package var size: Int
    package var installedAt: Date
    package var lastUsedAt: Date
    package var pinned: Bool
    /// Failed verification once; never served again.
    package var refused: Bool
}
