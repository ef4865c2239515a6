/// Splits a filter into CEL tokens (the CEL spec's lexical grammar: decimal and hex ints, `u`
/// suffixed uints, doubles, quoted, triple-quoted, raw and bytes strings with their escapes,
/// `//` comments).
struct CELLexer {
    enum Token: Equatable {
        case int(Int64)
        /// Digits that fit only once negated (`-9223372036854775808`).
        case intMagnitude(UInt64)
        case uint(UInt64)
        case double(Double)
        case string(String)
        case bytes([UInt8])
        case identifier(String)
        case punctuation(String)
        case end
    }

    struct Lexeme {
        let token: Token
        let start: Int
        let end: Int
    }

    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    static func tokens(_ source: [UInt8]) throws(CELSyntaxError) -> [Lexeme] {
        var lexer = CELLexer(source)
        var result: [Lexeme] = []
        while true {
            let lexeme = try lexer.next()
            result.append(lexeme)
            if lexeme.token == .end { return result }
        }
    }

    /// The 1-based line and column (in characters) of a byte offset.
    static func position(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        for i in 0..<min(offset, bytes.count) where bytes[i] == UInt8(ascii: "\n") {
            line += 1
            lineStart = i + 1
        }
        let column = String(decoding: bytes[lineStart..<min(offset, bytes.count)], as: UTF8.self).count + 1
        return (line, column)
    }

    private func fail(_ reason: String, at offset: Int) -> CELSyntaxError {
        let (line, column) = Self.position(of: offset, in: bytes)
        return CELSyntaxError(line: line, column: column, reason: reason)
    }

    private func peek(_ ahead: Int = 0) -> UInt8? {
        index + ahead < bytes.count ? bytes[index + ahead] : nil
    }

    private static func isDigit(_ c: UInt8?) -> Bool { c.map { (48...57).contains($0) } ?? false }
    private static func isIdentifierStart(_ c: UInt8?) -> Bool {
        guard let c else { return false }
        return (65...90).contains(c) || (97...122).contains(c) || c == UInt8(ascii: "_")
    }

    private mutating func next() throws(CELSyntaxError) -> Lexeme {
        skipSpaceAndComments()
        let start = index
        guard let c = peek() else { return Lexeme(token: .end, start: start, end: start) }
        let token: Token
        if Self.isDigit(c) || (c == UInt8(ascii: ".") && Self.isDigit(peek(1))) {
            token = try number()
        } else if Self.isIdentifierStart(c) {
            let quote = identifierPrefixedString()
            if let quote {
                token = try string(raw: quote.raw, bytes: quote.bytes)
            } else {
                while Self.isIdentifierStart(peek()) || Self.isDigit(peek()) { index += 1 }
                token = .identifier(String(decoding: bytes[start..<index], as: UTF8.self))
            }
        } else if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
            token = try string(raw: false, bytes: false)
        } else {
            let two = peek(1).map { String(decoding: [c, $0], as: UTF8.self) } ?? ""
            if ["==", "!=", "<=", ">=", "&&", "||"].contains(two) {
                index += 2
                token = .punctuation(two)
            } else if "+-*/%<>!?:.,()[]{}".utf8.contains(c) {
                index += 1
                token = .punctuation(String(UnicodeScalar(c)))
            } else if c == UInt8(ascii: "=") {
                throw fail("unexpected '=' (compare with '==')", at: start)
            } else if c == UInt8(ascii: "&") || c == UInt8(ascii: "|") {
                throw fail("unexpected '\(UnicodeScalar(c))' (CEL writes '&&' and '||')", at: start)
            } else {
                let character = String(decoding: bytes[start...].prefix(4), as: UTF8.self).first.map(String.init) ?? "?"
                throw fail("unexpected character '\(character)'", at: start)
            }
        }
        return Lexeme(token: token, start: start, end: index)
    }

    private mutating func skipSpaceAndComments() {
        while let c = peek() {
            if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == 0x0C {
                index += 1
            } else if c == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "/") {
                while let d = peek(), d != 0x0A { index += 1 }
            } else {
                return
            }
        }
    }

    /// `r"..."`, `b"..."`, `rb'...'`, `br"..."`: the prefix is consumed when a quote follows it.
    private mutating func identifierPrefixedString() -> (raw: Bool, bytes: Bool)? {
        func kind(_ c: UInt8?) -> Character? {
            switch c {
            case UInt8(ascii: "r"), UInt8(ascii: "R"): return "r"
            case UInt8(ascii: "b"), UInt8(ascii: "B"): return "b"
            default: return nil
            }
        }
        func isQuote(_ c: UInt8?) -> Bool { c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") }
        guard let first = kind(peek()) else { return nil }
        if isQuote(peek(1)) {
            index += 1
            return (first == "r", first == "b")
        }
        if let second = kind(peek(1)), second != first, isQuote(peek(2)) {
            index += 2
            return (true, true)
        }
        return nil
    }

    private mutating func number() throws(CELSyntaxError) -> Token {
        let start = index
        if peek() == UInt8(ascii: "0"), peek(1) == UInt8(ascii: "x") || peek(1) == UInt8(ascii: "X") {
            index += 2
            let digitsStart = index
            while let c = peek(), c.isHexDigit { index += 1 }
            let text = String(decoding: bytes[digitsStart..<index], as: UTF8.self)
            guard let value = UInt64(text, radix: 16) else { throw fail("a hex number needs digits", at: start) }
            return try integer(value, start: start)
        }
        var isDouble = false
        while Self.isDigit(peek()) { index += 1 }
        if peek() == UInt8(ascii: "."), Self.isDigit(peek(1)) {
            isDouble = true
            index += 1
            while Self.isDigit(peek()) { index += 1 }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            var ahead = 1
            if peek(1) == UInt8(ascii: "+") || peek(1) == UInt8(ascii: "-") { ahead = 2 }
            if Self.isDigit(peek(ahead)) {
                isDouble = true
                index += ahead
                while Self.isDigit(peek()) { index += 1 }
            } else {
                throw fail("an exponent needs digits", at: index)
            }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isDouble {
            guard let value = Double(text), value.isFinite else { throw fail("number out of range", at: start) }
            return .double(value)
        }
        guard let value = UInt64(text) else {
            throw fail("integer out of range (int is 64-bit; write a 'u' suffix for uint)", at: start)
        }
        return try integer(value, start: start)
    }

    private mutating func integer(_ value: UInt64, start: Int) throws(CELSyntaxError) -> Token {
        if peek() == UInt8(ascii: "u") || peek() == UInt8(ascii: "U") {
            index += 1
            return .uint(value)
        }
        if value <= UInt64(Int64.max) { return .int(Int64(value)) }
        if value == UInt64(Int64.max) + 1 { return .intMagnitude(value) }
        throw fail("integer out of range (int is 64-bit; write a 'u' suffix for uint)", at: start)
    }

    private mutating func string(raw: Bool, bytes isBytes: Bool) throws(CELSyntaxError) -> Token {
        let start = index
        let quote = bytes[index]
        let triple = peek(1) == quote && peek(2) == quote
        index += triple ? 3 : 1
        var out: [UInt8] = []
        while true {
            guard let c = peek() else { throw fail("unterminated string", at: start) }
            if c == quote, !triple || (peek(1) == quote && peek(2) == quote) {
                index += triple ? 3 : 1
                break
            }
            if !triple, c == 0x0A || c == 0x0D { throw fail("unterminated string (a newline needs ''' quotes)", at: start) }
            if c == UInt8(ascii: "\\"), !raw {
                try escape(into: &out, bytes: isBytes)
                continue
            }
            out.append(c)
            index += 1
        }
        if isBytes { return .bytes(out) }
        guard let text = String(validating: out, as: UTF8.self) else { throw fail("a string of invalid UTF-8", at: start) }
        return .string(text)
    }

    private mutating func escape(into out: inout [UInt8], bytes isBytes: Bool) throws(CELSyntaxError) {
        let start = index
        index += 1
        guard let c = peek() else { throw fail("unterminated escape", at: start) }
        index += 1
        func hex(_ count: Int) throws(CELSyntaxError) -> UInt32 {
            guard index + count <= bytes.count,
                let value = UInt32(String(decoding: bytes[index..<index + count], as: UTF8.self), radix: 16)
            else { throw fail("a '\\\(UnicodeScalar(c))' escape needs \(count) hex digits", at: start) }
            index += count
            return value
        }
        func scalar(_ value: UInt32) throws(CELSyntaxError) {
            guard let scalar = UnicodeScalar(value) else { throw fail("escape is not a Unicode scalar", at: start) }
            out.append(contentsOf: Array(String(Character(scalar)).utf8))
        }
        switch c {
        case UInt8(ascii: "a"): out.append(0x07)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "v"): out.append(0x0B)
        case UInt8(ascii: "\\"), UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "`"), UInt8(ascii: "?"): out.append(c)
        case UInt8(ascii: "x"), UInt8(ascii: "X"):
            let value = try hex(2)
            if isBytes { out.append(UInt8(value)) } else { try scalar(value) }
        case UInt8(ascii: "u"):
            guard !isBytes else { throw fail("'\\u' is not allowed in bytes", at: start) }
            try scalar(try hex(4))
        case UInt8(ascii: "U"):
            guard !isBytes else { throw fail("'\\U' is not allowed in bytes", at: start) }
            try scalar(try hex(8))
        case UInt8(ascii: "0")...UInt8(ascii: "3"):
            guard index + 2 <= bytes.count,
                let value = UInt32(String(decoding: bytes[index - 1..<index + 2], as: UTF8.self), radix: 8)
            else { throw fail("an octal escape needs 3 digits", at: start) }
            index += 2
            if isBytes { out.append(UInt8(value)) } else { try scalar(value) }
        default:
            throw fail("unknown escape '\\\(UnicodeScalar(c))'", at: start)
        }
    }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (48...57).contains(self) || (65...70).contains(self) || (97...102).contains(self)
    }
}
