import Foundation

/// The readers every merchant's answer parser shares (`LemonSqueezyAnswer`, `PolarAnswer`,
/// `KeygenAnswer`, `GumroadAnswer`): a field that is not what the documentation says is a
/// `ParseError` naming it, which the parser turns into `malformedResponse`.
enum LicenseAnswerFields {
    struct ParseError: Error {
        let why: String
    }

    /// An answer that is not `document` (say "Keygen's JSON:API document"): `malformedResponse`,
    /// naming the request (`what`), the status and why.
    static func malformed(_ why: String, status: Int, what: String, document: String) -> LicenseError {
        LicenseError(
            .malformedResponse, "\(what): the answer (HTTP \(status)) is not \(document): \(why)", statusCode: status)
    }

    /// `body` parsed as a JSON object; anything else is `malformed`.
    static func object(_ body: Data, status: Int, what: String, document: String) throws(LicenseError) -> JSONValue {
        let root: JSONValue
        do {
            root = try JSONParser.parseFile(Array(body))
        } catch {
            throw malformed("\(error)", status: status, what: what, document: document)
        }
        guard case .object = root else { throw malformed("not a JSON object", status: status, what: what, document: document) }
        return root
    }

    /// A count of zero or more; nil for null or absent (no limit).
    static func count(_ value: JSONValue?, _ name: String) throws(ParseError) -> Int? {
        switch value {
        case nil, .null?: return nil
        case .number(let number)? where number >= 0 && number.rounded() == number && number < 1e9: return Int(number)
        default: throw ParseError(why: "\"\(name)\" must be a whole number or null")
        }
    }

    /// An ISO 8601 date (`2021-01-24T14:15:07.000000Z`); nil for null or absent.
    static func date(_ value: JSONValue?, _ name: String) throws(ParseError) -> Date? {
        switch value {
        case nil, .null?: return nil
        case .string(let text)?:
            guard let date = parseDate(text) else {
                throw ParseError(why: "\"\(name)\" is not an ISO 8601 date: \"\(text.prefix(40))\"")
            }
            return date
        default: throw ParseError(why: "\"\(name)\" must be an ISO 8601 date or null")
        }
    }

    /// Lemon Squeezy writes microseconds (`.000000Z`), which ISO8601DateFormatter does not read:
    /// the fraction is cut to milliseconds first.
    static func parseDate(_ text: String) -> Date? {
        var text = text
        if let dot = text.firstIndex(of: "."), let end = text[dot...].firstIndex(where: { !$0.isNumber && $0 != "." }) {
            let fraction = text[text.index(after: dot)..<end].prefix(3)
            text = String(text[..<dot]) + "." + fraction.padding(toLength: 3, withPad: "0", startingAt: 0) + text[end...]
        }
        let withFraction = ISO8601DateFormatter()
        withFraction.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return withFraction.date(from: text) ?? ISO8601DateFormatter().date(from: text)
    }
}
