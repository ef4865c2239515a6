import PaywallCore

/// The one JSON line a window command prints when its run ends, with `result` first and the
/// other fields in the order given (a CLI contract, documented in the Command Line article).
package enum ResultLine {
    package static func text(_ fields: [(String, String)]) -> String {
        text(fields.map { ($0.0, JSONValue.string($0.1)) })
    }

    package static func text(_ fields: [(String, JSONValue)]) -> String {
        let members = fields.map { "\(JSONValue.string($0.0).jsonText):\($0.1.jsonText)" }
        return "{" + members.joined(separator: ",") + "}"
    }
}

extension MissingProduct {
    /// `{"result":"missing_product","slot":"primary","product_id":"..."}`: what `--strict` prints.
    package var jsonLine: String {
        ResultLine.text([("result", "missing_product"), ("slot", slot), ("product_id", productId)])
    }
}
