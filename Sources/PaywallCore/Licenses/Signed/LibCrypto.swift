import CLazyCrypto
import Foundation

// The one file that calls libcrypto (through CLazyCrypto, which loads it at first use): typed
// Swift in and out, no pointer leaves it. A missing libcrypto is a `.cryptography` LicenseError.

/// Ed25519 signatures (RFC 8032), by OpenSSL.
package enum Ed25519 {
    /// Whether `signature` is `publicKey`'s signature of exactly `message`.
    package static func isValid(signature: [UInt8], of message: [UInt8], publicKey: [UInt8]) throws(LicenseError)
        -> Bool
    {
        guard publicKey.count == 32 else { return false }
        let result = publicKey.withUnsafeBufferPointer { key in
            signature.withUnsafeBufferPointer { signature in
                message.withUnsafeBufferPointer { message in
                    paywall_ed25519_verify(
                        key.baseAddress, signature.baseAddress, signature.count, message.baseAddress, message.count)
                }
            }
        }
        if result < 0 { throw unavailable() }
        return result == 1
    }

    /// `message` signed with the Ed25519 private key `privateKeyPEM` (PKCS #8 PEM, as `openssl
    /// genpkey -algorithm ed25519` writes it), and the key's public half.
    package static func sign(_ message: [UInt8], privateKeyPEM: String) throws(LicenseError) -> (
        signature: [UInt8], publicKey: [UInt8]
    ) {
        var signature = [UInt8](repeating: 0, count: 64)
        var publicKey = [UInt8](repeating: 0, count: 32)
        let pem = Array(privateKeyPEM.utf8)
        let result = pem.withUnsafeBufferPointer { pem in
            message.withUnsafeBufferPointer { message in
                signature.withUnsafeMutableBufferPointer { signature in
                    publicKey.withUnsafeMutableBufferPointer { publicKey in
                        pem.withMemoryRebound(to: CChar.self) { pem in
                            paywall_ed25519_sign(
                                pem.baseAddress, pem.count, message.baseAddress, message.count, signature.baseAddress,
                                publicKey.baseAddress)
                        }
                    }
                }
            }
        }
        switch result {
        case 0: return (signature, publicKey)
        case -1: throw unavailable()
        case -2:
            throw LicenseError(
                .cryptography,
                "the signing key is not an unencrypted PEM private key (\(reason())); "
                    + "make one with `openssl genpkey -algorithm ed25519 -out private.pem`")
        case -3:
            throw LicenseError(
                .cryptography,
                "the signing key is not an Ed25519 key; make one with `openssl genpkey -algorithm ed25519 -out private.pem`")
        default: throw LicenseError(.cryptography, reason())
        }
    }
}

/// HMAC-SHA256 (RFC 2104), by OpenSSL.
package enum HMACSHA256 {
    /// The 32-byte HMAC-SHA256 of `message` keyed by `key`.
    package static func mac(_ message: [UInt8], key: [UInt8]) throws(LicenseError) -> [UInt8] {
        var mac = [UInt8](repeating: 0, count: 32)
        let result = key.withUnsafeBufferPointer { key in
            message.withUnsafeBufferPointer { message in
                mac.withUnsafeMutableBufferPointer { mac in
                    paywall_hmac_sha256(key.baseAddress, key.count, message.baseAddress, message.count, mac.baseAddress)
                }
            }
        }
        if result != 0 { throw unavailable() }
        return mac
    }
}

private func reason() -> String { String(cString: paywall_crypto_error()) }

private func unavailable() -> LicenseError {
    let why = reason()
    return LicenseError(.cryptography, why.isEmpty ? "libcrypto (OpenSSL 3) refused the operation" : why)
}
