import Foundation

/// Base64 with the URL alphabet (RFC 4648 §5, `-` and `_`), unpadded as our signed licenses
/// write it; padding is accepted when reading.
package enum Base64URL {
    package static func encode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The bytes of `text`; nil when it is not base64url.
    package static func decode<S: StringProtocol>(_ text: S) -> [UInt8]? {
        guard !text.contains("+"), !text.contains("/") else { return nil }
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
        return Data(base64Encoded: standard).map { [UInt8]($0) }
    }
}
