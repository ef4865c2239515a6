import PaywallCore

/// One line the app sent `paywall serve`, decoded: a request, a notification, or the app's
/// response to a request of the server's (`purchase`, `restorePurchases`).
package enum RPCMessage: Equatable {
    case request(id: RPCID, method: String, params: RPCParams)
    case notification(method: String, params: RPCParams)
    case response(id: RPCID, outcome: Result<JSONValue, RPCError>)

    /// Decodes one line. The error carries the id to answer with (null when the line has none
    /// that could be read). A key written twice in an object is refused (-32600, naming it),
    /// as the runtime's file loaders refuse it: keeping either one would hide a mistake.
    package static func decode(_ line: [UInt8]) -> Result<RPCMessage, DecodeFailure> {
        guard String(validating: line, as: UTF8.self) != nil else {
            return .failure(DecodeFailure(id: .null, error: .parseError("the line is not UTF-8")))
        }
        let message: JSONMessage
        do { message = try JSONMessage(line, refusingDuplicateKeys: true) } catch {
            guard let key = error.duplicateKey else { return .failure(DecodeFailure(id: .null, error: .parseError("\(error)"))) }
            let id = (try? JSONMessage(line, refusingDuplicateKeys: false)).flatMap(Self.id(of:)) ?? .null
            return .failure(
                DecodeFailure(
                    id: id,
                    error: .invalidRequest("the key \"\(key)\" appears twice in one object (\(error)); send each key once")))
        }
        guard case .object(let object) = message.value else {
            let what = message.value.arrayValue != nil ? "a batch (an array); batches are not taken" : "not an object"
            return .failure(DecodeFailure(id: .null, error: .invalidRequest("\(what): send one JSON-RPC 2.0 object per line")))
        }
        // An id that can be answered with, even when the rest of the request is wrong.
        let rawId = object["id"]
        let id = Self.id(of: message)
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

    /// The message's id when it is one (a string, or a number with its text as sent).
    private static func id(of message: JSONMessage) -> RPCID? {
        switch message.value["id"] {
        case .string(let text)?: RPCID(.string(text))
        case .number(let number)?:
            RPCID(number: .number(number), text: message.numberTexts["id"] ?? JSONValue.number(number).jsonText)
        default: nil
        }
    }

    /// Why a line is no message, and the id to answer it with.
    package struct DecodeFailure: Error, Equatable {
        package let id: RPCID
        package let error: RPCError
    }

    // MARK: Lines the server writes

    /// A success response (keys sorted, as `JSONValue.jsonText` writes them).
    package static func response(id: RPCID, result: JSONValue) -> String {
        #"{"id":\#(id.text),"jsonrpc":"2.0","result":\#(result.jsonText)}"#
    }

    /// An error response.
    package static func response(id: RPCID, error: RPCError) -> String {
        #"{"error":\#(error.json.jsonText),"id":\#(id.text),"jsonrpc":"2.0"}"#
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
