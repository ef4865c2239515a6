import Foundation

/// Reads a License API answer: `{activated|valid|deactivated, error, license_key, instance,
/// meta}`. A 200 is the action's result; 400, 404 and 422 are refusals with an `error` field (and
/// the key, when the API describes it). Anything else is a `malformedResponse` error.
enum LemonSqueezyAnswer {
    static func parse(_ body: Data, status: Int, flag: String, what: String) throws(LicenseError) -> LicenseResponse {
        let document = "the License API's JSON"
        let malformed = { (why: String) in LicenseAnswerFields.malformed(why, status: status, what: what, document: document) }
        let root = try LicenseAnswerFields.object(body, status: status, what: what, document: document)
        let message = root["error"]?.stringValue
        let key: LicenseKeyDetails?
        do {
            key = try root["license_key"].flatMap { value throws(ParseError) in value == .null ? nil : try licenseKey(value) }
        } catch {
            throw malformed("license_key: \(error.why)")
        }
        guard status == 200 else {
            let words = message.map { "\"\($0)\"" } ?? "no reason given"
            let kind: LicenseError.Kind = status == 404 ? .notFound : .rejected
            throw LicenseError(kind, "\(what): refused (HTTP \(status)): \(words)", statusCode: status, licenseKey: key)
        }
        guard case .bool(let succeeded)? = root[flag] else { throw malformed("\"\(flag)\" must be true or false") }
        guard let key else { throw malformed("\"license_key\" is missing") }
        let instance: LicenseInstance?
        do {
            instance = try root["instance"].flatMap { value throws(ParseError) in value == .null ? nil : try Self.instance(value)
            }
        } catch {
            throw malformed("instance: \(error.why)")
        }
        return LicenseResponse(
            succeeded: succeeded, error: message, licenseKey: key, instance: instance,
            meta: root["meta"].map(meta) ?? LicenseMeta())
    }

    typealias ParseError = LicenseAnswerFields.ParseError

    private static func licenseKey(_ value: JSONValue) throws(ParseError) -> LicenseKeyDetails {
        guard case .object = value else { throw ParseError(why: "must be an object") }
        guard let id = identifier(value["id"]) else { throw ParseError(why: "\"id\" is missing") }
        guard let statusText = value["status"]?.stringValue, let status = LicenseKeyStatus(rawValue: statusText) else {
            throw ParseError(
                why: "\"status\" must be one of \(LicenseKeyStatus.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard let key = value["key"]?.stringValue, !key.isEmpty else { throw ParseError(why: "\"key\" is missing") }
        return LicenseKeyDetails(
            id: id, status: status, key: key,
            activationLimit: try LicenseAnswerFields.count(value["activation_limit"], "activation_limit"),
            activationUsage: try LicenseAnswerFields.count(value["activation_usage"], "activation_usage") ?? 0,
            createdAt: try LicenseAnswerFields.date(value["created_at"], "created_at"),
            expiresAt: try LicenseAnswerFields.date(value["expires_at"], "expires_at"))
    }

    private static func instance(_ value: JSONValue) throws(ParseError) -> LicenseInstance {
        guard case .object = value else { throw ParseError(why: "must be an object") }
        guard let id = identifier(value["id"]) else { throw ParseError(why: "\"id\" is missing") }
        return LicenseInstance(
            id: id, name: value["name"]?.stringValue ?? "",
            createdAt: try LicenseAnswerFields.date(value["created_at"], "created_at"))
    }

    private static func meta(_ value: JSONValue) -> LicenseMeta {
        let text = { (key: String) in identifier(value[key]) }
        return LicenseMeta(
            storeId: text("store_id"), orderId: text("order_id"), productId: text("product_id"),
            productName: text("product_name"), variantId: text("variant_id"), variantName: text("variant_name"),
            customerId: text("customer_id"), customerName: text("customer_name"),
            customerEmail: text("customer_email"))
    }

    /// An id or name written as a string or a whole number.
    private static func identifier(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let text)? where !text.isEmpty: text
        case .number(let number)? where number.rounded() == number && abs(number) < 1e15: String(Int64(number))
        default: nil
        }
    }
}
