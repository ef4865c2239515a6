import Foundation

/// Decides where a navigation may go: the main frame never leaves its bundle, web links go to
/// the system browser, everything else is blocked.
package enum NavigationPolicy {
    package enum Decision: Equatable, Sendable {
        case allow
        case openExternally(URL)
        case block(reason: String)
    }

    /// Schemes handed to the system (browser, mail client) rather than loaded in the paywall.
    static let externalSchemes: Set<String> = ["http", "https", "mailto"]

    /// - Parameters:
    ///   - target: the URL the page wants to load.
    ///   - bundleHost: the host the paywall's bundle is served on.
    ///   - newWindow: the page asked for a new window (`target=_blank`, `window.open`).
    package static func decide(target: String, bundleHost: String, newWindow: Bool) -> Decision {
        guard let url = URL(string: target), let scheme = url.scheme?.lowercased() else {
            return .block(reason: "not a URL: \(target)")
        }
        if scheme == BundleServer.scheme {
            if newWindow { return .block(reason: "new windows are not allowed") }
            return url.host == bundleHost ? .allow : .block(reason: "navigation outside the bundle")
        }
        if let external = externalURL(target) { return .openExternally(external) }
        return .block(reason: "scheme \(scheme): is not allowed")
    }

    /// `target` as a URL the system may open (http, https, mailto), or nil.
    package static func externalURL(_ target: String) -> URL? {
        guard let url = URL(string: target), let scheme = url.scheme?.lowercased(),
            externalSchemes.contains(scheme)
        else { return nil }
        return url
    }
}
