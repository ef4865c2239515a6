import Foundation

/// Tells a signed license apart from a merchant's license key by its shape alone, before
/// anything is verified: a Keygen license file (`-----BEGIN LICENSE FILE-----`), or ours,
/// `base64url(payload).base64url(signature)` (two base64url parts, longer than any key).
package enum SignedLicenseText {
    package static let keygenHeader = "-----BEGIN LICENSE FILE-----"

    package static func looksSigned(_ text: String) -> Bool {
        let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.hasPrefix(keygenHeader) { return true }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        // An Ed25519 signature alone is 86 base64url characters; keys are far shorter.
        return parts.count == 2 && text.utf8.count > 100
            && parts.allSatisfy { part in
                !part.isEmpty && part.utf8.allSatisfy { $0 == 0x2D || $0 == 0x5F || isAlphanumeric($0) }
            }
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }
}
