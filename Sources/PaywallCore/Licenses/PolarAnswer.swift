import Foundation

/// Reads Polar's customer-portal license-key answers: a `ValidatedLicenseKey` (validate: the key
/// with `activation` when one was named), a `LicenseKeyActivationRead` (activate: the activation
/// with its `license_key`), and the refusals `ResourceNotFound` (404), `NotPermitted` (403) with
/// a `detail` text, and `HTTPValidationError` (422) with a `detail` list. Anything else is a
/// `malformedResponse` error.
///
/// Polar's key `status` is `granted`, `revoked` or `disabled`: `granted` is `active` (or
/// `expired` once its `expires_at` has passed, which Polar does not say in `status`), the other
/// two are `disabled`. Polar's answers do not count a key's activations (`usage` is its usage
/// quota, not activations): `activationUsage` is the activations the answer shows, 1 when it
/// names one (this machine's), else 0.
enum PolarAnswer {
    /// A refusal's words: `detail` as text (404, 403), or each `HTTPValidationError` item's
    /// `msg` with its `loc` (422).
    static func refusal(_ body: Data, status: Int, what: String) throws(LicenseError) -> String {
        let root = try object(body, status: status, what: what)
        switch root["detail"] {
        case .string(let text)?: return text
        case .array(let items)?:
            let words = items.compactMap { item -> String? in
                guard let message = item["msg"]?.stringValue else { return nil }
                let place = (item["loc"]?.arrayValue ?? []).map { $0.stringValue ?? ($0.jsonText) }.joined(separator: ".")
                return place.isEmpty ? message : "\(place): \(message)"
            }
            guard !words.isEmpty, words.count == items.count else {
                throw malformed(status, what, "\"detail\" items must each have a \"msg\"")
            }
            return words.joined(separator: "; ")
        default: throw malformed(status, what, "\"detail\" must be a text or a list of validation errors")
        }
    }

    /// A `ValidatedLicenseKey`: the key, its purchase, and the activation named (`activation_id`).
    static func validated(_ body: Data, status: Int, what: String, now: Date) throws(LicenseError) -> LicenseResponse {
        let root = try object(body, status: status, what: what)
        do throws(ParseError) {
            let instance = try root["activation"].flatMap { value throws(ParseError) in
                value == .null ? nil : try activation(value)
            }
            let key = try licenseKey(root, activations: instance == nil ? 0 : 1, now: now)
            return LicenseResponse(
                succeeded: key.status == .active, licenseKey: key, instance: instance, meta: try meta(root))
        } catch {
            throw malformed(status, what, error.why)
        }
    }

    /// A `LicenseKeyActivationRead`: the new activation and its `license_key`.
    static func activated(_ body: Data, status: Int, what: String, now: Date) throws(LicenseError) -> LicenseResponse {
        let root = try object(body, status: status, what: what)
        do throws(ParseError) {
            let instance = try activation(root)
            guard let keyValue = root["license_key"], case .object = keyValue else {
                throw ParseError(why: "\"license_key\" must be an object")
            }
            let key = try licenseKey(keyValue, activations: 1, now: now)
            return LicenseResponse(
                succeeded: key.status == .active, licenseKey: key, instance: instance, meta: try meta(keyValue))
        } catch {
            throw malformed(status, what, error.why)
        }
    }

    /// The same reading of counts and dates as Lemon Squeezy's answers.
    typealias ParseError = LicenseAnswerFields.ParseError

    private static let document = "the Polar API's JSON"

    private static func malformed(_ status: Int, _ what: String, _ why: String) -> LicenseError {
        LicenseAnswerFields.malformed(why, status: status, what: what, document: document)
    }

    private static func object(_ body: Data, status: Int, what: String) throws(LicenseError) -> JSONValue {
        try LicenseAnswerFields.object(body, status: status, what: what, document: document)
    }

    /// The key fields a `ValidatedLicenseKey` and a `LicenseKeyRead` share.
    private static func licenseKey(_ value: JSONValue, activations: Int, now: Date) throws(ParseError) -> LicenseKeyDetails {
        let id = try text(value, "id")
        let key = try text(value, "key")
        let expiresAt = try LicenseAnswerFields.date(value["expires_at"], "expires_at")
        let status: LicenseKeyStatus
        switch value["status"]?.stringValue {
        case "granted": status = expiresAt.map { now >= $0 } == true ? .expired : .active
        case "revoked", "disabled": status = .disabled
        default: throw ParseError(why: "\"status\" must be one of granted, revoked, disabled")
        }
        return LicenseKeyDetails(
            id: id, status: status, key: key,
            activationLimit: try LicenseAnswerFields.count(value["limit_activations"], "limit_activations"),
            activationUsage: activations, createdAt: try LicenseAnswerFields.date(value["created_at"], "created_at"),
            expiresAt: expiresAt)
    }

    /// A `LicenseKeyActivationBase`: `id`, `label`, `created_at`.
    private static func activation(_ value: JSONValue) throws(ParseError) -> LicenseInstance {
        guard case .object = value else { throw ParseError(why: "the activation must be an object") }
        return LicenseInstance(
            id: try text(value, "id"), name: value["label"]?.stringValue ?? "",
            createdAt: try LicenseAnswerFields.date(value["created_at"], "created_at"))
    }

    /// The organization is the store, the benefit is the product (`polar: {benefit_id}`).
    private static func meta(_ value: JSONValue) throws(ParseError) -> LicenseMeta {
        let customer = value["customer"]
        let words = { (key: String) in customer?[key]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } }
        return LicenseMeta(
            storeId: try text(value, "organization_id"), productId: try text(value, "benefit_id"),
            customerId: value["customer_id"]?.stringValue ?? words("id"), customerName: words("name"),
            customerEmail: words("email"))
    }

    /// A documented id or text field: a non-empty string.
    private static func text(_ value: JSONValue, _ name: String) throws(ParseError) -> String {
        guard let text = value[name]?.stringValue, !text.isEmpty else {
            throw ParseError(why: "\"\(name)\" must be a non-empty string")
        }
        return text
    }
}
