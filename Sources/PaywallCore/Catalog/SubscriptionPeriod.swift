import Foundation

/// A length of time in calendar units, written in ISO 8601 (`P3D`, `P1W`, `P1M`, `P1Y`).
public struct SubscriptionPeriod: Hashable, Sendable, CustomStringConvertible {
    public enum Unit: String, Sendable, CaseIterable {
        case day = "D"
        case week = "W"
        case month = "M"
        case year = "Y"
    }

    public var value: Int
    public var unit: Unit

    public init(value: Int, unit: Unit) {
        self.value = value
        self.unit = unit
    }

    /// Parses `P<n><D|W|M|Y>` with n from 1 to 9999; nil for anything else (combined forms
    /// like `P1Y2M` are not periods stores sell).
    package init?(iso8601 text: String) {
        let digits = text.dropFirst().dropLast()
        guard text.count >= 3, text.first == "P", let unit = Unit(rawValue: String(text.last!)),
            digits.count <= 4, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber), digits.first != "0",
            let value = Int(digits)
        else { return nil }
        self.init(value: value, unit: unit)
    }

    public var iso8601: String { "P\(value)\(unit.rawValue)" }
    public var description: String { iso8601 }

    /// `date` moved on by this period `times` times, in UTC calendar arithmetic (a month from
    /// Jan 31 is Feb 28/29, as stores bill).
    package func advance(_ date: Date, times: Int = 1) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        // Absurd lengths (a corrupt catalog, a huge clock move) end at the far future, never trap.
        let (count, overflow) = value.multipliedReportingOverflow(by: times)
        let (days, weekOverflow) = count.multipliedReportingOverflow(by: 7)
        guard !overflow, !(unit == .week && weekOverflow), abs(count) < 1_000_000 else { return .distantFuture }
        var components = DateComponents()
        switch unit {
        case .day: components.day = count
        case .week: components.day = days
        case .month: components.month = count
        case .year: components.year = count
        }
        return calendar.date(byAdding: components, to: date) ?? .distantFuture
    }

    /// Approximate length in days (a month is 30, a year 365): for per-day price arithmetic only.
    package var approximateDays: Double {
        switch unit {
        case .day: Double(value)
        case .week: Double(value * 7)
        case .month: Double(value * 30)
        case .year: Double(value * 365)
        }
    }
}
