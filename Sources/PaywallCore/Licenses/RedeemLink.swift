import Foundation

/// A link that redeems a license key: `SCHEME://paywall/redeem?license_key=KEY`, any scheme (the
/// app's own, routed to it by its `.desktop` file's `MimeType=x-scheme-handler/SCHEME;`). The
/// key may be a signed license, URL-encoded (a Keygen license file with its line breaks as
/// `%0A`): up to `LicenseKeyStore.maxLicenseFileBytes` once decoded.
package struct RedeemLink: Equatable, Sendable {
    package let licenseKey: String

    /// The longest link read: a license of `LicenseKeyStore.maxLicenseFileBytes` with every
    /// byte percent-encoded, and 1 KB for the rest. A longer one is refused unread.
    package static var maxLinkBytes: Int { 3 * LicenseKeyStore.maxLicenseFileBytes + 1024 }

    /// Whether `url` is a redeem link (`paywall/redeem`, any scheme), its query unread.
    package static func isRedeemLink(_ url: URL) -> Bool {
        url.host?.lowercased() == "paywall" && (url.path == "/redeem" || url.path == "/redeem/")
    }

    /// The key of redeem link `url`, as `LicenseText.answer` takes it (a signed license in its
    /// canonical form). Throws for a link longer than `maxLinkBytes`, a key longer than
    /// `LicenseKeyStore.maxLicenseFileBytes`, or none; a link that is no redeem link throws too
    /// (`isRedeemLink` tells it apart first).
    package init(redeeming url: URL) throws(LicenseError) {
        let length = url.absoluteString.utf8.count
        guard length <= Self.maxLinkBytes else {
            throw LicenseError(
                .emptyKey,
                "the redeem link is \(length) bytes long, longer than any redeem link (at most \(Self.maxLinkBytes)); "
                    + "save the license as a file and choose it in the license-key panel instead")
        }
        guard Self.isRedeemLink(url) else {
            throw LicenseError(.emptyKey, "this is not a redeem link; expected SCHEME://paywall/redeem?license_key=KEY")
        }
        guard let parts = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let value = parts.queryItems?.first(where: { $0.name == "license_key" })?.value,
            !value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        else {
            throw LicenseError(.emptyKey, "the redeem link has no license_key; expected SCHEME://paywall/redeem?license_key=KEY")
        }
        do {
            licenseKey = try LicenseText.answer(value)
        } catch {
            // `answer` refuses only what is too long.
            throw LicenseError(
                .emptyKey,
                "the redeem link's license_key is \(value.utf8.count) bytes long, longer than any license key "
                    + "(at most \(LicenseKeyStore.maxKeyBytes)) or license (at most \(LicenseKeyStore.maxLicenseFileBytes))")
        }
    }

    /// Nil for any other link, one without a key, or one refused by `init(redeeming:)`.
    package init?(_ url: URL) {
        guard let link = try? Self(redeeming: url) else { return nil }
        self = link
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
