import Foundation

/// Where a download's bytes go as they arrive: counted, written to a staging file (or kept in
/// memory, for manifests and configs), and refused once they would pass `limit`, so no server
/// or local file can make the runtime hold or store more; then hashed.
final class DownloadSink: @unchecked Sendable {
    /// Bytes it accepts at most.
    let limit: Int
    /// Which limit `limit` is, for the message when it is reached.
    let kind: LimitKind
    private let lock = NSLock()
    private var storage: Storage
    private var hasher = SHA256()
    private var received = 0

    enum Storage {
        case file(URL, FileHandle)
        case memory(Data)
        case discard
    }

    /// The limit a download hit, for the message.
    enum LimitKind: Equatable, Sendable {
        /// `DownloadLimits.maxFileBytes`.
        case perFile
        /// The size the manifest gives the file.
        case declared
        /// `DownloadLimits.maxDocumentBytes`: a manifest or config.
        case document
        /// `LicenseAPIClient.maxResponseBytes`: a license API's answer.
        case apiAnswer

        /// Why a download of more than `limit` bytes stopped.
        func exceeded(_ limit: Int) -> String {
            switch self {
            case .perFile: "larger than the \(DownloadLimits.words(limit)) limit per file (DownloadLimits.maxFileBytes)"
            case .declared: "larger than the \(DownloadLimits.words(limit)) its manifest gives it"
            case .document: "larger than the \(DownloadLimits.words(limit)) limit for a manifest or config"
            case .apiAnswer: "larger than the \(DownloadLimits.words(limit)) limit for a license API's answer"
            }
        }
    }

    /// The error of a download from `source` this sink stopped at its limit.
    func stopped(_ source: String) -> BundleSource.FetchError {
        .stopped(source, kind.exceeded(limit), limit: kind == .perFile ? .maxFileBytes : nil)
    }

    /// A sink that stages the bytes in a new file at `file`.
    init(file: URL, limit: Int, kind: LimitKind) throws(FileError) {
        self.limit = limit
        self.kind = kind
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw FileError(action: "create", path: file.path, reason: FileError.reason(errno: errno)) }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        storage = .file(file, handle)
    }

    /// A sink that keeps the bytes in memory, or only counts and hashes them with `keep: false`.
    init(limit: Int, kind: LimitKind, keep: Bool = true) {
        self.limit = limit
        self.kind = kind
        storage = keep ? .memory(Data()) : .discard
    }

    /// Bytes accepted so far.
    var count: Int { lock.withLock { received } }

    /// Accepts `data`; false, with nothing written, when it would pass the limit.
    func append(_ data: Data) throws(FileError) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard data.count <= limit - received else { return false }
        switch storage {
        case .file(let url, let handle):
            // Not hashed here: the transfer waits on this callback, so it must keep up with the
            // network. `finish` hashes the staged file.
            try FileError.wrap("write", url.path) { try handle.write(contentsOf: data) }
        case .memory(var kept):
            storage = .discard  // not two copies while appending
            kept.append(data)
            storage = .memory(kept)
        case .discard:
            hasher.update(data)
        }
        received += data.count
        return true
    }

    /// Reads the local file at `url` into the sink; false when it is longer than the limit.
    func fill(from url: URL) throws(FileError) -> Bool {
        let handle = try FileError.wrap("read", url.path) { try FileHandle(forReadingFrom: url) }
        defer { try? handle.close() }
        while true {
            let chunk = try FileError.wrap("read", url.path) { try handle.read(upToCount: 1 << 16) ?? Data() }
            if chunk.isEmpty { return true }
            guard try append(chunk) else { return false }
        }
    }

    /// Closes the staging file and returns the SHA-256 (lowercase hex) of everything accepted
    /// (nil if the staged file can no longer be read). Kept documents are not hashed.
    func finish() -> String? {
        lock.withLock {
            guard case .file(let url, let handle) = storage else {
                return hasher.finalize().map { String(format: "%02x", $0) }.joined()
            }
            try? handle.close()
            return Self.digest(of: url, limit: received)?.sha256
        }
    }

    /// The bytes kept in memory (empty for a file or discarding sink).
    var data: Data {
        lock.withLock {
            if case .memory(let kept) = storage { return kept }
            return Data()
        }
    }

    /// The size and SHA-256 of the file at `url`, read in pieces; nil when it cannot be read
    /// or is longer than `limit`.
    static func digest(of url: URL, limit: Int) -> (count: Int, sha256: String)? {
        let sink = DownloadSink(limit: limit, kind: .declared, keep: false)
        guard (try? sink.fill(from: url)) == true, let sha256 = sink.finish() else { return nil }
        return (sink.count, sha256)
    }
}
