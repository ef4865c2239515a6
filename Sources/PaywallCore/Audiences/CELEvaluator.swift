import Foundation

/// Why an expression has no value (`1 / 0`, `'a' < 1`). Inside `&&`, `||` and `?:` an error
/// can be absorbed, as in CEL; a filter whose value is an error does not match.
package struct CELEvaluationError: Error, Equatable, CustomStringConvertible, Sendable {
    package let message: String
    package var description: String { message }
}

/// One sub-expression's value, for the dry run's `--explain`.
package struct CELTraceEntry: Sendable {
    package let source: String
    package let value: Result<CELValue, CELEvaluationError>
}

/// Evaluates a parsed filter over its variables with CEL's semantics: heterogeneous numeric
/// equality and ordering, checked 64-bit arithmetic, error-absorbing `&&` and `||`. One
/// difference, Superwall's null safety: selecting a field a map lacks (or any field of
/// `null`) gives `null` instead of an error, and ordering `null` against anything is false.
struct CELEvaluator {
    typealias Outcome = Result<CELValue, CELEvaluationError>

    let variables: [String: CELValue]
    let source: [UInt8]
    /// When set, every sub-expression's value in evaluation order (the dry run's explanation).
    var trace: [CELTraceEntry]?
    /// What the string functions may still spend (characters compared, regex steps): one
    /// filter's bound, however many calls it makes on however long attributes.
    var budget = CELFunctions.evaluationBudget

    private static func failure(_ message: String) -> Outcome { .failure(CELEvaluationError(message: message)) }

    private static func noOverload(_ op: String, _ values: CELValue...) -> Outcome {
        failure("no such overload: \(op) on \(values.map(\.typeName).joined(separator: ", "))")
    }

    mutating func evaluate(_ node: CELNode) -> Outcome {
        let outcome = value(of: node)
        if trace != nil, !isLeaf(node) {
            trace!.append(
                CELTraceEntry(source: String(decoding: source[node.start..<node.end], as: UTF8.self), value: outcome))
        }
        return outcome
    }

    /// Literals and bare variables say nothing a reader does not see in the source.
    private func isLeaf(_ node: CELNode) -> Bool {
        switch node.kind {
        case .literal, .identifier: return true
        default: return false
        }
    }

    private mutating func value(of node: CELNode) -> Outcome {
        switch node.kind {
        case .literal(let value):
            return .success(value)
        case .identifier(let name):
            guard let value = variables[name] else {
                return Self.failure(
                    "undeclared reference to '\(name)' (the variables are \(variables.keys.sorted().joined(separator: ", ")))")
            }
            return .success(value)
        case .select(let operand, let field):
            return evaluate(operand).flatMap { Self.select(field, of: $0) }
        case .has(let operand, let field):
            return evaluate(operand).flatMap { value in
                switch value {
                case .map(let entries): return .success(.bool(entries.contains { Self.equal($0.key, .string(field)) }))
                case .null: return .success(.bool(false))
                default: return Self.failure("has(): '\(field)' is not a field of a \(value.typeName)")
                }
            }
        case .index(let operand, let key):
            let container = evaluate(operand)
            let key = evaluate(key)
            return container.flatMap { container in key.flatMap { Self.index(container, $0) } }
        case .call(let name, let target, let arguments):
            var values: [CELValue] = []
            if let target {
                switch evaluate(target) {
                case .success(let value): values.append(value)
                case .failure(let error): return .failure(error)
                }
            }
            for argument in arguments {
                switch evaluate(argument) {
                case .success(let value): values.append(value)
                case .failure(let error): return .failure(error)
                }
            }
            return CELFunctions.call(name, method: target != nil, values, budget: &budget)
        case .not(let operand):
            return evaluate(operand).flatMap { value in
                guard case .bool(let b) = value else { return Self.noOverload("!", value) }
                return .success(.bool(!b))
            }
        case .negate(let operand):
            return evaluate(operand).flatMap { value in
                switch value {
                case .int(let i):
                    guard i != Int64.min else { return Self.failure("int overflow in -\(i)") }
                    return .success(.int(-i))
                case .double(let d): return .success(.double(-d))
                case .duration(let n):
                    guard n != Int64.min else { return Self.failure("duration overflow") }
                    return .success(.duration(nanoseconds: -n))
                default: return Self.noOverload("-", value)
                }
            }
        case .and(let left, let right):
            // Both sides are evaluated; `false` on either side wins over an error on the other.
            let l = evaluate(left)
            let r = evaluate(right)
            if case .success(.bool(false)) = l { return l }
            if case .success(.bool(false)) = r { return r }
            return Self.combineLogical("&&", l, r)
        case .or(let left, let right):
            let l = evaluate(left)
            let r = evaluate(right)
            if case .success(.bool(true)) = l { return l }
            if case .success(.bool(true)) = r { return r }
            return Self.combineLogical("||", l, r)
        case .conditional(let condition, let then, let otherwise):
            return evaluate(condition).flatMap { value in
                guard case .bool(let b) = value else { return Self.noOverload("?:", value) }
                return b ? evaluate(then) : evaluate(otherwise)
            }
        case .list(let items):
            var values: [CELValue] = []
            for item in items {
                switch evaluate(item) {
                case .success(let value): values.append(value)
                case .failure(let error): return .failure(error)
                }
            }
            return .success(.list(values))
        case .map(let entries):
            var values: [(key: CELValue, value: CELValue)] = []
            for entry in entries {
                let key: CELValue
                switch evaluate(entry.key) {
                case .success(let value): key = value
                case .failure(let error): return .failure(error)
                }
                switch key {
                case .int, .uint, .bool, .string: break
                default: return Self.failure("a map key must be int, uint, bool or string, not \(key.typeName)")
                }
                guard !values.contains(where: { Self.equal($0.key, key) }) else {
                    return Self.failure("map key \(key.literalText) appears twice")
                }
                switch evaluate(entry.value) {
                case .success(let value): values.append((key, value))
                case .failure(let error): return .failure(error)
                }
            }
            return .success(.map(values))
        case .binary(let op, let left, let right):
            let l = evaluate(left)
            let r = evaluate(right)
            return l.flatMap { l in r.flatMap { Self.apply(op, l, $0) } }
        }
    }

    /// Neither side is `false` (for `&&`) or `true` (for `||`): both must be bools, else the first error.
    private static func combineLogical(_ op: String, _ l: Outcome, _ r: Outcome) -> Outcome {
        switch (l, r) {
        case (.failure(let error), _), (_, .failure(let error)): return .failure(error)
        case (.success(.bool), .success(.bool)): return l
        case (.success(let a), .success(let b)): return noOverload(op, a, b)
        }
    }

    private static func select(_ field: String, of value: CELValue) -> Outcome {
        switch value {
        case .map(let entries):
            return .success(entries.first { equal($0.key, .string(field)) }?.value ?? .null)
        case .null:
            return .success(.null)
        default:
            return failure("no such field '\(field)' on a \(value.typeName)")
        }
    }

    private static func index(_ container: CELValue, _ key: CELValue) -> Outcome {
        switch (container, key) {
        case (.list(let items), .int(let i)):
            guard i >= 0, i < items.count else { return failure("index out of bounds: \(i)") }
            return .success(items[Int(i)])
        case (.list(let items), .uint(let i)):
            guard i < items.count else { return failure("index out of bounds: \(i)") }
            return .success(items[Int(i)])
        case (.map(let entries), _):
            return .success(entries.first { equal($0.key, key) }?.value ?? .null)
        case (.null, _):
            return .success(.null)
        default:
            return noOverload("[]", container, key)
        }
    }

    private static func apply(_ op: CELBinaryOperator, _ l: CELValue, _ r: CELValue) -> Outcome {
        switch op {
        case .equal: return .success(.bool(equal(l, r)))
        case .notEqual: return .success(.bool(!equal(l, r)))
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            if case .null = l { return .success(.bool(false)) }
            if case .null = r { return .success(.bool(false)) }
            guard let order = compare(l, r) else { return noOverload(op.rawValue, l, r) }
            switch op {
            case .less: return .success(.bool(order == .less))
            case .lessOrEqual: return .success(.bool(order != .greater && order != .unordered))
            case .greater: return .success(.bool(order == .greater))
            default: return .success(.bool(order != .less && order != .unordered))
            }
        case .in:
            switch r {
            case .list(let items): return .success(.bool(items.contains { equal(l, $0) }))
            case .map(let entries): return .success(.bool(entries.contains { equal(l, $0.key) }))
            default: return noOverload("in", l, r)
            }
        case .add, .subtract, .multiply, .divide, .remainder:
            return CELArithmetic.apply(op, l, r)
        }
    }

    enum Order {
        case less
        case equal
        case greater
        /// NaN against a number.
        case unordered
    }

    /// CEL's ordering: numbers across int, uint and double by value (NaN is unordered, so
    /// every comparison with it is false); otherwise both of one
    /// type among string, bytes, bool, timestamp, duration. Nil: no ordering for the types.
    static func compare(_ l: CELValue, _ r: CELValue) -> Order? {
        func order<T: Comparable>(_ a: T, _ b: T) -> Order { a < b ? .less : a > b ? .greater : .equal }
        func lexical<S: Sequence>(_ a: S, _ b: S) -> Order where S.Element: Comparable {
            a.lexicographicallyPrecedes(b) ? .less : b.lexicographicallyPrecedes(a) ? .greater : .equal
        }
        switch (l, r) {
        case (.int(let a), .int(let b)): return order(a, b)
        case (.uint(let a), .uint(let b)): return order(a, b)
        case (.double(let a), .double(let b)): return a.isNaN || b.isNaN ? .unordered : order(a, b)
        case (.int(let a), .uint(let b)): return a < 0 ? .less : order(UInt64(a), b)
        case (.uint(let a), .int(let b)): return b < 0 ? .greater : order(a, UInt64(b))
        case (.int(let a), .double(let b)): return compareAsDoubles(a, b)
        case (.double(let a), .int(let b)): return reversed(compareAsDoubles(b, a))
        case (.uint(let a), .double(let b)): return compareAsDoubles(a, b)
        case (.double(let a), .uint(let b)): return reversed(compareAsDoubles(b, a))
        case (.string(let a), .string(let b)): return lexical(a.unicodeScalars, b.unicodeScalars)
        case (.bytes(let a), .bytes(let b)): return lexical(a, b)
        case (.bool(let a), .bool(let b)): return a == b ? .equal : (a ? .greater : .less)
        case (.timestamp(let s1, let n1), .timestamp(let s2, let n2)): return lexical([s1, Int64(n1)], [s2, Int64(n2)])
        case (.duration(let a), .duration(let b)): return order(a, b)
        default: return nil
        }
    }

    private static func reversed(_ order: Order) -> Order {
        switch order {
        case .less: return .greater
        case .greater: return .less
        default: return order
        }
    }

    /// An integer against a double: the integer as a double, as cel-go and the reference
    /// interpreter compare them (so `9223372036854775807 == 9223372036854775808.0`).
    private static func compareAsDoubles<I: BinaryInteger>(_ a: I, _ b: Double) -> Order {
        if b.isNaN { return .unordered }
        let x = Double(a)
        return x < b ? .less : x > b ? .greater : .equal
    }

    /// CEL's heterogeneous equality: numbers equal by value across types, lists and maps
    /// element by element, any other mix of types unequal.
    static func equal(_ l: CELValue, _ r: CELValue) -> Bool {
        switch (l, r) {
        case (.null, .null): return true
        case (.int, _), (.uint, _), (.double, _):
            guard let order = compare(l, r) else { return false }
            return order == .equal
        case (.string(let a), .string(let b)): return a.unicodeScalars.elementsEqual(b.unicodeScalars)
        case (.bytes(let a), .bytes(let b)): return a == b
        case (.bool(let a), .bool(let b)): return a == b
        case (.timestamp, .timestamp), (.duration, .duration): return compare(l, r) == .equal
        case (.list(let a), .list(let b)):
            guard a.count == b.count else { return false }
            return zip(a, b).allSatisfy { equal($0, $1) }
        case (.map(let a), .map(let b)):
            guard a.count == b.count else { return false }
            return a.allSatisfy { entry in b.contains { equal($0.key, entry.key) && equal($0.value, entry.value) }
            }
        default: return false
        }
    }
}
