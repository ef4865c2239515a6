import Foundation

/// A link that redeems a license key: `SCHEME://paywall/redeem?license_key=KEY`, any scheme (the
/// app's own, routed to it by its `.desktop` file's `MimeType=x-scheme-handler/SCHEME;`).
package struct RedeemLink: Equatable, Sendable {
    package let licenseKey: String

    /// Nil for any other link, or one without a key.
    package init?(_ url: URL) {
        guard url.host?.lowercased() == "paywall", url.path == "/redeem" || url.path == "/redeem/",
            let parts = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let key = parts.queryItems?.first(where: { $0.name == "license_key" })?.value?
                .trimmingCharacters(in: .whitespacesAndNewlines),
            !key.isEmpty
        else { return nil }
        licenseKey = key
    }

    /// `url` with every `license_key` masked, for events and logs.
    package static func masked(_ url: URL) -> String {
        guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: false), let items = parts.queryItems else {
            return url.absoluteString
        }
        parts.queryItems = items.map {
            $0.name == "license_key" ? URLQueryItem(name: $0.name, value: $0.value.map(LicenseKeyMask.mask)) : $0
        }
        return parts.string ?? url.absoluteString
    }
}
