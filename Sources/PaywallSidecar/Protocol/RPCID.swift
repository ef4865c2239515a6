import PaywallCore

/// A request's id as the app sent it, answered with the very same JSON text: a number keeps
/// the digits it was written with (2^53+1, 1.23e29 and -0 would not survive a `Double`), so
/// two ids are the same only when they are written the same.
package struct RPCID: Hashable, Sendable, CustomStringConvertible {
    /// The id's JSON text, written back as it came.
    package let text: String
    /// The id as a value (a number's last digits may be rounded off here).
    package let value: JSONValue

    package static let null = RPCID(.null)

    /// An id the server makes (`"paywall-1"`), written as its value's JSON.
    package init(_ value: JSONValue) {
        self.value = value
        text = value.jsonText
    }

    /// A number id and its text as sent.
    init(number value: JSONValue, text: String) {
        self.value = value
        self.text = text
    }

    package var description: String { text }

    package static func == (lhs: RPCID, rhs: RPCID) -> Bool { lhs.text == rhs.text }
    package func hash(into hasher: inout Hasher) { hasher.combine(text) }
}

extension RPCID: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    package init(stringLiteral value: String) { self.init(.string(value)) }
    package init(integerLiteral value: Int) { self.init(.number(Double(value))) }
}
