/// The Content-Security-Policy sent with a bundle's HTML. By default a page may load only its
/// own bundle's files (plus inline code, `data:` and `blob:`); remote scripts, frames and
/// connections are blocked. `allowedOrigins` (from a bundle manifest) widens every fetch directive.
public struct ContentSecurityPolicy: Equatable, Sendable {
    public var allowedOrigins: [String]

    public init(allowedOrigins: [String] = []) {
        self.allowedOrigins = allowedOrigins
    }

    public var headerValue: String {
        let extra = allowedOrigins.map { " " + $0 }.joined()
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
}
