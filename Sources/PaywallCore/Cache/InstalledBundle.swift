import Foundation

/// One version of a bundle in the cache.
public struct InstalledBundle: Equatable, Sendable {
    public var id: String
    public var version: String
    /// The version's directory, which `BundleServer` serves.
    public var directory: URL
    public var source: String
    /// Bytes of its files.
    public var size: Int
    public var installedAt: Date
    public var lastUsedAt: Date
    public var pinned: Bool
    /// Failed verification once; never served again.
    public var refused: Bool
}
