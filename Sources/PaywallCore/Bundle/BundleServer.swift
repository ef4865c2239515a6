import Foundation

/// Answers requests for `paywall://HOST/PATH` URLs from the bundles mounted on each host.
/// Pure logic: the GTK host only copies the response into WebKit.
package struct BundleServer: Sendable {
    /// The custom URI scheme bundles are served through (never `file://`).
    package static let scheme = "paywall"

    /// A response for WebKit: status, headers and body.
    package struct Response: Equatable, Sendable {
        package var status: Int
        package var headers: [String: String]
        package var body: Data
        /// The request was for the mounted bundle's entry page.
        package var isEntry = false
        package var contentType: String { headers["Content-Type"] ?? MIMEType.fallback }
        /// The content type without parameters (`text/css`): WebKit refuses a stylesheet whose
        /// response MIME type carries `; charset=...`. The charset travels in the header.
        package var mimeType: String { String(contentType.prefix { $0 != ";" }) }
    }

    /// The longest request URI answered; longer ones get 414.
    package static let maxURIBytes = 2 * BundlePathResolver.maxPathBytes

    private var mounts: [String: Mount] = [:]

    private struct Mount: Sendable {
        var bundle: PaywallBundle
        var resolver: BundlePathResolver
        var policy: ContentSecurityPolicy
    }

    package init() {}

    /// Serves `bundle` under `paywall://host/` and returns the URL of its entry page.
    @discardableResult
    package mutating func mount(_ bundle: PaywallBundle, host: String, policy: ContentSecurityPolicy = .init()) -> URL {
        mounts[host] = Mount(bundle: bundle, resolver: BundlePathResolver(root: bundle.root), policy: policy)
        return Self.url(host: host, path: bundle.entry)
    }

    package mutating func unmount(host: String) {
        mounts[host] = nil
    }

    package static func url(host: String, path: String) -> URL {
        // Host and path are ours (bundle ids and relative entry names), so this always parses.
        URL(string: "\(scheme)://\(host)/\(path)")!
    }

    /// The response for one request URI, as WebKit hands it over (percent-encoded).
    package func respond(to uri: String) -> Response {
        // Bounded before parsing: the path limit plus room for the scheme, host and a query.
        guard uri.utf8.count <= Self.maxURIBytes else {
            return Self.error(
                414, "request URI longer than \(Self.maxURIBytes) bytes (paths are limited to \(BundlePathResolver.maxPathBytes))"
            )
        }
        guard let components = URLComponents(string: uri), components.scheme == Self.scheme,
            let host = components.host, let mount = mounts[host]
        else {
            return Self.error(404, "no bundle is mounted for \(uri)")
        }
        var response = respond(components, mount)
        response.isEntry = components.path == "/" + mount.bundle.entry
        return response
    }

    private func respond(_ components: URLComponents, _ mount: Mount) -> Response {
        switch mount.resolver.resolve(rawPath: components.percentEncodedPath) {
        case .forbidden(let reason):
            return Self.error(403, "forbidden: \(reason)")
        case .tooLong(let reason):
            return Self.error(414, reason)
        case .notFound:
            return Self.error(404, "not found in bundle: \(components.path)")
        case .file(let file):
            guard let body = FileSystem.contents(atPath: file.path) else {
                return Self.error(404, "unreadable file in bundle: \(components.path)")
            }
            let type = MIMEType.forPath(file.path)
            // Every response carries the policy: an SVG or HTML file opened as a document is scriptable too.
            let headers = [
                "Content-Type": type, "Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff",
                "Content-Security-Policy": mount.policy.headerValue,
            ]
            return Response(status: 200, headers: headers, body: body)
        }
    }

    private static func error(_ status: Int, _ message: String) -> Response {
        Response(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Data((message + "\n").utf8))
    }
}
