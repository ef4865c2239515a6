/// Parses JSON text in one pass over its UTF-8 bytes. Page messages are parsed on every round
/// trip, where `JSONDecoder` took most of the runtime's share of the time (`paywall bench`);
/// files are parsed here too because `JSONDecoder` is super-linear on deep nesting (a 300 KB
/// manifest of nested arrays took over a minute). Nesting is limited so hostile input cannot
/// exhaust the stack. A leading byte order mark is skipped.
///
/// Two modes: `parse` reads page messages as `JSON.parse` does (the last of duplicate keys
/// wins); `parseFile` reads files a person wrote and refuses duplicate keys, where keeping
/// either one silently would hide a mistake.
struct JSONParser {
    struct Failure: Error, CustomStringConvertible {
        let offset: Int
        /// 1-based, counting characters (not bytes) on the line.
        let line: Int
        let column: Int
        let reason: String
        /// The key written twice, when that is the failure.
        var duplicateKey: String?
        var description: String { "\(reason) at line \(line), column \(column)" }
    }

    static let maximumDepth = 512

    /// A page message, as `JSON.parse` reads it: of duplicate keys the last wins.
    static func parse(_ text: String) throws(Failure) -> JSONValue {
        try JSONCursor<JSONValue>.parse(Array(text.utf8), refusingDuplicateKeys: false)
    }

    /// Bytes as `Tree`, as `JSON.parse` reads them: of duplicate keys the last wins.
    static func parseKeepingLastKey<Tree: JSONTree>(_ bytes: [UInt8], as _: Tree.Type) throws(Failure) -> Tree {
        try JSONCursor<Tree>.parse(bytes, refusingDuplicateKeys: false)
    }

    /// A file's contents as `Tree` (`JSONValue`, or a tree that keeps numbers' digits), refusing duplicate keys.
    static func parseFile<Tree: JSONTree>(_ bytes: [UInt8], as _: Tree.Type = JSONValue.self) throws(Failure) -> Tree {
        try JSONCursor<Tree>.checkUTF8(bytes)
        return try JSONCursor<Tree>.parse(bytes, refusingDuplicateKeys: true)
    }
}

/// What a parse builds. `JSONValue` keeps numbers as `Double`; the catalog reader keeps their
/// digits, so a price never passes through binary floating point.
protocol JSONTree {
    static var null: Self { get }
    static func bool(_ value: Bool) -> Self
    /// The number written as `text` (JSON grammar, already checked; `value` is finite), or nil when it cannot be represented.
    static func number(text: String, value: Double) -> Self?
    static func string(_ value: String) -> Self
    static func array(_ items: [Self]) -> Self
    static func object(_ members: [String: Self]) -> Self
}

extension JSONValue: JSONTree {
    static func number(text _: String, value: Double) -> JSONValue? { .number(value) }
}

private struct JSONCursor<Tree: JSONTree> {
    typealias Failure = JSONParser.Failure

    private let bytes: [UInt8]
    private let refusingDuplicateKeys: Bool
    private var index = 0

    static func parse(_ bytes: [UInt8], refusingDuplicateKeys: Bool) throws(Failure) -> Tree {
        var cursor = JSONCursor(bytes: bytes, refusingDuplicateKeys: refusingDuplicateKeys)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { cursor.index = 3 }
        cursor.skipWhitespace()
        let value = try cursor.value(depth: 0)
        cursor.skipWhitespace()
        guard cursor.index == bytes.count else { throw cursor.fail("unexpected text after the value") }
        return value
    }

    /// Files arrive as bytes; text that is not UTF-8 is refused rather than read with replacement characters.
    static func checkUTF8(_ bytes: [UInt8]) throws(Failure) {
        var iterator = bytes.makeIterator()
        var decoder = Unicode.UTF8.ForwardParser()
        var offset = 0
        while true {
            switch decoder.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .emptyInput: return
            case .error:
                let cursor = JSONCursor(bytes: bytes, refusingDuplicateKeys: true)
                throw cursor.fail("bytes that are not UTF-8 text (save the file as UTF-8)", at: offset)
            }
        }
    }

    private init(bytes: [UInt8], refusingDuplicateKeys: Bool) {
        self.bytes = bytes
        self.refusingDuplicateKeys = refusingDuplicateKeys
    }

    private func fail(_ reason: String, at offset: Int? = nil) -> Failure {
        let offset = offset ?? index
        // Only computed on failure: a person fixing the file needs a line, not a byte offset.
        var line = 1
        var column = 1
        for b in bytes[..<min(offset, bytes.count)] {
            if b == 0x0A {
                line += 1
                column = 1
            } else if b & 0xC0 != 0x80 {
                column += 1
            }
        }
        return Failure(offset: offset, line: line, column: column, reason: reason)
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let b = current, b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { index += 1 }
    }

    private mutating func expect(_ literal: StaticString, _ value: Tree) throws(Failure) -> Tree {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw fail("unexpected end") }
        let matches = literal.withUTF8Buffer { expected in (0..<count).allSatisfy { bytes[index + $0] == expected[$0] } }
        guard matches else { throw fail("unexpected character") }
        index += count
        return value
    }

    private mutating func value(depth: Int) throws(Failure) -> Tree {
        guard depth < JSONParser.maximumDepth else { throw fail("nested more than \(JSONParser.maximumDepth) levels") }
        switch current {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try expect("true", .bool(true))
        case UInt8(ascii: "f"): return try expect("false", .bool(false))
        case UInt8(ascii: "n"): return try expect("null", .null)
        case .some(let b) where b == UInt8(ascii: "-") || (b >= 0x30 && b <= 0x39): return try number()
        case nil: throw fail("unexpected end")
        default: throw fail("unexpected character")
        }
    }

    private mutating func object(depth: Int) throws(Failure) -> Tree {
        index += 1
        var members: [String: Tree] = [:]
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw fail("expected a string key") }
            let keyOffset = index
            let key = try string()
            if refusingDuplicateKeys, members[key] != nil {
                var failure = fail("duplicate key \"\(key)\" (each key may appear once in an object; remove one)", at: keyOffset)
                failure.duplicateKey = key
                throw failure
            }
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

    private mutating func array(depth: Int) throws(Failure) -> Tree {
        index += 1
        var items: [Tree] = []
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
    /// A surrogate without its pair becomes U+FFFD: `JSON.parse` accepts it and `JSON.stringify`
    /// writes it (`"\ud800"`), so refusing it would drop a page's whole batch for one bad string.
    private mutating func unicodeEscape() throws(Failure) -> [UInt8] {
        let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]
        var code = try hex4()
        if (0xD800...0xDBFF).contains(code) {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                return replacement
            }
            let next = index
            index += 2
            let low = try hex4()
            guard (0xDC00...0xDFFF).contains(low) else {
                // Not a pair: the next escape is read again on its own.
                index = next
                return replacement
            }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(code) {
            return replacement
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
    private mutating func number() throws(Failure) -> Tree {
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
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite, let number = Tree.number(text: text, value: value) else {
            throw fail("number out of range", at: start)
        }
        return number
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
