/// An audience filter's syntax tree: each node keeps the span of source it was read from, so
/// errors name a line and column and the dry run can print each sub-expression's value.
package struct CELNode: Sendable {
    package indirect enum Kind: Sendable {
        case literal(CELValue)
        case identifier(String)
        /// `operand.field`; `has(operand.field)` is `.has` of it.
        case select(CELNode, String)
        case has(CELNode, String)
        case index(CELNode, CELNode)
        /// A function (`size(x)`) or a method (`x.startsWith(y)`: `target` is `x`).
        case call(String, target: CELNode?, arguments: [CELNode])
        case not(CELNode)
        case negate(CELNode)
        case binary(CELBinaryOperator, CELNode, CELNode)
        case and(CELNode, CELNode)
        case or(CELNode, CELNode)
        case conditional(CELNode, CELNode, CELNode)
        case list([CELNode])
        case map([(key: CELNode, value: CELNode)])
    }

    package var kind: Kind
    /// UTF-8 offsets into the source, `start..<end`.
    package var start: Int
    package var end: Int
}

package enum CELBinaryOperator: String, Sendable {
    case add = "+"
    case subtract = "-"
    case multiply = "*"
    case divide = "/"
    case remainder = "%"
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    case `in` = "in"
}

/// A filter that does not parse: what is wrong and where (`1:27: expected ')'`).
package struct CELSyntaxError: Error, Equatable, CustomStringConvertible, Sendable {
    /// 1-based; the column counts characters.
    package let line: Int
    package let column: Int
    package let reason: String
    package var description: String { "\(line):\(column): \(reason)" }
}
