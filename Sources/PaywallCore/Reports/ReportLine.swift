import Foundation

/// One event of an event log as `paywall report` reads it: a line written by `--events`
/// (`PaywallEvent.jsonLine`), or one event of a webhook body. The fields a report needs
/// beyond name and params (`user_id`, `uuid`, `locale`, `assignments`, `price`, `currency`)
/// are read at the top level of the line or, failing that, from its params; each may be absent.
package struct ReportLine: Sendable {
    package var name: EventName
    package var params: [String: JSONValue]
    package var timestamp: Date?
    package var userId: String?
    package var uuid: String?
    package var locale: String?
    /// The user's confirmed variants, experiment id -> variant id (`transaction_*` events).
    package var assignments: [String: String]
    /// The price text of the product bought, as a number, and its ISO 4217 currency.
    package var price: Double?
    package var currency: String?

    package init(
        name: EventName, params: [String: JSONValue] = [:], timestamp: Date? = nil, userId: String? = nil,
        uuid: String? = nil, locale: String? = nil, assignments: [String: String] = [:], price: Double? = nil,
        currency: String? = nil
    ) {
        self.name = name
        self.params = params
        self.timestamp = timestamp
        self.userId = userId
        self.uuid = uuid
        self.locale = locale
        self.assignments = assignments
        self.price = price
        self.currency = currency
    }

    /// Why a line is not an event (the reader names its file and line).
    package enum Problem: Error, Equatable, CustomStringConvertible {
        case notJSON(String)
        case notAnEvent
        package var description: String {
            switch self {
            case .notJSON(let reason): "not JSON (\(reason))"
            case .notAnEvent: "not an event (a JSON object with a string \"name\" and an object \"params\")"
            }
        }
    }

    /// The events of one line of text: one event, or each event of a webhook body
    /// `{"events": [...]}`. An event whose name this runtime does not know is left out (a newer
    /// runtime's events, or an app's own), not an error.
    package static func parse(_ text: String) throws(Problem) -> [ReportLine] {
        let value: JSONValue
        do { value = try JSONValue(parsing: text) } catch { throw .notJSON("\(error)") }
        if let events = value["events"]?.arrayValue, value["name"] == nil {
            var lines: [ReportLine] = []
            for event in events { lines += try one(event).map { [$0] } ?? [] }
            return lines
        }
        return try one(value).map { [$0] } ?? []
    }

    private static func one(_ value: JSONValue) throws(Problem) -> ReportLine? {
        guard let object = value.objectValue, let raw = object["name"]?.stringValue else { throw .notAnEvent }
        let params = object["params"]?.objectValue ?? [:]
        if let given = object["params"], given.objectValue == nil { throw .notAnEvent }
        guard let name = EventName(rawValue: raw) else { return nil }
        func field(_ key: String) -> JSONValue? {
            if let top = object[key], top != .null { return top }
            if let inner = params[key], inner != .null { return inner }
            return nil
        }
        var assignments: [String: String] = [:]
        for (experiment, variant) in field("assignments")?.objectValue ?? [:] {
            if let variant = variant.stringValue { assignments[experiment] = variant }
        }
        let price: Double? =
            switch field("price") {
            case .number(let n)?: n
            case .string(let s)?: Double(s.trimmingCharacters(in: .whitespaces))
            default: nil
            }
        return ReportLine(
            name: name, params: params, timestamp: object["timestamp"]?.stringValue.flatMap(Self.date),
            userId: field("user_id")?.stringValue, uuid: field("uuid")?.stringValue,
            locale: field("locale")?.stringValue, assignments: assignments, price: price,
            currency: field("currency")?.stringValue)
    }

    /// The event log's ISO 8601 time stamps, with or without fractional seconds.
    private static func date(_ text: String) -> Date? {
        (try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
            ?? (try? Date(text, strategy: Date.ISO8601FormatStyle()))
    }
}
