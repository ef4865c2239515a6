/// An audience filter: an expression in a subset of CEL (Google's Common Expression Language,
/// what Superwall's filters are written in), parsed once and evaluated per decision.
///
/// Bounded so no config can hang or exhaust the host: at most `maximumLength` bytes of source,
/// `CELParser.maximumDepth` levels of nesting, no loops or macros (evaluation is linear in the
/// expression), and `matches()` runs in time linear in its text (`CELRegex`).
package struct CELExpression: Sendable {
    package static let maximumLength = 4_096

    package let source: String
    private let root: CELNode

    package init(_ source: String) throws(CELSyntaxError) {
        let bytes = Array(source.utf8)
        guard bytes.count <= Self.maximumLength else {
            throw CELSyntaxError(
                line: 1, column: 1, reason: "the filter is \(bytes.count) bytes long; at most \(Self.maximumLength) are allowed")
        }
        guard !bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x09 || $0 == 0x0D }) else {
            throw CELSyntaxError(line: 1, column: 1, reason: "the filter is empty (leave \"filter\" out to match everyone)")
        }
        self.source = source
        self.root = try CELParser.parse(bytes)
    }

    /// The expression's value over `variables` (names to values: `user`, `device`, `params`).
    package func evaluate(_ variables: [String: CELValue]) -> Result<CELValue, CELEvaluationError> {
        var evaluator = CELEvaluator(variables: variables, source: Array(source.utf8))
        return evaluator.evaluate(root)
    }

    /// Whether a filter passes: only the value `true` does (an error or another value does not).
    package func matches(_ variables: [String: CELValue]) -> Bool {
        if case .success(.bool(true)) = evaluate(variables) { return true }
        return false
    }

    /// The value and every sub-expression's value (literals and bare variables left out), innermost first, the whole last.
    package func explain(_ variables: [String: CELValue]) -> (value: Result<CELValue, CELEvaluationError>, steps: [CELTraceEntry])
    {
        var evaluator = CELEvaluator(variables: variables, source: Array(source.utf8), trace: [])
        let value = evaluator.evaluate(root)
        return (value, evaluator.trace ?? [])
    }
}
