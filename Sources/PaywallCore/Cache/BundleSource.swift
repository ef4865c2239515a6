import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where a bundle comes from: a local directory or the URL of its `manifest.json` (files are
/// fetched relative to it). Downloads of the same file are shared, and a manifest is
/// revalidated with `If-None-Match` / `If-Modified-Since`.
public enum BundleSource: Equatable, Sendable {
    case directory(URL)
    case manifestURL(URL)

    /// `http(s)://...` is a manifest URL, anything else a directory path.
    public init(_ text: String) {
        if let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? "") {
            self = .manifestURL(url)
        } else {
            self = .directory(URL(fileURLWithPath: text))
        }
    }

    public var description: String {
        switch self {
        case .directory(let url): url.path
        case .manifestURL(let url): url.absoluteString
        }
    }

    /// What the server said about a manifest, to ask next time whether it changed.
    public struct Validators: Equatable, Sendable {
        public var etag: String?
        public var lastModified: String?
        public init(etag: String? = nil, lastModified: String? = nil) {
            self.etag = etag
            self.lastModified = lastModified
        }
    }

    public enum FetchError: Error, CustomStringConvertible {
        case unreadable(String, String)
        case http(URL, Int)
        case transport(URL, String)

        public var description: String {
            switch self {
            case .unreadable(let path, let why): "cannot read \(path): \(why)"
            case .http(let url, let status): "\(url.absoluteString) answered HTTP \(status)"
            case .transport(let url, let why): "cannot fetch \(url.absoluteString): \(why)"
            }
        }
    }

    /// The manifest's bytes, or nil when the server says it has not changed since `known`.
    func manifest(known: Validators?, timeout: Double) async throws -> (Data, Validators)? {
        switch self {
        case .directory(let root):
            let path = root.appendingPathComponent(BundleManifest.fileName).path
            guard let data = FileManager.default.contents(atPath: path) else {
                throw FetchError.unreadable(path, "no manifest.json; run `paywall bundle pack` on the bundle first")
            }
            return (data, Validators())
        case .manifestURL(let url):
            var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
            if let etag = known?.etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
            if let modified = known?.lastModified { request.setValue(modified, forHTTPHeaderField: "If-Modified-Since") }
            let (data, response) = try await Self.fetch(request)
            if response.statusCode == 304 { return nil }
            guard response.statusCode == 200 else { throw FetchError.http(url, response.statusCode) }
            return (data, Validators(etag: response.value(forHTTPHeaderField: "ETag"),
                                     lastModified: response.value(forHTTPHeaderField: "Last-Modified")))
        }
    }

    /// One file of the bundle, by its path in the manifest.
    func file(_ path: String, timeout: Double) async throws -> Data {
        switch self {
        case .directory(let root):
            let url = root.appendingPathComponent(path)
            guard let data = FileManager.default.contents(atPath: url.path) else {
                throw FetchError.unreadable(url.path, "missing or unreadable")
            }
            return data
        case .manifestURL(let manifest):
            let encoded = path.split(separator: "/").map {
                String($0).addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? String($0)
            }.joined(separator: "/")
            guard let url = URL(string: encoded, relativeTo: manifest)?.absoluteURL else {
                throw FetchError.unreadable(path, "not a relative URL")
            }
            return try await Self.download(url, timeout: timeout)
        }
    }

    /// GETs `url`; anything but HTTP 200 is an error naming the URL and the status.
    static func download(_ url: URL, timeout: Double) async throws -> Data {
        let (data, response) = try await fetch(URLRequest(url: url, timeoutInterval: timeout))
        guard response.statusCode == 200 else { throw FetchError.http(url, response.statusCode) }
        return data
    }

    private static func fetch(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        do {
            let (data, response) = try await URLSession.shared.data(for: request)
            guard let http = response as? HTTPURLResponse else { throw FetchError.transport(request.url!, "not an HTTP response") }
            return (data, http)
        } catch let error as FetchError {
            throw error
        } catch {
            throw FetchError.transport(request.url!, error.localizedDescription)
        }
    }
}
