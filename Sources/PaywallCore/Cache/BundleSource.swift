import Foundation

/// Where a bundle comes from: a local directory or the URL of its `manifest.json` (files are
/// fetched relative to it). Downloads of the same file are shared, and a manifest is
/// revalidated with `If-None-Match` / `If-Modified-Since`.
package enum BundleSource: Equatable, Sendable {
    case directory(URL)
    case manifestURL(URL)

    /// `http(s)://...` is a manifest URL, anything else a directory path.
    package init(_ text: String) {
        if let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? "") {
            self = .manifestURL(url)
        } else {
            self = .directory(URL(fileURLWithPath: text))
        }
    }

    package var description: String {
        switch self {
        case .directory(let url): url.path
        case .manifestURL(let url): url.absoluteString
        }
    }

    /// What the server said about a manifest, to ask next time whether it changed.
    package struct Validators: Equatable, Sendable {
        package var etag: String?
        package var lastModified: String?
        package init(etag: String? = nil, lastModified: String? = nil) {
            self.etag = etag
            self.lastModified = lastModified
        }
    }

    package enum FetchError: Error, CustomStringConvertible {
        case unreadable(String, String)
        /// A directory without a manifest: the bundle was never packed.
        case unpacked(String)
        case http(URL, Int)
        /// A 3xx answer (but 304), with its `Location`: redirects are never followed.
        case redirected(URL, Int, String?)
        case transport(URL, String)
        /// A download cut short: by a size limit or the deadline (`limit`, when one the app sets).
        case stopped(String, String, limit: DownloadLimits.Limit? = nil)

        package var description: String {
            switch self {
            case .unreadable(let path, let why): "cannot read \(path): \(why)"
            case .unpacked(let path): "cannot read \(path): no manifest.json: the bundle is not packed"
            case .http(let url, let status): "\(url.absoluteString) answered HTTP \(status)"
            case .redirected(let url, let status, let location):
                "\(url.absoluteString) redirected (HTTP \(status)) to \(location ?? "no Location"); redirects are not followed: use the address it points to"
            case .transport(let url, let why): "cannot fetch \(url.absoluteString): \(why)"
            case .stopped(let source, let why, _): "download of \(source) stopped: \(why)"
            }
        }
    }

    /// The manifest's bytes, or nil when the server says it has not changed since `known`.
    func manifest(known: Validators?, limits: DownloadLimits, deadline: Date) async throws -> (Data, Validators)? {
        let sink = DownloadSink(limit: limits.maxDocumentBytes, kind: .document)
        switch self {
        case .directory(let root):
            let url = root.appendingPathComponent(BundleManifest.fileName)
            guard FileManager.default.fileExists(atPath: url.path) else {
                throw FetchError.unpacked(url.path)
            }
            try Self.copy(url, into: sink)
            return (sink.data, Validators())
        case .manifestURL(let url):
            var headers: [String: String] = [:]
            if let etag = known?.etag { headers["If-None-Match"] = etag }
            if let modified = known?.lastModified { headers["If-Modified-Since"] = modified }
            let response = try await HTTPClient.get(
                url, headers: headers, into: sink, idleTimeout: limits.idleTimeout,
                deadline: deadline, budget: limits.deadline)
            if response.statusCode == 304 { return nil }
            guard response.statusCode == 200 else { throw FetchError.http(url, response.statusCode) }
            let modified = response.value(forHTTPHeaderField: "Last-Modified")
            return (
                sink.data,
                Validators(
                    etag: response.value(forHTTPHeaderField: "ETag"),
                    lastModified: Self.isStrong(lastModified: modified, date: response.value(forHTTPHeaderField: "Date"))
                        ? modified : nil)
            )
        }
    }

    /// Streams one file of the bundle, by its path in the manifest, into `sink`.
    func file(_ path: String, into sink: DownloadSink, limits: DownloadLimits, deadline: Date) async throws {
        switch self {
        case .directory(let root):
            try Self.copy(root.appendingPathComponent(path), into: sink)
        case .manifestURL(let manifest):
            let encoded = path.split(separator: "/").map {
                String($0).addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? String($0)
            }.joined(separator: "/")
            guard let url = URL(string: encoded, relativeTo: manifest)?.absoluteURL else {
                throw FetchError.unreadable(path, "not a relative URL")
            }
            let response = try await HTTPClient.get(
                url, into: sink, idleTimeout: limits.idleTimeout, deadline: deadline,
                budget: limits.deadline)
            guard response.statusCode == 200 else { throw FetchError.http(url, response.statusCode) }
        }
    }

    /// GETs `url` (a config or update feed, read into memory): anything but HTTP 200 is an error
    /// naming the URL and the status; more than `limits.maxDocumentBytes` or taking longer than
    /// `limits.deadline` stops it.
    static func download(_ url: URL, timeout: Double, limits: DownloadLimits = DownloadLimits()) async throws -> Data {
        let sink = DownloadSink(limit: limits.maxDocumentBytes, kind: .document)
        let response = try await HTTPClient.get(
            url, into: sink, idleTimeout: timeout,
            deadline: Date().addingTimeInterval(limits.deadline), budget: limits.deadline)
        guard response.statusCode == 200 else { throw FetchError.http(url, response.statusCode) }
        return sink.data
    }

    /// A local file into `sink`, never more than its limit (a file may be a link to /dev/zero).
    private static func copy(_ url: URL, into sink: DownloadSink) throws {
        do {
            guard try sink.fill(from: url) else { throw sink.stopped(url.path) }
        } catch let error as FileError {
            throw FetchError.unreadable(url.path, error.reason)
        }
    }

    /// Whether a `Last-Modified` can tell versions apart: one less than a second before the
    /// answer's `Date` is weak (RFC 9110, 8.8.2.2), as a file changed again within the same
    /// second keeps it, and the server would answer 304 for content it never sent.
    static func isStrong(lastModified: String?, date: String?) -> Bool {
        guard let lastModified, let modified = httpDate(lastModified) else { return false }
        guard let date, let sent = httpDate(date) else { return true }
        return sent.timeIntervalSince(modified) >= 1
    }

    /// An HTTP date (RFC 9110's IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`); nil otherwise.
    static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text)
    }
}
