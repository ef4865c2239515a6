import Foundation

/// How a license key is shown anywhere but the license API: its last four characters only
/// (`****4d51`), so events, logs, `paywall status` and support emails never carry it whole.
package enum LicenseKeyMask {
    /// `****` and the key's last four characters; all stars for a key of eight or fewer.
    package static func mask(_ key: String) -> String {
        let trimmed = key.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.count > 8 else { return String(repeating: "*", count: max(4, trimmed.count)) }
        return "****" + trimmed.suffix(4)
    }
}
