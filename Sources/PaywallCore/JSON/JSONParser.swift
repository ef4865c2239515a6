/// Parses JSON text into a `JSONValue` in one pass over its UTF-8 bytes. Page messages are
/// parsed on every round trip, where `JSONDecoder` took most of the runtime's share of the
/// time (`paywall bench`). Nesting is limited so hostile input cannot exhaust the stack. A
/// leading byte order mark is skipped; of duplicate keys the last wins, as in `JSON.parse`.
struct JSONParser {
    struct Failure: Error, CustomStringConvertible {
        let offset: Int
        let reason: String
        var description: String { "\(reason) at byte \(offset)" }
    }

    static let maximumDepth = 512

    private let bytes: [UInt8]
    private var index = 0

    static func parse(_ text: String) throws(Failure) -> JSONValue {
        var parser = JSONParser(bytes: Array(text.utf8))
        if parser.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
        parser.skipWhitespace()
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == parser.bytes.count else { throw parser.fail("unexpected text after the value") }
        return value
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private func fail(_ reason: String) -> Failure { Failure(offset: index, reason: reason) }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let b = current, b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { index += 1 }
    }

    private mutating func expect(_ literal: StaticString, _ value: JSONValue) throws(Failure) -> JSONValue {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw fail("unexpected end") }
        let matches = literal.withUTF8Buffer { expected in (0..<count).allSatisfy { bytes[index + $0] == expected[$0] } }
        guard matches else { throw fail("unexpected character") }
        index += count
        return value
    }

    private mutating func value(depth: Int) throws(Failure) -> JSONValue {
        guard depth < Self.maximumDepth else { throw fail("nested more than \(Self.maximumDepth) levels") }
        switch current {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try expect("true", .bool(true))
        case UInt8(ascii: "f"): return try expect("false", .bool(false))
        case UInt8(ascii: "n"): return try expect("null", .null)
        case .some(let b) where b == UInt8(ascii: "-") || (b >= 0x30 && b <= 0x39): return .number(try number())
        case nil: throw fail("unexpected end")
        default: throw fail("unexpected character")
        }
    }

    private mutating func object(depth: Int) throws(Failure) -> JSONValue {
        index += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw fail("expected a string key") }
            let key = try string()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw fail("expected ':'") }
            index += 1
            skipWhitespace()
            members[key] = try value(depth: depth + 1)
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                return .object(members)
            default: throw fail("expected ',' or '}'")
            }
        }
    }

    private mutating func array(depth: Int) throws(Failure) -> JSONValue {
        index += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            return .array(items)
        }
        while true {
            skipWhitespace()
            items.append(try value(depth: depth + 1))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                return .array(items)
            default: throw fail("expected ',' or ']'")
            }
        }
    }

    private mutating func string() throws(Failure) -> String {
        index += 1
        let start = index
        // Fast path: no escapes.
        while let b = current, b != UInt8(ascii: "\""), b != UInt8(ascii: "\\") {
            guard b >= 0x20 else { throw fail("control character in a string") }
            index += 1
        }
        guard let stop = current else { throw fail("unterminated string") }
        if stop == UInt8(ascii: "\"") {
            index += 1
            return String(decoding: bytes[start..<index - 1], as: UTF8.self)
        }
        var out = Array(bytes[start..<index])
        while true {
            guard let b = current else { throw fail("unterminated string") }
            index += 1
            switch b {
            case UInt8(ascii: "\""):
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard let e = current else { throw fail("unterminated escape") }
                index += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"): out.append(contentsOf: try unicodeEscape())
                default: throw fail("unknown escape")
                }
            case let c where c < 0x20:
                throw fail("control character in a string")
            default:
                out.append(b)
            }
        }
    }

    /// `\uXXXX`, with a following `\uXXXX` low surrogate when the first is a high one, as UTF-8.
    private mutating func unicodeEscape() throws(Failure) -> [UInt8] {
        var code = try hex4()
        if (0xD800...0xDBFF).contains(code) {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                throw fail("lone surrogate")
            }
            index += 2
            let low = try hex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw fail("invalid surrogate pair") }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(code) {
            throw fail("lone surrogate")
        }
        return Array(String(Character(Unicode.Scalar(code)!)).utf8)
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard index + 4 <= bytes.count else { throw fail("short \\u escape") }
        var code: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[index]
            let digit: UInt8
            switch b {
            case 0x30...0x39: digit = b - 0x30
            case 0x41...0x46: digit = b - 0x41 + 10
            case 0x61...0x66: digit = b - 0x61 + 10
            default: throw fail("bad \\u escape")
            }
            code = code << 4 | UInt32(digit)
            index += 1
        }
        return code
    }

    /// A number in JSON's grammar (no leading zeros, no `+`, no bare `.`).
    private mutating func number() throws(Failure) -> Double {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        guard let first = current, first >= 0x30, first <= 0x39 else { throw fail("expected a digit") }
        index += 1
        if first != 0x30 { skipDigits() }
        if current == UInt8(ascii: ".") {
            index += 1
            guard digitsFollow() else { throw fail("expected a digit after '.'") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard digitsFollow() else { throw fail("expected a digit in the exponent") }
        }
        guard let value = Double(String(decoding: bytes[start..<index], as: UTF8.self)), value.isFinite else {
            throw Failure(offset: start, reason: "number out of range")
        }
        return value
    }

    private mutating func skipDigits() {
        while let b = current, b >= 0x30, b <= 0x39 { index += 1 }
    }

    private mutating func digitsFollow() -> Bool {
        let before = index
        skipDigits()
        return index > before
    }
}
