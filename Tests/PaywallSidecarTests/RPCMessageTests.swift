import PaywallCore
import PaywallSidecar
import XCTest

/// Decoding the app's lines and the errors each wrong one gets (JSON-RPC 2.0 codes).
final class RPCMessageTests: XCTestCase {
    private func decode(_ text: String) -> Result<RPCMessage, RPCMessage.DecodeFailure> {
        RPCMessage.decode(Array(text.utf8))
    }

    private func failure(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> RPCMessage.DecodeFailure? {
        guard case .failure(let failure) = decode(text) else {
            XCTFail("\(text) decoded", file: file, line: line)
            return nil
        }
        return failure
    }

    func testRequestsNotificationsAndResponses() {
        XCTAssertEqual(
            try decode(#"{"jsonrpc":"2.0","id":7,"method":"identify","params":{"user_id":"ada"}}"#).get(),
            .request(id: 7, method: "identify", params: RPCParams(["user_id": "ada"])))
        XCTAssertEqual(
            try decode(#"{"jsonrpc":"2.0","method":"shutdown"}"#).get(), .notification(method: "shutdown", params: RPCParams([:]))
        )
        XCTAssertEqual(
            try decode(#"{"jsonrpc":"2.0","id":"paywall-1","result":{"result":"purchased"}}"#).get(),
            .response(id: "paywall-1", outcome: .success(["result": "purchased"])))
        XCTAssertEqual(
            try decode(#"{"jsonrpc":"2.0","id":"paywall-2","error":{"code":-1,"message":"card declined"}}"#).get(),
            .response(id: "paywall-2", outcome: .failure(RPCError(code: -1, message: "card declined"))))
    }

    func testEachWrongLineGetsItsCodeAndTheIdWhenOneCanBeRead() {
        let cases: [(String, Int, RPCID)] = [
            ("{", -32700, .null),
            ("[]", -32600, .null),
            ("42", -32600, .null),
            (#"{"id":1,"method":"reset"}"#, -32600, 1),
            (#"{"jsonrpc":"1.0","id":"x","method":"reset"}"#, -32600, "x"),
            (#"{"jsonrpc":"2.0","id":true,"method":"reset"}"#, -32600, .null),
            (#"{"jsonrpc":"2.0","id":2,"method":3}"#, -32600, 2),
            (#"{"jsonrpc":"2.0","id":3}"#, -32600, 3),
            (#"{"jsonrpc":"2.0","id":4,"method":"reset","params":[1]}"#, -32602, 4),
        ]
        for (text, code, id) in cases {
            let failure = failure(text)
            XCTAssertEqual(failure?.error.code, code, text)
            XCTAssertEqual(failure?.id, id, text)
        }
        XCTAssertEqual(RPCMessage.decode([0xFF, 0xFE]).failureCode, -32700, "not UTF-8")
        XCTAssertEqual(failure(#"{"jsonrpc":"2.0","id":4,"method":"reset","params":"x"}"#)?.error.data, ["field": "params"])
    }

    /// Ids come back as they were written: a Double would change 2^53+1, 1.23e29 and -0.
    func testNumberIdsAreEchoedExactlyAsSent() throws {
        for text in ["9007199254740993", "1.23e29", "-0", "1.0", "12345678901234567890123"] {
            guard case .request(let id, _, _) = try decode(#"{"jsonrpc":"2.0","id":\#(text),"method":"reset"}"#).get() else {
                return XCTFail(text)
            }
            XCTAssertEqual(RPCMessage.response(id: id, result: [:]), #"{"id":\#(text),"jsonrpc":"2.0","result":{}}"#)
        }
        XCTAssertEqual(failure(#"{"jsonrpc":"2.0","id":-0,"method":3}"#)?.id.text, "-0")
        XCTAssertNotEqual(
            try decode(#"{"jsonrpc":"2.0","id":9007199254740993,"method":"reset"}"#).get(),
            try decode(#"{"jsonrpc":"2.0","id":9007199254740992,"method":"reset"}"#).get(), "two ids, not one")
    }

    /// Duplicate keys are refused as the file loaders refuse them, naming the key, with the id.
    func testDuplicateKeysAreAnInvalidRequestNamingTheKey() {
        let twice = failure(#"{"jsonrpc":"2.0","id":5,"method":"identify","params":{"user_id":"a","user_id":"b"}}"#)
        XCTAssertEqual(twice?.error.code, -32600)
        XCTAssertEqual(twice?.id, 5)
        XCTAssertTrue(twice?.error.message.contains(#"the key "user_id" appears twice"#) == true, twice?.error.message ?? "")
        XCTAssertEqual(failure(#"{"jsonrpc":"2.0","id":1,"id":2,"method":"reset"}"#)?.id, 2, "the id JSON.parse would read")
    }

    func testLinesTheServerWrites() {
        XCTAssertEqual(RPCMessage.response(id: 1, result: [:]), #"{"id":1,"jsonrpc":"2.0","result":{}}"#)
        XCTAssertEqual(
            RPCMessage.response(id: .null, error: .parseError("x")),
            #"{"error":{"code":-32700,"message":"not JSON: x; send one JSON-RPC 2.0 object per line"},"id":null,"jsonrpc":"2.0"}"#
        )
        XCTAssertEqual(
            RPCMessage.notification("purchaseCancelled", ["id": "paywall-1"]),
            #"{"jsonrpc":"2.0","method":"purchaseCancelled","params":{"id":"paywall-1"}}"#)
    }

    func testAKeyOfTheWrongTypeIsNotPrintedBack() {
        XCTAssertThrowsError(try RPCParams(["license_key": ["SECRET-KEY-1234"]]).string("license_key")) { error in
            let message = (error as? RPCError)?.message ?? ""
            XCTAssertFalse(message.contains("SECRET"), message)
            XCTAssertTrue(message.hasPrefix("params.license_key: must be a string"), message)
        }
    }

    /// Every parameter error names its field.
    func testParamsNameTheFieldInEveryError() {
        let params = RPCParams(["user_id": 3, "timeout": -1, "tags": ["a", 2], "kind": "x"])
        let errors: [(String, () throws -> Void)] = [
            ("user_id", { _ = try params.string("user_id") }),
            ("missing", { _ = try params.requiredString("missing") }),
            ("timeout", { _ = try params.positiveNumber("timeout") }),
            ("tags", { _ = try params.strings("tags") }),
            ("kind", { _ = try params.choice("kind", ["app", "fake_store"]) }),
            ("user_id", { try params.only(["timeout", "tags", "kind"]) }),
        ]
        for (field, body) in errors {
            do {
                try body()
                XCTFail("\(field) accepted")
            } catch let error as RPCError {
                XCTAssertEqual(error.code, -32602)
                XCTAssertEqual(error.data, ["field": .string(field)])
                XCTAssertTrue(error.message.hasPrefix("params.\(field): "), error.message)
            } catch {
                XCTFail("\(error)")
            }
        }
    }
}

extension Result where Failure == RPCMessage.DecodeFailure {
    var failureCode: Int? {
        if case .failure(let failure) = self { failure.error.code } else { nil }
    }
}
