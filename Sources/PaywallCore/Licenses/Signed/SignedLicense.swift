import Foundation

/// A license verified offline with the catalog's `license_public_key`: ours,
/// `base64url(JSON payload) + "." + base64url(Ed25519 signature over the first part's bytes)`,
/// or a Keygen license file (`KeygenLicenseFile`). Only a license whose signature verified is
/// ever made; whether it holds now (its term, this machine) is `refusal(at:fingerprint:)`.
package struct SignedLicense: Equatable, Sendable {
    package enum Format: String, Sendable {
        /// Ours (`paywall license sign`).
        case signedLicense = "signed_license"
        /// Keygen's signed license file (`base64+ed25519`).
        case keygenLicenseFile = "keygen_license_file"
    }

    package var format: Format
    /// The license's id (`id`; a Keygen file: the license's id).
    package var id: String
    /// Ours: the catalog product's id. A Keygen file: Keygen's product id.
    package var product: String
    /// The entitlements granted, as signed (a Keygen file: none, the catalog product's).
    package var entitlements: [String]
    package var issuedAt: Date
    /// Nil: it does not expire.
    package var expiresAt: Date?
    /// Who it was sold to, for people.
    package var licensee: String?
    /// The `MachineFingerprint` it is bound to; nil: any machine.
    package var machine: String?
    /// A Keygen file whose license is suspended or banned.
    package var disabled: Bool
    /// A Keygen file: the license's policy id (a catalog's `keygen: {policy}`).
    package var policy: String?

    package init(
        format: Format = .signedLicense, id: String, product: String, entitlements: [String] = [], issuedAt: Date,
        expiresAt: Date? = nil, licensee: String? = nil, machine: String? = nil, disabled: Bool = false,
        policy: String? = nil
    ) {
        self.format = format
        self.id = id
        self.product = product
        self.entitlements = entitlements
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.licensee = licensee
        self.machine = machine
        self.disabled = disabled
        self.policy = policy
    }

    private static let fields: Set<String> = ["product", "entitlements", "expires_at", "licensee", "machine", "issued_at", "id"]

    /// Verifies `text` (ours or a Keygen license file, told apart by its shape) with `key` and
    /// reads it. Throws `.invalidSignature` for a changed or foreign one, `.rejected` for one
    /// of no known shape, each saying what and how to fix.
    package static func verify(_ text: String, with key: LicensePublicKey) throws(LicenseError) -> SignedLicense {
        let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.utf8.count <= LicenseKeyStore.maxLicenseFileBytes else {
            throw LicenseError(
                .rejected,
                "the license is \(text.utf8.count) bytes, more than any license file (at most "
                    + "\(LicenseKeyStore.maxLicenseFileBytes)); check that this is the license file from the seller")
        }
        if text.hasPrefix(SignedLicenseText.keygenHeader) { return try KeygenLicenseFile.verify(text, with: key) }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let payload = Base64URL.decode(parts[0]), let signature = Base64URL.decode(parts[1]) else {
            throw LicenseError(
                .rejected,
                "this is not a signed license: one is two base64url parts joined by a dot (or a Keygen license file "
                    + "starting \(SignedLicenseText.keygenHeader)); copy the whole license file the seller sent")
        }
        guard signature.count == 64, try key.verifies(signature, of: Array(parts[0].utf8)) else {
            throw LicenseError(
                .invalidSignature,
                "the license's signature does not verify with this app's license_public_key: it was changed after "
                    + "signing, or signed for another app; ask the seller for the license file again")
        }
        return try decode(payload)
    }

    /// The payload of a license whose signature verified.
    private static func decode(_ payload: [UInt8]) throws(LicenseError) -> SignedLicense {
        func bad(_ what: String) -> LicenseError {
            LicenseError(.rejected, "the signed license's payload \(what); the seller must sign it again")
        }
        guard let text = String(validating: payload, as: UTF8.self), let json = try? JSONValue(parsing: text),
            let object = json.objectValue
        else { throw bad("is not a JSON object") }
        let unknown = Set(object.keys).subtracting(fields).sorted()
        guard unknown.isEmpty else {
            throw bad("has unknown fields \(unknown.joined(separator: ", ")) (known: \(fields.sorted().joined(separator: ", ")))")
        }
        func string(_ key: String, required: Bool) throws(LicenseError) -> String? {
            switch object[key] {
            case .string(let value) where !value.isEmpty: return value
            case nil, .null?: if required { throw bad("has no \(key)") } else { return nil }
            default: throw bad("has a \(key) that is not a non-empty string")
            }
        }
        func date(_ key: String, required: Bool) throws(LicenseError) -> Date? {
            guard let text = try string(key, required: required) else { return nil }
            guard let date = ISODate.parse(text) else { throw bad("has \(key) \(text), not an ISO 8601 time") }
            return date
        }
        var entitlements: [String] = []
        switch object["entitlements"] {
        case nil, .null?: break
        case .array(let items)?:
            for item in items {
                guard case .string(let name) = item, !name.isEmpty else { throw bad("has an entitlement that is not a name") }
                entitlements.append(name)
            }
        default: throw bad("has entitlements that are not a list of names")
        }
        return SignedLicense(
            id: try string("id", required: true)!, product: try string("product", required: true)!,
            entitlements: entitlements, issuedAt: try date("issued_at", required: true)!,
            expiresAt: try date("expires_at", required: false), licensee: try string("licensee", required: false),
            machine: try string("machine", required: false))
    }

    /// Why the license does not hold at `now` on the machine whose fingerprint is
    /// `fingerprint`; nil when it does. `now` is the rollback-guarded clock (`LicenseClock`).
    package func refusal(at now: Date, fingerprint: String) -> LicenseError? {
        if let machine, machine != fingerprint {
            return LicenseError(
                .otherMachine,
                "license \(id) is for another machine (fingerprint \(machine.prefix(12))…, this one is "
                    + "\(fingerprint.prefix(12))…); ask the seller for a license for this machine "
                    + "(`paywall license fingerprint` prints its fingerprint)")
        }
        if disabled {
            return LicenseError(.rejected, "license \(id) is suspended at Keygen; contact the seller")
        }
        if let expiresAt, expiresAt <= now {
            return LicenseError(
                .rejected,
                "license \(id) expired on \(ISODate.text(expiresAt)); renew it or ask the seller for a new license file")
        }
        return nil
    }

    /// Our format of this license, signed with the Ed25519 private key `privateKeyPEM`, and
    /// the public key that verifies it (`paywall license sign`).
    package func signed(privateKeyPEM: String) throws(LicenseError) -> (text: String, publicKey: LicensePublicKey) {
        let payload = Base64URL.encode(Array(json(includingFormat: false).jsonText.utf8))
        let (signature, publicKey) = try Ed25519.sign(Array(payload.utf8), privateKeyPEM: privateKeyPEM)
        return (payload + "." + Base64URL.encode(signature), LicensePublicKey(bytes: publicKey))
    }

    /// The license as `paywall license verify` prints it (and, without `format`, as ours signs it).
    package func json(includingFormat: Bool = true) -> JSONValue {
        var object: [String: JSONValue] = [
            "id": .string(id), "product": .string(product), "entitlements": .array(entitlements.map(JSONValue.string)),
            "issued_at": .string(ISODate.text(issuedAt)),
        ]
        if includingFormat {
            object["format"] = .string(format.rawValue)
            object["expires_at"] = expiresAt.map { .string(ISODate.text($0)) } ?? .null
            object["licensee"] = licensee.map(JSONValue.string) ?? .null
            object["machine"] = machine.map(JSONValue.string) ?? .null
        } else {
            if let expiresAt { object["expires_at"] = .string(ISODate.text(expiresAt)) }
            if let licensee { object["licensee"] = .string(licensee) }
            if let machine { object["machine"] = .string(machine) }
        }
        return .object(object)
    }
}
