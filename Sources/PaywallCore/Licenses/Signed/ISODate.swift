import Foundation

/// The ISO 8601 times signed licenses carry: written in UTC to the second, read with or
/// without fractional seconds (Keygen writes milliseconds).
package enum ISODate {
    package static func text(_ date: Date) -> String { date.formatted(Date.ISO8601FormatStyle()) }

    package static func parse(_ text: String) -> Date? {
        (try? Date(text, strategy: Date.ISO8601FormatStyle()))
            ?? (try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
    }
}
