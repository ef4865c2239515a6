import PaywallCore

/// How `paywall present` reports a `PresentationResult`: one JSON line on stdout and the
/// process exit status. A CLI contract (documented in the Command Line article), not part of the model.
extension PresentationResult {
    /// The single line `paywall present` prints, e.g. `{"result":"declined"}` or
    /// `{"result":"purchased","product_id":"pro.monthly"}` (`result` always first).
    package var jsonLine: String {
        ResultLine.text(fields)
    }

    /// The line with the `problem` of a paywall whose slots' products did not resolve
    /// (`MissingProduct.problem`) after the result's own fields.
    package func jsonLine(missing: [MissingProduct]) -> String {
        var members = fields.map { ($0.0, JSONValue.string($0.1)) }
        if let problem = MissingProduct.problem(missing) { members.append(("problem", problem)) }
        return ResultLine.text(members)
    }

    /// The same as a JSON object (`paywall serve`'s `present` result), with the `problem` of
    /// `missing` products when there are any.
    package func json(missing: [MissingProduct] = []) -> JSONValue {
        var object = Dictionary(uniqueKeysWithValues: fields.map { ($0.0, JSONValue.string($0.1)) })
        object["problem"] = MissingProduct.problem(missing)
        return .object(object)
    }

    private var fields: [(String, String)] {
        var fields = [("result", name)]
        if case .purchased(let productId) = self { fields.append(("product_id", productId)) }
        if case .skipped(let reason) = self { fields.append(("reason", reason.name)) }
        if case .scriptError(let message) = self { fields.append(("message", message)) }
        return fields
    }

    /// The process exit status for this result.
    package var exitCode: Int32 {
        switch self {
        case .timeout: Self.timeoutExitCode
        case .scriptError: Self.strictCheckExitCode
        default: 0
        }
    }

    /// A run that `--timeout` ended.
    package static let timeoutExitCode: Int32 = 3
    /// A run that a `--strict` check ended.
    package static let strictCheckExitCode: Int32 = 4
}
