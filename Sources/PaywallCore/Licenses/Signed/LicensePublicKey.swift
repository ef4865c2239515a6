import Foundation

/// The Ed25519 public key a catalog's signed licenses are verified with (`license_public_key`):
/// PEM (`-----BEGIN PUBLIC KEY-----`, as `openssl pkey -pubout` writes it) or the raw key as
/// 64 hex digits (as Keygen's dashboard shows it).
package struct LicensePublicKey: Equatable, Sendable {
    /// The 32-byte raw key.
    package let bytes: [UInt8]

    /// An Ed25519 SubjectPublicKeyInfo is this fixed DER prefix (SEQUENCE, the algorithm
    /// 1.3.101.112, a BIT STRING of 33 bytes) and then the raw key.
    static let spkiPrefix: [UInt8] = [0x30, 0x2A, 0x30, 0x05, 0x06, 0x03, 0x2B, 0x65, 0x70, 0x03, 0x21, 0x00]

    /// Parses `text` as the catalog writes it; throws `.cryptography` saying what is wrong.
    package init(parsing text: String) throws(LicenseError) {
        let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.hasPrefix("-----BEGIN") {
            bytes = try Self.pem(text)
        } else if text.utf8.count == 64, text.allSatisfy(\.isHexDigit), let raw = Self.hex(text) {
            bytes = raw
        } else {
            throw LicenseError(
                .cryptography,
                "license_public_key is neither a PEM public key (-----BEGIN PUBLIC KEY-----) nor 64 hex digits "
                    + "(got \(text.utf8.count) characters); write the output of `openssl pkey -in private.pem -pubout`")
        }
    }

    package init(bytes: [UInt8]) {
        precondition(bytes.count == 32, "an Ed25519 public key is 32 bytes")
        self.bytes = bytes
    }

    /// The key as 64 lowercase hex digits.
    package var hex: String { bytes.map { String(format: "%02x", $0) }.joined() }

    /// The key as PEM (`-----BEGIN PUBLIC KEY-----`).
    package var pem: String {
        "-----BEGIN PUBLIC KEY-----\n" + Data(Self.spkiPrefix + bytes).base64EncodedString()
            + "\n-----END PUBLIC KEY-----\n"
    }

    /// Whether `signature` is this key's signature of exactly `message`.
    package func verifies(_ signature: [UInt8], of message: [UInt8]) throws(LicenseError) -> Bool {
        try Ed25519.isValid(signature: signature, of: message, publicKey: bytes)
    }

    private static func pem(_ text: String) throws(LicenseError) -> [UInt8] {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        guard lines.first == "-----BEGIN PUBLIC KEY-----", lines.last == "-----END PUBLIC KEY-----" else {
            throw LicenseError(
                .cryptography,
                "license_public_key is PEM but not a public key (\(lines.first ?? "")): a private key must never be in "
                    + "a catalog; write the output of `openssl pkey -in private.pem -pubout`")
        }
        guard let der = Data(base64Encoded: lines.dropFirst().dropLast().joined()).map({ [UInt8]($0) }) else {
            throw LicenseError(.cryptography, "license_public_key's PEM body is not base64; copy the key again")
        }
        guard der.count == spkiPrefix.count + 32, Array(der.prefix(spkiPrefix.count)) == spkiPrefix else {
            throw LicenseError(
                .cryptography,
                "license_public_key is not an Ed25519 public key (only Ed25519 signs licenses); "
                    + "make the key with `openssl genpkey -algorithm ed25519`")
        }
        return Array(der.suffix(32))
    }

    private static func hex(_ text: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            guard let byte = UInt8(text[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return bytes
    }
}
