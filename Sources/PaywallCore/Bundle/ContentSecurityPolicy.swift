/// The Content-Security-Policy sent with a bundle's HTML. By default a page may load only its
/// own bundle's files (plus inline code, `data:` and `blob:`); remote scripts, frames and
/// connections are blocked. `allowedOrigins` (from a bundle manifest) widens every fetch directive.
package struct ContentSecurityPolicy: Equatable, Sendable {
    package var allowedOrigins: [String]

    package init(allowedOrigins: [String] = []) {
        self.allowedOrigins = allowedOrigins
    }

    package var headerValue: String {
        // The manifest refuses bad origins with a message; this keeps any that reach here another
        // way from widening the policy to every host or injecting a directive.
        let extra = allowedOrigins.filter { Self.originProblem($0) == nil }.map { " " + $0 }.joined()
        return [
            "default-src 'self'\(extra)",
            "script-src 'self' 'unsafe-inline'\(extra)",
            "style-src 'self' 'unsafe-inline'\(extra)",
            "img-src 'self' data: blob:\(extra)",
            "font-src 'self' data:\(extra)",
            "media-src 'self' data: blob:\(extra)",
            "connect-src 'self'\(extra)",
            "frame-src 'none'",
            "object-src 'none'",
            "base-uri 'self'",
            "form-action 'none'",
        ].joined(separator: "; ")
    }

    /// Why `text` cannot be an allowed origin, or nil when it is one: `http(s)://host[:port]`, where
    /// the host may start with `*.` to cover its subdomains, but no wildcard may cover every host
    /// (`https://*`) or a whole top-level domain (`https://*.com`).
    static func originProblem(_ text: String) -> String? {
        let shape = "must be an origin like \"https://cdn.example.com\" (scheme and host, optional port, no path)"
        guard let schemeEnd = text.range(of: "://"), ["http", "https"].contains(text[..<schemeEnd.lowerBound]) else {
            return shape
        }
        var rest = text[schemeEnd.upperBound...]
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        let parts = rest.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        if parts.count == 2, !parts[1].allSatisfy({ $0.isASCII && $0.isNumber }) || (UInt16(parts[1]) ?? 0) == 0 {
            return shape
        }
        var labels = parts[0].split(separator: ".", omittingEmptySubsequences: false)
        let wildcard = labels.first == "*"
        if wildcard { labels.removeFirst() }
        if wildcard, labels.count < 2 {
            return "must not use a wildcard that covers every host; name the host (\"https://cdn.example.com\") "
                + "or its subdomains (\"https://*.example.com\")"
        }
        let isLabel = { (label: Substring) in
            !label.isEmpty && label.count <= 63 && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        }
        return !labels.isEmpty && labels.allSatisfy(isLabel) ? nil : shape
    }
}
