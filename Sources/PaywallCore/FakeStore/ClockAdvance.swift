import Foundation

/// An amount to move the fake store's clock by: `36h`, `7d`, `2w`, `1M` (calendar month),
/// `1y`, or `90m` / `30s` for minutes and seconds.
package struct ClockAdvance: Equatable, Sendable, CustomStringConvertible {
    package enum Unit: String, Sendable, CaseIterable {
        case second = "s"
        case minute = "m"
        case hour = "h"
        case day = "d"
        case week = "w"
        case month = "M"
        case year = "y"
    }

    package var value: Int
    package var unit: Unit

    package init(value: Int, unit: Unit) {
        self.value = value
        self.unit = unit
    }

    package init?(parsing text: String) {
        let digits = text.dropLast()
        guard let last = text.last, let unit = Unit(rawValue: String(last)), !digits.isEmpty,
            digits.count <= 6, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(digits), value > 0
        else { return nil }
        self.init(value: value, unit: unit)
    }

    package var description: String { "\(value)\(unit.rawValue)" }

    /// `date` moved forward; months and years follow the UTC calendar.
    package func apply(to date: Date) -> Date {
        switch unit {
        case .second: date.addingTimeInterval(Double(value))
        case .minute: date.addingTimeInterval(Double(value) * 60)
        case .hour: date.addingTimeInterval(Double(value) * 3600)
        case .day: SubscriptionPeriod(value: value, unit: .day).advance(date)
        case .week: SubscriptionPeriod(value: value, unit: .week).advance(date)
        case .month: SubscriptionPeriod(value: value, unit: .month).advance(date)
        case .year: SubscriptionPeriod(value: value, unit: .year).advance(date)
        }
    }
}
