import PaywallCore

/// A request's named parameters, read with the field's name in every error (-32602,
/// `data.field`). Absent and null mean the same: not given.
package struct RPCParams: Equatable {
    package let values: [String: JSONValue]

    package init(_ values: [String: JSONValue]) {
        self.values = values
    }

    /// Refuses a name the method does not take (a typo would otherwise be ignored).
    package func only(_ names: Set<String>) throws(RPCError) {
        if let unknown = values.keys.sorted().first(where: { !names.contains($0) }) {
            let taken = names.isEmpty ? "none" : names.sorted().joined(separator: ", ")
            throw .invalidParams(field: unknown, "not a parameter of this method; it takes: \(taken)")
        }
    }

    private func given(_ name: String) -> JSONValue? {
        guard let value = values[name], value != .null else { return nil }
        return value
    }

    package func string(_ name: String) throws(RPCError) -> String? {
        guard let value = given(name) else { return nil }
        guard let text = value.stringValue else {
            // A key sent as another type is not printed back (errors end up in logs).
            let got = name == "license_key" ? "a value of another type (not shown: it may hold a key)" : value.jsonText
            throw .invalidParams(field: name, "must be a string; got \(got)")
        }
        return text
    }

    package func requiredString(_ name: String) throws(RPCError) -> String {
        guard let text = try string(name) else { throw .invalidParams(field: name, "is required (a string)") }
        guard !text.isEmpty else { throw .invalidParams(field: name, "must not be empty") }
        return text
    }

    /// A number more than 0 (seconds, counts).
    package func positiveNumber(_ name: String) throws(RPCError) -> Double? {
        guard let value = given(name) else { return nil }
        guard case .number(let number) = value, number > 0, number.isFinite else {
            throw .invalidParams(field: name, "must be a number more than 0; got \(value.jsonText)")
        }
        return number
    }

    package func object(_ name: String) throws(RPCError) -> [String: JSONValue]? {
        guard let value = given(name) else { return nil }
        guard let object = value.objectValue else {
            throw .invalidParams(field: name, "must be an object; got \(value.jsonText)")
        }
        return object
    }

    package func strings(_ name: String) throws(RPCError) -> [String]? {
        guard let value = given(name) else { return nil }
        guard let items = value.arrayValue, case let texts = items.compactMap(\.stringValue), texts.count == items.count else {
            throw .invalidParams(field: name, "must be an array of strings; got \(value.jsonText)")
        }
        return texts
    }

    /// One of `choices`.
    package func choice(_ name: String, _ choices: [String]) throws(RPCError) -> String? {
        guard let text = try string(name) else { return nil }
        guard choices.contains(text) else {
            throw .invalidParams(field: name, "must be \(choices.map { "\"\($0)\"" }.joined(separator: " or ")); got \"\(text)\"")
        }
        return text
    }
}
