/// Reads a filter into a `CELNode` tree by recursive descent over CEL's grammar (the
/// precedence of the CEL spec: `?:`, `||`, `&&`, relations and `in`, `+ -`, `* / %`, unary
/// `! -`, member access). Nesting deeper than `maximumDepth` is refused, so no filter can
/// exhaust the stack.
struct CELParser {
    /// Each parenthesis is two levels (an expression and its operand), each `!` or `-` one,
    /// and the whole filter two: 48 parentheses deep, or 96 unary operators, and no more.
    static let maximumDepth = 98

    private let source: [UInt8]
    private let tokens: [CELLexer.Lexeme]
    private var index = 0
    private var depth = 0

    /// The most levels a tree may have: chains such as `a + b + c` or `a.b.c` nest without
    /// parentheses, and evaluation recurses once per level.
    static let maximumHeight = 100

    static func parse(_ source: [UInt8]) throws(CELSyntaxError) -> CELNode {
        var parser = CELParser(source: source, tokens: try CELLexer.tokens(source))
        let node = try parser.expression()
        guard parser.current.token == .end else { throw parser.fail("unexpected \(parser.describe(parser.current.token))") }
        if let deep = tooDeep(node) {
            throw parser.fail("nested too deeply (at most \(maximumHeight) levels of operators)", at: deep.start)
        }
        return node
    }

    /// The first node past `maximumHeight` levels, found without recursing (the tree may be deep).
    private static func tooDeep(_ root: CELNode) -> CELNode? {
        var stack = [(root, 1)]
        while let (node, level) = stack.popLast() {
            guard level <= maximumHeight else { return node }
            let children: [CELNode]
            switch node.kind {
            case .literal, .identifier: children = []
            case .select(let a, _), .has(let a, _), .not(let a), .negate(let a): children = [a]
            case .index(let a, let b), .binary(_, let a, let b), .and(let a, let b), .or(let a, let b): children = [a, b]
            case .conditional(let a, let b, let c): children = [a, b, c]
            case .call(_, let target, let arguments): children = (target.map { [$0] } ?? []) + arguments
            case .list(let items): children = items
            case .map(let entries): children = entries.flatMap { [$0.key, $0.value] }
            }
            for child in children { stack.append((child, level + 1)) }
        }
        return nil
    }

    private init(source: [UInt8], tokens: [CELLexer.Lexeme]) {
        self.source = source
        self.tokens = tokens
    }

    private var current: CELLexer.Lexeme { tokens[index] }

    private func fail(_ reason: String, at offset: Int? = nil) -> CELSyntaxError {
        let (line, column) = CELLexer.position(of: offset ?? current.start, in: source)
        return CELSyntaxError(line: line, column: column, reason: reason)
    }

    private func describe(_ token: CELLexer.Token) -> String {
        switch token {
        case .end: return "end of filter"
        case .punctuation(let p): return "'\(p)'"
        case .identifier(let name): return "'\(name)'"
        default: return "literal"
        }
    }

    private func isPunctuation(_ text: String) -> Bool { current.token == .punctuation(text) }

    private mutating func accept(_ text: String) -> Bool {
        guard isPunctuation(text) else { return false }
        index += 1
        return true
    }

    private mutating func expect(_ text: String) throws(CELSyntaxError) {
        guard accept(text) else { throw fail("expected '\(text)', found \(describe(current.token))") }
    }

    private mutating func nested<T>(_ body: (inout CELParser) throws(CELSyntaxError) -> T) throws(CELSyntaxError) -> T {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else { throw fail("nested too deeply (at most 48 levels of parentheses, 96 of ! or -)") }
        return try body(&self)
    }

    private func node(_ kind: CELNode.Kind, from start: Int) -> CELNode {
        CELNode(kind: kind, start: start, end: tokens[index - 1].end)
    }

    private mutating func expression() throws(CELSyntaxError) -> CELNode {
        try nested { (parser: inout CELParser) throws(CELSyntaxError) in
            let start = parser.current.start
            let condition = try parser.disjunction()
            guard parser.accept("?") else { return condition }
            let then = try parser.disjunction()
            try parser.expect(":")
            let otherwise = try parser.expression()
            return parser.node(.conditional(condition, then, otherwise), from: start)
        }
    }

    private mutating func disjunction() throws(CELSyntaxError) -> CELNode {
        let start = current.start
        var left = try conjunction()
        while accept("||") {
            let right = try conjunction()
            left = node(.or(left, right), from: start)
        }
        return left
    }

    private mutating func conjunction() throws(CELSyntaxError) -> CELNode {
        let start = current.start
        var left = try relation()
        while accept("&&") {
            let right = try relation()
            left = node(.and(left, right), from: start)
        }
        return left
    }

    private mutating func relation() throws(CELSyntaxError) -> CELNode {
        let start = current.start
        var left = try addition()
        while true {
            let op: CELBinaryOperator
            switch current.token {
            case .punctuation("<"): op = .less
            case .punctuation("<="): op = .lessOrEqual
            case .punctuation(">"): op = .greater
            case .punctuation(">="): op = .greaterOrEqual
            case .punctuation("=="): op = .equal
            case .punctuation("!="): op = .notEqual
            case .identifier("in"): op = .in
            default: return left
            }
            index += 1
            let right = try addition()
            left = node(.binary(op, left, right), from: start)
        }
    }

    private mutating func addition() throws(CELSyntaxError) -> CELNode {
        let start = current.start
        var left = try multiplication()
        while true {
            let op: CELBinaryOperator
            if isPunctuation("+") { op = .add } else if isPunctuation("-") { op = .subtract } else { return left }
            index += 1
            let right = try multiplication()
            left = node(.binary(op, left, right), from: start)
        }
    }

    private mutating func multiplication() throws(CELSyntaxError) -> CELNode {
        let start = current.start
        var left = try unary()
        while true {
            let op: CELBinaryOperator
            if isPunctuation("*") {
                op = .multiply
            } else if isPunctuation("/") {
                op = .divide
            } else if isPunctuation("%") {
                op = .remainder
            } else {
                return left
            }
            index += 1
            let right = try unary()
            left = node(.binary(op, left, right), from: start)
        }
    }

    private mutating func unary() throws(CELSyntaxError) -> CELNode {
        try nested { (parser: inout CELParser) throws(CELSyntaxError) in
            let start = parser.current.start
            if parser.accept("!") {
                let operand = try parser.unary()
                return parser.node(.not(operand), from: start)
            }
            if parser.accept("-") {
                // The most negative int is written as the negation of a literal that only fits negated.
                if case .intMagnitude = parser.current.token {
                    parser.index += 1
                    return try parser.members(of: parser.node(.literal(.int(Int64.min)), from: start), from: start)
                }
                let operand = try parser.unary()
                return parser.node(.negate(operand), from: start)
            }
            return try parser.member()
        }
    }

    private mutating func member() throws(CELSyntaxError) -> CELNode {
        let start = current.start
        return try members(of: try primary(), from: start)
    }

    private mutating func members(of operand: CELNode, from start: Int) throws(CELSyntaxError) -> CELNode {
        var operand = operand
        while true {
            if accept(".") {
                guard case .identifier(let name) = current.token else { throw fail("expected a field name after '.'") }
                index += 1
                if accept("(") {
                    let arguments = try list(closing: ")")
                    operand = node(.call(name, target: operand, arguments: arguments), from: start)
                } else {
                    operand = node(.select(operand, name), from: start)
                }
            } else if accept("[") {
                let key = try expression()
                try expect("]")
                operand = node(.index(operand, key), from: start)
            } else {
                return operand
            }
        }
    }

    private mutating func list(closing: String) throws(CELSyntaxError) -> [CELNode] {
        var items: [CELNode] = []
        if accept(closing) { return items }
        repeat {
            if isPunctuation(closing) { break }  // a trailing comma
            items.append(try expression())
        } while accept(",")
        try expect(closing)
        return items
    }

    private mutating func primary() throws(CELSyntaxError) -> CELNode {
        let start = current.start
        let token = current.token
        index += 1
        switch token {
        case .int(let value): return node(.literal(.int(value)), from: start)
        case .intMagnitude: throw fail("integer out of range (int is 64-bit)", at: start)
        case .uint(let value): return node(.literal(.uint(value)), from: start)
        case .double(let value): return node(.literal(.double(value)), from: start)
        case .string(let value): return node(.literal(.string(value)), from: start)
        case .bytes(let value): return node(.literal(.bytes(value)), from: start)
        case .identifier("true"): return node(.literal(.bool(true)), from: start)
        case .identifier("false"): return node(.literal(.bool(false)), from: start)
        case .identifier("null"): return node(.literal(.null), from: start)
        case .identifier("in"): throw fail("unexpected 'in'", at: start)
        case .identifier("has"):
            try expect("(")
            let argument = try expression()
            guard case .select(let operand, let field) = argument.kind else {
                throw fail("has() takes a field selection, such as has(user.plan)", at: argument.start)
            }
            try expect(")")
            return node(.has(operand, field), from: start)
        case .identifier(let name):
            if accept("(") {
                let arguments = try list(closing: ")")
                return node(.call(name, target: nil, arguments: arguments), from: start)
            }
            return node(.identifier(name), from: start)
        case .punctuation("("):
            let inner = try expression()
            try expect(")")
            return inner
        case .punctuation("["):
            let items = try list(closing: "]")
            return node(.list(items), from: start)
        case .punctuation("{"):
            var entries: [(key: CELNode, value: CELNode)] = []
            if !accept("}") {
                repeat {
                    if isPunctuation("}") { break }
                    let key = try expression()
                    try expect(":")
                    let value = try expression()
                    entries.append((key, value))
                } while accept(",")
                try expect("}")
            }
            return node(.map(entries), from: start)
        case .end:
            index -= 1
            throw fail("unexpected end of filter", at: start)
        case .punctuation(let p):
            throw fail("unexpected '\(p)'", at: start)
        }
    }
}
