import Foundation

/// Reads an answer of Gumroad's `POST /v2/licenses/verify`: `{success, uses, purchase}` (or
/// `imported_customer` instead of `purchase`, for a key the seller imported), and refusals
/// `{success: false, message}` with 404 (unknown key, disabled key, access revoked) or 400. A
/// `success: false` with 200 is read the same way as with 404. Anything else is a
/// `malformedResponse` error.
///
/// The key's status: `disabled` when the purchase is `refunded`, `chargebacked`, or `disputed`
/// and not `dispute_won`; else `expired` when the earliest of `subscription_ended_at`,
/// `subscription_cancelled_at` and `subscription_failed_at` is at or before `now` (a cancelled
/// membership's date is when its paid time ends, so one in the future is the key's expiry); else
/// `active`. Gumroad's own refusals "This license key has been disabled." and "Access to the
/// purchase associated with this license has expired." (the seller revoked access) are
/// `disabled` refusals; "That license does not exist for the provided product." is `notFound`.
enum GumroadAnswer {
    static let unknownKey = "That license does not exist for the provided product."
    static let disabledKey = "This license key has been disabled."
    static let revokedAccess = "Access to the purchase associated with this license has expired."

    /// `productId`: the product asked about (an imported customer's answer names none).
    static func parse(_ body: Data, status: Int, key: String, productId: String, now: Date, what: String)
        throws(LicenseError) -> LicenseResponse
    {
        let document = "Gumroad's license JSON"
        let malformed = { (why: String) in LicenseAnswerFields.malformed(why, status: status, what: what, document: document) }
        let root = try LicenseAnswerFields.object(body, status: status, what: what, document: document)
        guard case .bool(let success)? = root["success"] else { throw malformed("\"success\" must be true or false") }
        let message: String?
        switch root["message"] {
        case nil, .null?: message = nil
        case .string(let text)?: message = text
        default: throw malformed("\"message\" must be text")
        }
        guard success, status == 200 else { throw refusal(status: status, message: message, key: key, what: what) }
        do throws(ParseError) {
            let uses = try count(root["uses"], "uses")
            if let purchase = root["purchase"], purchase != .null {
                return try answer(purchase: purchase, uses: uses, key: key, now: now)
            }
            if let customer = root["imported_customer"], customer != .null {
                return try answer(importedCustomer: customer, uses: uses, key: key, productId: productId)
            }
            throw ParseError(why: "neither \"purchase\" nor \"imported_customer\" is given")
        } catch {
            throw malformed(error.why)
        }
    }

    /// The key's id here: its SHA-256, so no id (a transaction's, a row's) shows the key.
    static func keyId(_ key: String) -> String { String(SHA256.hex(Data(key.utf8)).prefix(32)) }

    typealias ParseError = LicenseAnswerFields.ParseError

    private static func refusal(status: Int, message: String?, key: String, what: String) -> LicenseError {
        let words = "refused (HTTP \(status)): \(message.map { "\"\($0)\"" } ?? "no reason given")"
        let refused = { (status: LicenseKeyStatus) in
            LicenseKeyDetails(
                id: keyId(key), status: status, key: key, activationLimit: nil, activationUsage: 0, createdAt: nil,
                expiresAt: nil)
        }
        switch message {
        case disabledKey?, revokedAccess?:
            return LicenseError(.rejected, "\(what): \(words)", statusCode: status, licenseKey: refused(.disabled))
        case unknownKey?:
            return LicenseError(.notFound, "\(what): \(words)", statusCode: status)
        default:
            // Gumroad's 404 is "the requested item doesn't exist"; 400 is a request it refuses.
            return LicenseError(status == 404 ? .notFound : .rejected, "\(what): \(words)", statusCode: status)
        }
    }

    private static func answer(purchase: JSONValue, uses: Int, key: String, now: Date) throws(ParseError) -> LicenseResponse {
        guard case .object = purchase else { throw ParseError(why: "\"purchase\" must be an object") }
        guard let productId = try text(purchase["product_id"], "purchase.product_id") else {
            throw ParseError(why: "\"purchase.product_id\" is missing")
        }
        let flag = { (name: String) throws(ParseError) -> Bool in
            switch purchase[name] {
            case nil, .null?: return false
            case .bool(let value)?: return value
            default: throw ParseError(why: "\"purchase.\(name)\" must be true or false")
            }
        }
        let (refunded, chargebacked) = (try flag("refunded"), try flag("chargebacked"))
        let (disputed, disputeWon) = (try flag("disputed"), try flag("dispute_won"))
        let disabled = refunded || chargebacked || (disputed && !disputeWon)
        var ends: Date?
        for name in ["subscription_ended_at", "subscription_cancelled_at", "subscription_failed_at"] {
            if let date = try LicenseAnswerFields.date(purchase[name], "purchase.\(name)") { ends = min(ends ?? date, date) }
        }
        let status: LicenseKeyStatus = disabled ? .disabled : (ends.map { $0 <= now } == true ? .expired : .active)
        let created = try LicenseAnswerFields.date(purchase["created_at"], "purchase.created_at")
        let sold = try LicenseAnswerFields.date(purchase["sale_timestamp"], "purchase.sale_timestamp")
        let orderNumber = try identifier(purchase["order_number"], "purchase.order_number")
        let saleId = try text(purchase["sale_id"], "purchase.sale_id")
        let details = LicenseKeyDetails(
            id: keyId(key), status: status, key: key, activationLimit: nil, activationUsage: uses,
            createdAt: created ?? sold, expiresAt: ends)
        let variants = purchase["variants"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        let meta = LicenseMeta(
            storeId: try text(purchase["seller_id"], "purchase.seller_id"),
            orderId: orderNumber ?? saleId,
            productId: productId, productName: try text(purchase["product_name"], "purchase.product_name"),
            variantName: variants, customerId: try text(purchase["purchaser_id"], "purchase.purchaser_id"),
            customerName: try text(purchase["full_name"], "purchase.full_name"),
            customerEmail: try text(purchase["email"], "purchase.email"))
        return LicenseResponse(succeeded: true, licenseKey: details, meta: meta)
    }

    /// A key the seller imported (no purchase at Gumroad): it is the asked product's, active.
    private static func answer(importedCustomer customer: JSONValue, uses: Int, key: String, productId: String)
        throws(ParseError) -> LicenseResponse
    {
        guard case .object = customer else { throw ParseError(why: "\"imported_customer\" must be an object") }
        let details = LicenseKeyDetails(
            id: keyId(key), status: .active, key: key, activationLimit: nil, activationUsage: uses,
            createdAt: try LicenseAnswerFields.date(customer["created_at"], "imported_customer.created_at"), expiresAt: nil)
        let meta = LicenseMeta(
            productId: productId, productName: try text(customer["product_name"], "imported_customer.product_name"),
            customerEmail: try text(customer["email"], "imported_customer.email"))
        return LicenseResponse(succeeded: true, licenseKey: details, meta: meta)
    }

    /// Text, nil when absent, null or empty.
    private static func text(_ value: JSONValue?, _ name: String) throws(ParseError) -> String? {
        switch value {
        case nil, .null?: return nil
        case .string(let text)?: return text.isEmpty ? nil : text
        default: throw ParseError(why: "\"\(name)\" must be text")
        }
    }

    /// A whole number written as a number or as text (`order_number`), kept as text.
    private static func identifier(_ value: JSONValue?, _ name: String) throws(ParseError) -> String? {
        switch value {
        case .number(let number)? where number >= 0 && number.rounded() == number && number < 1e15:
            return String(Int64(number))
        case .number?: throw ParseError(why: "\"\(name)\" must be a whole number")
        default: return try text(value, name)
        }
    }

    /// `uses`: a count of zero or more, required.
    private static func count(_ value: JSONValue?, _ name: String) throws(ParseError) -> Int {
        guard case .number(let number)? = value, number >= 0, number.rounded() == number, number < 1e9 else {
            throw ParseError(why: "\"\(name)\" must be a whole number of zero or more")
        }
        return Int(number)
    }

}
