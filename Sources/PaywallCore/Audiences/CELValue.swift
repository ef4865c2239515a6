import Foundation

/// A value of the CEL subset that audience filters are written in (see `CELExpression`).
package enum CELValue: Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    case string(String)
    case bytes([UInt8])
    case list([CELValue])
    /// Keys are `int`, `uint`, `bool` or `string`; kept in written order, looked up by CEL equality.
    case map([(key: CELValue, value: CELValue)])
    /// Seconds since 1970 (UTC), with nanoseconds in `nanos`.
    case timestamp(seconds: Int64, nanos: Int32)
    /// A signed span in nanoseconds.
    case duration(nanoseconds: Int64)

    /// A JSON value as CEL sees it: integral numbers are `int` (as when CEL reads JSON
    /// through protobuf's `Struct` they would be doubles; Superwall's evaluator, like this
    /// one, keeps whole numbers whole), other numbers `double`, objects maps keyed by string.
    package init(json: JSONValue) {
        switch json {
        case .null: self = .null
        case .bool(let value): self = .bool(value)
        case .number(let value):
            if value.rounded() == value, abs(value) < 9.2e18 {
                self = .int(Int64(value))
            } else {
                self = .double(value)
            }
        case .string(let value): self = .string(value)
        case .array(let items): self = .list(items.map(CELValue.init(json:)))
        case .object(let members):
            self = .map(members.sorted { $0.key < $1.key }.map { (key: .string($0.key), value: CELValue(json: $0.value)) })
        }
    }

    /// The CEL type's name, as `type()` would print it; used in error messages.
    package var typeName: String {
        switch self {
        case .null: return "null_type"
        case .bool: return "bool"
        case .int: return "int"
        case .uint: return "uint"
        case .double: return "double"
        case .string: return "string"
        case .bytes: return "bytes"
        case .list: return "list"
        case .map: return "map"
        case .timestamp: return "google.protobuf.Timestamp"
        case .duration: return "google.protobuf.Duration"
        }
    }

    /// The value as JSON, for the dry run's `--explain` and for tests. Bytes become a string
    /// of their UTF-8 reading, timestamps RFC 3339 text, durations seconds with an `s`.
    package var json: JSONValue {
        switch self {
        case .null: return .null
        case .bool(let value): return .bool(value)
        case .int(let value): return .number(Double(value))
        case .uint(let value): return .number(Double(value))
        case .double(let value): return .number(value)
        case .string(let value): return .string(value)
        case .bytes(let value): return .string(String(decoding: value, as: UTF8.self))
        case .list(let items): return .array(items.map(\.json))
        case .map(let entries):
            var object: [String: JSONValue] = [:]
            for entry in entries { object[entry.key.text] = entry.value.json }
            return .object(object)
        case .timestamp, .duration: return .string(text)
        }
    }

    /// The value as `string()` converts it (and as `--explain` prints a scalar).
    package var text: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .int(let value): return String(value)
        case .uint(let value): return String(value)
        case .double(let value): return CELValue.format(value)
        case .string(let value): return value
        case .bytes(let value): return String(decoding: value, as: UTF8.self)
        case .list(let items): return "[" + items.map(\.literalText).joined(separator: ", ") + "]"
        case .map(let entries):
            return "{" + entries.map { "\($0.key.literalText): \($0.value.literalText)" }.joined(separator: ", ") + "}"
        case .timestamp(let seconds, let nanos): return CELTime.format(seconds: seconds, nanos: nanos)
        case .duration(let nanoseconds): return CELTime.format(duration: nanoseconds)
        }
    }

    /// The value written as CEL source (strings quoted), for lists and maps in `text`.
    package var literalText: String {
        switch self {
        case .string(let value):
            return "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        case .uint(let value): return "\(value)u"
        default: return text
        }
    }

    /// A double as the reference interpreter prints it: the shortest text that reads back
    /// exactly, without an exponent (`2`, `0.1`, `100000000000000000000`).
    static func format(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-inf" : "inf" }
        let shortest = "\(value)"
        guard let e = shortest.firstIndex(where: { $0 == "e" || $0 == "E" }) else {
            return shortest.hasSuffix(".0") ? String(shortest.dropLast(2)) : shortest
        }
        let exponent = Int(shortest[shortest.index(after: e)...]) ?? 0
        var mantissa = String(shortest[..<e])
        let negative = mantissa.hasPrefix("-")
        if negative { mantissa.removeFirst() }
        let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        let whole = String(parts[0])
        let fraction = parts.count > 1 ? String(parts[1]) : ""
        var digits = whole + fraction
        var point = whole.count + exponent
        if point <= 0 {
            digits = String(repeating: "0", count: 1 - point) + digits
            point = 1
        }
        if point >= digits.count { digits += String(repeating: "0", count: point - digits.count) }
        var result = String(digits.prefix(point))
        var rest = String(digits.dropFirst(point))
        while rest.hasSuffix("0") { rest.removeLast() }
        if !rest.isEmpty { result += "." + rest }
        return (negative ? "-" : "") + result
    }
}

/// CEL's timestamps and durations as text: RFC 3339 (`2020-01-01T00:00:00Z`) and Go-style
/// durations (`1h30m`, `90s`, `1.5s`, `-2ms`).
enum CELTime {
    static let minimumSeconds: Int64 = -62_135_596_800  // 0001-01-01T00:00:00Z
    static let maximumSeconds: Int64 = 253_402_300_799  // 9999-12-31T23:59:59Z

    static func parseTimestamp(_ text: String) -> (seconds: Int64, nanos: Int32)? {
        let pattern = #"^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$"#
        guard let match = text.range(of: pattern, options: .regularExpression), match == text.startIndex..<text.endIndex
        else { return nil }
        let scalars = Array(text.utf8)
        func number(_ from: Int, _ count: Int) -> Int { Int(String(decoding: scalars[from..<from + count], as: UTF8.self))! }
        let (year, month, day) = (number(0, 4), number(5, 2), number(8, 2))
        let (hour, minute, second) = (number(11, 2), number(14, 2), number(17, 2))
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year), hour < 24, minute < 60,
            second < 60
        else { return nil }
        var index = 19
        var nanos: Int32 = 0
        if index < scalars.count, scalars[index] == UInt8(ascii: ".") {
            index += 1
            var digits = ""
            while index < scalars.count, (48...57).contains(scalars[index]) {
                digits.append(Character(UnicodeScalar(scalars[index])))
                index += 1
            }
            nanos = Int32(digits.padding(toLength: 9, withPad: "0", startingAt: 0))!
        }
        var offset = 0
        if scalars[index] == UInt8(ascii: "+") || scalars[index] == UInt8(ascii: "-") {
            let sign = scalars[index] == UInt8(ascii: "-") ? -1 : 1
            offset = sign * (number(index + 1, 2) * 3600 + number(index + 4, 2) * 60)
        }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offset)
        guard seconds >= minimumSeconds, seconds <= maximumSeconds else { return nil }
        return (seconds, nanos)
    }

    static func format(seconds: Int64, nanos: Int32) -> String {
        let days = Int(seconds.floorDivided(by: 86_400))
        let rest = Int(seconds - Int64(days) * 86_400)
        let (year, month, day) = civil(fromDays: days)
        var text = String(format: "%04d-%02d-%02dT%02d:%02d:%02d", year, month, day, rest / 3600, rest / 60 % 60, rest % 60)
        if nanos != 0 {
            var fraction = String(format: "%09d", nanos)
            while fraction.hasSuffix("0") { fraction.removeLast() }
            text += "." + fraction
        }
        return text + "Z"
    }

    /// `1h30m`, `-1.5s`, `100ms`, `2us`, `3ns`: units h m s ms us ns, as Go and CEL write them.
    static func parseDuration(_ text: String) -> Int64? {
        var chars = Array(text.utf8)[...]
        var negative = false
        if chars.first == UInt8(ascii: "-") || chars.first == UInt8(ascii: "+") {
            negative = chars.first == UInt8(ascii: "-")
            chars = chars.dropFirst()
        }
        if chars == [UInt8(ascii: "0")] { return 0 }
        guard !chars.isEmpty else { return nil }
        var total: Double = 0
        while !chars.isEmpty {
            var number = ""
            while let c = chars.first, (48...57).contains(c) || c == UInt8(ascii: ".") {
                number.append(Character(UnicodeScalar(c)))
                chars = chars.dropFirst()
            }
            guard let value = Double(number) else { return nil }
            var unit = ""
            while let c = chars.first, (97...122).contains(c) || c == 0xC2 || c == 0xB5 {
                unit.append(Character(UnicodeScalar(c)))
                chars = chars.dropFirst()
            }
            let scale: Double
            switch unit {
            case "h": scale = 3_600e9
            case "m": scale = 60e9
            case "s": scale = 1e9
            case "ms": scale = 1e6
            case "us": scale = 1e3
            case "ns": scale = 1
            default: return nil
            }
            total += value * scale
        }
        // Within Int64 nanoseconds (about 292 years), so the conversion below cannot trap.
        guard total.isFinite, total < 9.2e18 else { return nil }
        return Int64((negative ? -total : total).rounded())
    }

    /// Go's `Duration.String` for whole and fractional seconds (`1h30m0s` is written `1h30m`, as the reference does).
    static func format(duration nanoseconds: Int64) -> String {
        if nanoseconds == 0 { return "0s" }
        let negative = nanoseconds < 0
        var rest = nanoseconds.magnitude
        var text = ""
        let hours = rest / 3_600_000_000_000
        rest -= hours * 3_600_000_000_000
        let minutes = rest / 60_000_000_000
        rest -= minutes * 60_000_000_000
        if hours > 0 { text += "\(hours)h" }
        if minutes > 0 { text += "\(minutes)m" }
        if rest > 0 {
            let seconds = rest / 1_000_000_000
            var fraction = String(format: "%09llu", rest % 1_000_000_000)
            while fraction.hasSuffix("0") { fraction.removeLast() }
            text += "\(seconds)" + (fraction.isEmpty ? "" : "." + fraction) + "s"
        }
        return (negative ? "-" : "") + text
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Howard Hinnant's days-from-civil (proleptic Gregorian, day 0 = 1970-01-01).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    private static func civil(fromDays days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

extension Int64 {
    func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
