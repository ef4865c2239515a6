import PaywallCore

/// A JSON-RPC 2.0 error object as `paywall serve` sends it: the code, a message that says
/// what was wrong, where, and how to fix it, and `data` (for -32602, `{"field": NAME}`).
package struct RPCError: Error, Equatable, CustomStringConvertible {
    package let code: Int
    package let message: String
    package let data: JSONValue?

    package init(code: Int, message: String, data: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    package var description: String { "\(message) (\(code))" }

    /// The error member of a response.
    package var json: JSONValue {
        var object: [String: JSONValue] = ["code": .number(Double(code)), "message": .string(message)]
        if let data { object["data"] = data }
        return .object(object)
    }

    /// -32700: the line is not JSON.
    package static func parseError(_ reason: String) -> RPCError {
        RPCError(code: -32700, message: "not JSON: \(reason); send one JSON-RPC 2.0 object per line")
    }

    /// -32600: JSON, but not a request this server takes.
    package static func invalidRequest(_ reason: String) -> RPCError {
        RPCError(code: -32600, message: "not a valid request: \(reason)")
    }

    /// -32601.
    package static func methodNotFound(_ method: String, known: [String]) -> RPCError {
        RPCError(code: -32601, message: "unknown method \"\(method)\"; the methods are: \(known.joined(separator: ", "))")
    }

    /// -32602, naming the parameter in `data.field`.
    package static func invalidParams(field: String, _ reason: String) -> RPCError {
        RPCError(code: -32602, message: "params.\(field): \(reason)", data: ["field": .string(field)])
    }

    /// -32000: the method ran and could not do what was asked (the message says why).
    package static func failed(_ reason: String) -> RPCError {
        RPCError(code: -32000, message: reason)
    }

    /// -32001: a method that needs `initialize` came before it.
    package static func notInitialized(_ method: String) -> RPCError {
        RPCError(code: -32001, message: "\(method) needs the runtime: call initialize first")
    }
}
