import Foundation

/// The functions of the subset: `size`, the string tests `contains startsWith endsWith
/// matches`, the conversions `int uint double string bool`, `timestamp` and `duration`.
enum CELFunctions {
    typealias Outcome = Result<CELValue, CELEvaluationError>

    /// Text longer than this is refused by `matches` (the matcher is linear in it, this keeps it brief).
    static let maximumMatchedLength = 65_536
    /// The work one evaluation's string functions may do: characters compared by `contains`,
    /// `startsWith`, `endsWith`, and thread steps of `matches`.
    static let evaluationBudget = 2_000_000

    private static func failure(_ message: String) -> Outcome { .failure(CELEvaluationError(message: message)) }

    /// `values` holds the target first for a method call (`x.size()`: `[x]`).
    static func call(_ name: String, method: Bool, _ values: [CELValue], budget: inout Int) -> Outcome {
        let signature = "\(name)(\(values.map(\.typeName).joined(separator: ", ")))"
        switch (name, values.count) {
        case ("size", 1):
            switch values[0] {
            case .string(let s): return .success(.int(Int64(s.unicodeScalars.count)))
            case .bytes(let b): return .success(.int(Int64(b.count)))
            case .list(let l): return .success(.int(Int64(l.count)))
            case .map(let m): return .success(.int(Int64(m.count)))
            default: break
            }
        case ("contains", 2), ("startsWith", 2), ("endsWith", 2), ("matches", 2):
            guard method || name == "matches", case .string(let text) = values[0], case .string(let argument) = values[1]
            else { break }
            let t = Array(text.unicodeScalars)
            let a = Array(argument.unicodeScalars)
            if name != "matches" {
                budget -= t.count * max(1, a.count)
                guard budget >= 0 else { return failure("\(name)(): too much text to compare in one filter") }
            }
            switch name {
            case "contains": return .success(.bool(a.isEmpty || t.indices.contains { t[$0...].starts(with: a) }))
            case "startsWith": return .success(.bool(t.starts(with: a)))
            case "endsWith": return .success(.bool(t.reversed().starts(with: a.reversed())))
            default:
                guard t.count <= maximumMatchedLength else {
                    return failure("matches(): the text is longer than \(maximumMatchedLength) characters")
                }
                switch CELRegex.compile(argument) {
                case .success(let regex):
                    guard let found = regex.search(t, budget: &budget) else {
                        return failure("matches(): too much work for one filter (a long text and a large pattern)")
                    }
                    return .success(.bool(found))
                case .failure(let error): return .failure(error)
                }
            }
        case ("int", 1) where !method: return int(values[0])
        case ("uint", 1) where !method: return uint(values[0])
        case ("double", 1) where !method:
            switch values[0] {
            case .double: return .success(values[0])
            case .int(let i): return .success(.double(Double(i)))
            case .uint(let u): return .success(.double(Double(u)))
            case .string(let s):
                guard let d = Double(s.trimmingCharacters(in: .whitespaces)) else {
                    return failure("double(): \"\(s)\" is not a number")
                }
                return .success(.double(d))
            default: break
            }
        case ("string", 1) where !method:
            switch values[0] {
            case .bytes(let b):
                guard let s = String(validating: b, as: UTF8.self) else { return failure("string(): bytes that are not UTF-8") }
                return .success(.string(s))
            case .list, .map, .null: break
            default: return .success(.string(values[0].text))
            }
        case ("bool", 1) where !method:
            switch values[0] {
            case .bool: return .success(values[0])
            case .string(let s):
                if ["true", "TRUE", "True", "t", "1"].contains(s) { return .success(.bool(true)) }
                if ["false", "FALSE", "False", "f", "0"].contains(s) { return .success(.bool(false)) }
                return failure("bool(): \"\(s)\" is not true or false")
            default: break
            }
        case ("timestamp", 1) where !method:
            switch values[0] {
            case .timestamp: return .success(values[0])
            case .string(let s):
                guard let (seconds, nanos) = CELTime.parseTimestamp(s) else {
                    return failure("timestamp(): \"\(s)\" is not an RFC 3339 time such as 2025-01-31T12:00:00Z")
                }
                return .success(.timestamp(seconds: seconds, nanos: nanos))
            case .int(let seconds):
                guard seconds >= CELTime.minimumSeconds, seconds <= CELTime.maximumSeconds else {
                    return failure("timestamp(): \(seconds) is out of range")
                }
                return .success(.timestamp(seconds: seconds, nanos: 0))
            default: break
            }
        case ("duration", 1) where !method:
            switch values[0] {
            case .duration: return .success(values[0])
            case .string(let s):
                guard let nanoseconds = CELTime.parseDuration(s) else {
                    return failure("duration(): \"\(s)\" is not a duration such as 90s, 1h30m or 1.5h")
                }
                return .success(.duration(nanoseconds: nanoseconds))
            default: break
            }
        default:
            let known = [
                "size", "contains", "startsWith", "endsWith", "matches", "int", "uint", "double", "string", "bool",
                "timestamp", "duration",
            ]
            if !known.contains(name) {
                return failure("unknown function '\(name)' (the subset has \(known.joined(separator: ", ")))")
            }
        }
        return failure("no such overload: \(method ? "method " : "")\(signature)")
    }

    private static func int(_ value: CELValue) -> Outcome {
        switch value {
        case .int: return .success(value)
        case .uint(let u):
            guard let i = Int64(exactly: u) else { return failure("int(): \(u) is out of range") }
            return .success(.int(i))
        case .double(let d):
            guard d.isFinite, d > -9.223372036854775808e18, d < 9.223372036854775807e18 else {
                return failure("int(): \(CELValue.format(d)) is out of range")
            }
            return .success(.int(Int64(d)))
        case .string(let s):
            guard let i = Int64(s) else { return failure("int(): \"\(s)\" is not an integer") }
            return .success(.int(i))
        case .timestamp(let seconds, _): return .success(.int(seconds))
        default: return failure("no such overload: int(\(value.typeName))")
        }
    }

    private static func uint(_ value: CELValue) -> Outcome {
        switch value {
        case .uint: return .success(value)
        case .int(let i):
            guard let u = UInt64(exactly: i) else { return failure("uint(): \(i) is out of range") }
            return .success(.uint(u))
        case .double(let d):
            guard d.isFinite, d >= 0, d < 1.8446744073709551615e19 else {
                return failure("uint(): \(CELValue.format(d)) is out of range")
            }
            return .success(.uint(UInt64(d)))
        case .string(let s):
            guard let u = UInt64(s) else { return failure("uint(): \"\(s)\" is not an unsigned integer") }
            return .success(.uint(u))
        default: return failure("no such overload: uint(\(value.typeName))")
        }
    }
}
