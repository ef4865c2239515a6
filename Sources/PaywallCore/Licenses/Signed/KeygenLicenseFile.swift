import Foundation

/// Keygen's signed license file (https://keygen.sh/docs/api/cryptography/): between
/// `-----BEGIN LICENSE FILE-----` and `-----END LICENSE FILE-----`, base64 of
/// `{"enc", "sig", "alg"}`, where `sig` is the Ed25519 signature of `"license/" + enc` and `enc`
/// is base64 of the license document `{"data": {license}, "included": [...], "meta": {issued,
/// expiry, ttl}}`. Only `alg` `base64+ed25519` is read: encrypted files (`aes-256-gcm+ed25519`,
/// made with a license key as the secret) and machine files are not supported.
package enum KeygenLicenseFile {
    package static let footer = "-----END LICENSE FILE-----"

    /// Verifies the file `text` with `key` (the account's Ed25519 public key) and reads its
    /// license. The license's expiry is the earlier of the license's own and the file's (its
    /// TTL, after which Keygen says a new file must be checked out).
    package static func verify(_ text: String, with key: LicensePublicKey) throws(LicenseError) -> SignedLicense {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        guard lines.first == SignedLicenseText.keygenHeader, lines.last == footer, lines.count > 2 else {
            throw refused("does not end with \(footer)")
        }
        guard let certificate = Data(base64Encoded: lines.dropFirst().dropLast().joined()),
            let object = (try? JSONValue(parsing: String(decoding: certificate, as: UTF8.self)))?.objectValue,
            let alg = object["alg"]?.stringValue, let enc = object["enc"]?.stringValue,
            let sig = object["sig"]?.stringValue
        else { throw refused("is not base64 of {\"enc\", \"sig\", \"alg\"}") }
        guard alg == "base64+ed25519" else {
            if alg.hasPrefix("aes-256-gcm") {
                throw LicenseError(
                    .rejected,
                    "this Keygen license file is encrypted (\(alg)); encrypted license files are not supported: "
                        + "ask the seller for an unencrypted one (check out the license file without encrypt)")
            }
            throw refused("is signed with \(alg); only base64+ed25519 is supported")
        }
        guard let signature = Data(base64Encoded: sig), signature.count == 64,
            try key.verifies([UInt8](signature), of: Array(("license/" + enc).utf8))
        else {
            throw LicenseError(
                .invalidSignature,
                "the Keygen license file's signature does not verify with this app's license_public_key: it was changed "
                    + "after signing, is a machine file, or is from another Keygen account; check the file out again")
        }
        guard let document = Data(base64Encoded: enc).flatMap({ try? JSONValue(parsing: String(decoding: $0, as: UTF8.self)) })
        else { throw refused("has an enc that is not base64 JSON") }
        return try license(document)
    }

    private static func license(_ document: JSONValue) throws(LicenseError) -> SignedLicense {
        let data = document["data"]
        guard data?["type"]?.stringValue == "licenses", let id = data?["id"]?.stringValue,
            let attributes = data?["attributes"]?.objectValue
        else { throw refused("holds no license (data.type \"licenses\" with an id and attributes)") }
        guard let product = data?["relationships"]?["product"]?["data"]?["id"]?.stringValue else {
            throw refused("names no product (data.relationships.product.data.id)")
        }
        guard let issued = document["meta"]?["issued"]?.stringValue.flatMap(ISODate.parse) else {
            throw refused("has no meta.issued time")
        }
        func date(_ value: JSONValue?, _ name: String) throws(LicenseError) -> Date? {
            switch value {
            case nil, .null?: return nil
            case .string(let text)?:
                guard let date = ISODate.parse(text) else { throw refused("has \(name) \(text), not an ISO 8601 time") }
                return date
            default: throw refused("has a \(name) that is not a time")
            }
        }
        let expiries = [
            try date(attributes["expiry"], "data.attributes.expiry"), try date(document["meta"]?["expiry"], "meta.expiry"),
        ]
        // Entitlements come as included resources when the file was checked out with include=entitlements.
        let entitlements = (document["included"]?.arrayValue ?? []).compactMap { item in
            item["type"]?.stringValue == "entitlements" ? item["attributes"]?["code"]?.stringValue : nil
        }
        let status = attributes["status"]?.stringValue?.uppercased()
        return SignedLicense(
            format: .keygenLicenseFile, id: id, product: product, entitlements: entitlements, issuedAt: issued,
            expiresAt: expiries.compactMap { $0 }.min(), licensee: attributes["name"]?.stringValue,
            disabled: status == "SUSPENDED" || status == "BANNED",
            policy: data?["relationships"]?["policy"]?["data"]?["id"]?.stringValue)
    }

    private static func refused(_ what: String) -> LicenseError {
        LicenseError(
            .rejected,
            "this Keygen license file \(what); copy the whole file, from \(SignedLicenseText.keygenHeader) to \(footer)")
    }
}
