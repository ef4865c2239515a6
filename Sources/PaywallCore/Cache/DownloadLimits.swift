import Foundation

/// How much a bundle download may take, so a server that streams without end, declares
/// gigabytes or trickles a byte at a time cannot exhaust memory, disk or patience.
public struct DownloadLimits: Equatable, Sendable {
    public static let megabyte = 1_000_000

    /// Bytes one file may have (100 MB). A file also stops at the size its manifest gives it.
    public var maxFileBytes: Int
    /// Bytes a bundle's files may have together (200 MB).
    public var maxBundleBytes: Int
    /// Bytes a manifest or config may have (10 MB): they are read into memory and parsed.
    public var maxDocumentBytes: Int
    /// Seconds a whole bundle, its manifest and every file, may take to download (120).
    public var deadline: Double
    /// Seconds a request may go without receiving anything (30; whole seconds, at least 1).
    public var idleTimeout: Double

    /// A limit a download can reach, named for the field that raises it.
    public enum Limit: String, Sendable {
        case maxFileBytes, maxBundleBytes, deadline
    }

    public init(
        maxFileBytes: Int = 100 * megabyte, maxBundleBytes: Int = 200 * megabyte,
        maxDocumentBytes: Int = 10 * megabyte, deadline: Double = 120, idleTimeout: Double = 30
    ) {
        self.maxFileBytes = maxFileBytes
        self.maxBundleBytes = maxBundleBytes
        self.maxDocumentBytes = maxDocumentBytes
        self.deadline = deadline
        self.idleTimeout = idleTimeout
    }

    /// `bytes` for a message: "100 MB" for whole megabytes, else "1500 bytes".
    static func words(_ bytes: Int) -> String {
        bytes >= megabyte && bytes % megabyte == 0 ? "\(bytes / megabyte) MB" : "\(bytes) bytes"
    }
}
