import PaywallCore

/// One line the app sent `paywall serve`, decoded: a request, a notification, or the app's
/// response to a request of the server's (`purchase`, `restorePurchases`).
package enum RPCMessage: Equatable {
    case request(id: JSONValue, method: String, params: RPCParams)
    case notification(method: String, params: RPCParams)
    case response(id: JSONValue, outcome: Result<JSONValue, RPCError>)

    /// Decodes one line. The error carries the id to answer with (null when the line has none
    /// that could be read).
    package static func decode(_ line: [UInt8]) -> Result<RPCMessage, DecodeFailure> {
        guard let text = String(validating: line, as: UTF8.self) else {
            return .failure(DecodeFailure(id: .null, error: .parseError("the line is not UTF-8")))
        }
        let value: JSONValue
        do { value = try JSONValue(parsing: text) } catch {
            return .failure(DecodeFailure(id: .null, error: .parseError("\(error)")))
        }
        guard case .object(let object) = value else {
            let what = value.arrayValue != nil ? "a batch (an array); batches are not taken" : "not an object"
            return .failure(DecodeFailure(id: .null, error: .invalidRequest("\(what): send one JSON-RPC 2.0 object per line")))
        }
        // An id that can be answered with, even when the rest of the request is wrong.
        let rawId = object["id"]
        let id: JSONValue? =
            switch rawId {
            case .string, .number: rawId
            default: nil
            }
        func invalid(_ reason: String) -> Result<RPCMessage, DecodeFailure> {
            .failure(DecodeFailure(id: id ?? .null, error: .invalidRequest(reason)))
        }
        guard object["jsonrpc"] == .string("2.0") else { return invalid("\"jsonrpc\" must be \"2.0\"") }
        if rawId != nil, id == nil { return invalid("\"id\" must be a string or a number") }
        guard let methodValue = object["method"] else {
            guard let id else { return invalid("no \"method\": a request needs a method name, a response an id") }
            if let error = object["error"] {
                let code = error["code"].flatMap { if case .number(let n) = $0 { Int(exactly: n) } else { nil } } ?? -32603
                let message = error["message"]?.stringValue ?? error.jsonText
                return .success(.response(id: id, outcome: .failure(RPCError(code: code, message: message, data: error["data"]))))
            }
            guard let result = object["result"] else { return invalid("a response needs \"result\" or \"error\"") }
            return .success(.response(id: id, outcome: .success(result)))
        }
        guard let method = methodValue.stringValue, !method.isEmpty else {
            return invalid("\"method\" must be a non-empty string")
        }
        let params: RPCParams
        switch object["params"] {
        case nil, .null?: params = RPCParams([:])
        case .object(let members)?: params = RPCParams(members)
        default:
            return .failure(
                DecodeFailure(id: id ?? .null, error: .invalidParams(field: "params", "must be an object of named parameters")))
        }
        guard let id else { return .success(.notification(method: method, params: params)) }
        return .success(.request(id: id, method: method, params: params))
    }

    /// Why a line is no message, and the id to answer it with.
    package struct DecodeFailure: Error, Equatable {
        package let id: JSONValue
        package let error: RPCError
    }

    // MARK: Lines the server writes

    /// A success response.
    package static func response(id: JSONValue, result: JSONValue) -> String {
        JSONValue.object(["jsonrpc": "2.0", "id": id, "result": result]).jsonText
    }

    /// An error response.
    package static func response(id: JSONValue, error: RPCError) -> String {
        JSONValue.object(["jsonrpc": "2.0", "id": id, "error": error.json]).jsonText
    }

    /// A notification to the app.
    package static func notification(_ method: String, _ params: JSONValue) -> String {
        JSONValue.object(["jsonrpc": "2.0", "method": .string(method), "params": params]).jsonText
    }

    /// A request to the app.
    package static func request(id: JSONValue, method: String, params: JSONValue) -> String {
        JSONValue.object(["jsonrpc": "2.0", "id": id, "method": .string(method), "params": params]).jsonText
    }
}
