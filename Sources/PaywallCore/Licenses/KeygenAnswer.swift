import Foundation

/// Reads Keygen's JSON:API answers: a validation (`{data: license|null, meta: {valid, detail,
/// code}}`), a machine (`{data: machine}`), and refusals (`{errors: [{title, detail, code}]}`).
/// Anything else is a `malformedResponse` error.
enum KeygenAnswer {
    /// A `validate-key` answer about a key Keygen knows.
    struct Validation {
        var key: LicenseKeyDetails
        var meta: LicenseMeta
        var valid: Bool
        var code: String
        var detail: String?
        /// The license's own status is EXPIRED, whatever the code: a policy that checks scopes
        /// first (RESTRICT_ACCESS, Keygen's default, MAINTAIN_ACCESS, ALLOW_ACCESS) answers a
        /// machine-less expired license with "no machine", so only a validation on a machine
        /// tells whether the policy keeps access after the expiry.
        var licenseExpired: Bool

        /// Codes of a key that is fine but not activated on this machine (or not as this instance).
        static let notActivatedHere: Set<String> = [
            "NO_MACHINE", "NO_MACHINES", "FINGERPRINT_SCOPE_MISMATCH", "MACHINE_SCOPE_MISMATCH",
        ]

        /// `forInstance`: the question was whether this machine's activation stands, which a key
        /// not activated here does not pass; otherwise only the key itself is asked about.
        func response(forInstance: Bool) -> LicenseResponse {
            let succeeded = valid || (!forInstance && Self.notActivatedHere.contains(code))
            return LicenseResponse(
                succeeded: succeeded, error: valid ? nil : "\(detail ?? "not valid") (\(code))", licenseKey: key, meta: meta)
        }
    }

    /// What creating a machine came to.
    enum Creation {
        case created(LicenseInstance)
        /// This license already has a machine with this fingerprint.
        case fingerprintTaken
    }

    static func validation(_ body: Data, status: Int, what: String) throws(LicenseError) -> Validation {
        let root = try object(body, status: status, what: what)
        guard status == 200 else { throw refusal(root, status: status, what: what) }
        let malformed = { (why: String) in Self.malformed(why, status: status, what: what) }
        guard case .object = root["meta"] ?? .null, case .bool(let valid)? = root["meta"]?["valid"] else {
            throw malformed("\"meta.valid\" must be true or false")
        }
        guard let code = root["meta"]?["code"]?.stringValue, !code.isEmpty else {
            throw malformed("\"meta.code\" is missing")
        }
        let detail = root["meta"]?["detail"]?.stringValue
        guard let data = root["data"], data != .null else {
            guard code == "NOT_FOUND" else { throw malformed("\"data\" is missing, and \"meta.code\" is \(code), not NOT_FOUND") }
            throw LicenseError(
                .notFound, "\(what): Keygen does not know this key (\(detail ?? "does not exist"))", statusCode: status)
        }
        let license: (LicenseKeyDetails, LicenseMeta)
        do {
            license = try self.license(data, valid: valid, code: code)
        } catch {
            throw malformed("data: \(error.why)")
        }
        return Validation(
            key: license.0, meta: license.1, valid: valid, code: code, detail: detail,
            licenseExpired: data["attributes"]?["status"]?.stringValue == "EXPIRED")
    }

    static func machine(_ body: Data, status: Int, key: LicenseKeyDetails, what: String) throws(LicenseError) -> Creation {
        let root = try object(body, status: status, what: what)
        switch status {
        case 201:
            do {
                return .created(try instance(root["data"]))
            } catch {
                throw malformed("data: \(error.why)", status: status, what: what)
            }
        case 422:
            let errors = try self.errors(root, status: status, what: what)
            if errors.contains(where: { $0.code == "MACHINE_LIMIT_EXCEEDED" || $0.detail.contains("machine count has exceeded") })
            {
                var full = key
                if let limit = key.activationLimit { full.activationUsage = max(key.activationUsage, limit) }
                throw LicenseError(
                    .rejected,
                    "\(what): the key is already activated on \(full.activationUsage) machines, its limit"
                        + "\(key.activationLimit.map { " of \($0)" } ?? ""); deactivate it on another machine, or buy another license "
                        + "(Keygen: \(words(errors)))",
                    statusCode: status, licenseKey: full)
            }
            // "has already been taken" alone is this license's own machine; "... for this account"
            // (or product, policy) is another license's, which stays a refusal.
            if errors.contains(where: { $0.code == "FINGERPRINT_TAKEN" && $0.detail == "has already been taken" }) {
                return .fingerprintTaken
            }
            throw refusal(root, status: status, what: what)
        default:
            throw refusal(root, status: status, what: what)
        }
    }

    static func existingMachine(_ body: Data, status: Int, what: String) throws(LicenseError) -> LicenseInstance {
        let root = try object(body, status: status, what: what)
        guard status == 200 else { throw refusal(root, status: status, what: what) }
        do {
            return try instance(root["data"])
        } catch {
            throw malformed("data: \(error.why)", status: status, what: what)
        }
    }

    /// A 204 deleted the machine; 404: Keygen no longer has it.
    static func deleted(_ body: Data, status: Int, what: String) throws(LicenseError) {
        if status == 204 { return }
        let root = try object(body, status: status, what: what)
        if status == 404 {
            throw LicenseError(
                .notFound, "\(what): Keygen has no such machine (\(words(try errors(root, status: status, what: what))))",
                statusCode: status)
        }
        throw refusal(root, status: status, what: what)
    }

    typealias ParseError = LicenseAnswerFields.ParseError

    struct APIError {
        var code: String?
        var detail: String
    }

    /// A refusal (4xx) in Keygen's words; 401 and 403 name the authentication strategy, which is
    /// what a seller must change when Keygen refuses a license key as credentials.
    private static func refusal(_ root: JSONValue, status: Int, what: String) -> LicenseError {
        let errors: [APIError]
        do {
            errors = try self.errors(root, status: status, what: what)
        } catch {
            return error
        }
        let said = words(errors)
        switch status {
        case 401, 403:
            return LicenseError(
                .rejected,
                "\(what): Keygen refused the license key as credentials (HTTP \(status): \(said)); the seller must set the "
                    + "policy's authentication strategy to LICENSE or MIXED so an app can activate with the key",
                statusCode: status)
        case 404:
            return LicenseError(
                .rejected,
                "\(what): Keygen has no such account or resource (HTTP 404: \(said)); check the catalog's keygen.account "
                    + "and keygen.api_base_url",
                statusCode: status)
        default:
            return LicenseError(.rejected, "\(what): refused (HTTP \(status)): \(said)", statusCode: status)
        }
    }

    private static func words(_ errors: [APIError]) -> String {
        errors.map { error in error.code.map { "\(error.detail) (\($0))" } ?? error.detail }.joined(separator: "; ")
    }

    private static func errors(_ root: JSONValue, status: Int, what: String) throws(LicenseError) -> [APIError] {
        guard let list = root["errors"]?.arrayValue, !list.isEmpty else {
            throw malformed("\"errors\" must be a list of errors", status: status, what: what)
        }
        var errors: [APIError] = []
        for error in list {
            guard case .object = error, let text = error["detail"]?.stringValue ?? error["title"]?.stringValue else {
                throw malformed("each error needs a \"title\" or \"detail\"", status: status, what: what)
            }
            errors.append(APIError(code: error["code"]?.stringValue, detail: String(text.prefix(300))))
        }
        return errors
    }

    private static let document = "Keygen's JSON:API document"

    private static func object(_ body: Data, status: Int, what: String) throws(LicenseError) -> JSONValue {
        try LicenseAnswerFields.object(body, status: status, what: what, document: document)
    }

    private static func malformed(_ why: String, status: Int, what: String) -> LicenseError {
        LicenseAnswerFields.malformed(why, status: status, what: what, document: document)
    }

    /// The documented values of a license's `status`.
    private static let statuses: Set<String> = ["ACTIVE", "INACTIVE", "EXPIRING", "EXPIRED", "SUSPENDED", "BANNED"]

    /// A license resource: the key's details, and its product and policy as `meta.productId` /
    /// `meta.variantId` (the catalog's `keygen: {product, policy}`). The validation's `code`
    /// decides expired and disabled; a good key with no machines is `inactive`.
    private static func license(_ value: JSONValue, valid: Bool, code: String) throws(ParseError) -> (
        LicenseKeyDetails, LicenseMeta
    ) {
        guard case .object = value, value["type"]?.stringValue == "licenses" else {
            throw ParseError(why: "must be a \"licenses\" resource")
        }
        guard let id = value["id"]?.stringValue, !id.isEmpty else { throw ParseError(why: "\"id\" is missing") }
        let attributes = value["attributes"] ?? .null
        guard case .object = attributes else { throw ParseError(why: "\"attributes\" is missing") }
        guard let key = attributes["key"]?.stringValue, !key.isEmpty else {
            throw ParseError(why: "\"attributes.key\" is missing")
        }
        guard let state = attributes["status"]?.stringValue, statuses.contains(state) else {
            throw ParseError(why: "\"attributes.status\" must be one of \(statuses.sorted().joined(separator: ", "))")
        }
        let relationships = value["relationships"] ?? .null
        guard let product = relationships["product"]?["data"]?["id"]?.stringValue, !product.isEmpty else {
            throw ParseError(why: "\"relationships.product.data.id\" is missing")
        }
        guard let policy = relationships["policy"]?["data"]?["id"]?.stringValue, !policy.isEmpty else {
            throw ParseError(why: "\"relationships.policy.data.id\" is missing")
        }
        let machines =
            try LicenseAnswerFields.count(relationships["machines"]?["meta"]?["count"], "relationships.machines.meta.count") ?? 0
        // A policy whose expiration strategy is MAINTAIN_ACCESS or ALLOW_ACCESS keeps an expired
        // license valid (valid, code EXPIRED): its expiry no longer ends access; Keygen's word does.
        let keepsAccessAfterExpiry = valid && code == "EXPIRED"
        let status: LicenseKeyStatus =
            switch code {
            case "EXPIRED" where keepsAccessAfterExpiry: .active
            case "EXPIRED": .expired
            case "SUSPENDED", "BANNED": .disabled
            case _ where state == "SUSPENDED" || state == "BANNED": .disabled
            // Good but on no machine yet; a refusal for any other reason stays `active` (not
            // valid), which the store refuses instead of activating.
            case _ where machines == 0 && (valid || Validation.notActivatedHere.contains(code)): .inactive
            default: .active
            }
        let details = LicenseKeyDetails(
            id: id, status: status, key: key,
            activationLimit: try LicenseAnswerFields.count(attributes["maxMachines"], "attributes.maxMachines"),
            activationUsage: machines, createdAt: try LicenseAnswerFields.date(attributes["created"], "attributes.created"),
            expiresAt: keepsAccessAfterExpiry ? nil : try LicenseAnswerFields.date(attributes["expiry"], "attributes.expiry"))
        let meta = LicenseMeta(
            productId: product, productName: attributes["name"]?.stringValue, variantId: policy,
            customerId: relationships["owner"]?["data"]?["id"]?.stringValue)
        return (details, meta)
    }

    private static func instance(_ value: JSONValue?) throws(ParseError) -> LicenseInstance {
        guard let value, case .object = value, value["type"]?.stringValue == "machines" else {
            throw ParseError(why: "must be a \"machines\" resource")
        }
        guard let id = value["id"]?.stringValue, !id.isEmpty else { throw ParseError(why: "\"id\" is missing") }
        return LicenseInstance(
            id: id, name: value["attributes"]?["name"]?.stringValue ?? "",
            createdAt: try LicenseAnswerFields.date(value["attributes"]?["created"], "attributes.created"))
    }

}
