import XCTest

@testable import PaywallCore

/// The CEL subset, operator by operator, with its null safety, its syntax errors and its limits.
final class CELExpressionTests: XCTestCase {
    private let variables: [String: CELValue] = [
        "user": CELValue(
            json: .object(["id": "u1", "age": 30, "score": .number(2.5), "plan": "pro", "tags": ["a", "b"], "beta": true])),
        "device": CELValue(json: .object(["deviceLanguageCode": "de", "daysSinceInstall": 3, "nested": ["x": 1]])),
        "params": .map([]),
    ]

    private func value(_ source: String, file: StaticString = #filePath, line: UInt = #line) -> CELValue? {
        do {
            switch try CELExpression(source).evaluate(variables) {
            case .success(let value): return value
            case .failure(let error):
                XCTFail("\(source): \(error)", file: file, line: line)
                return nil
            }
        } catch {
            XCTFail("\(source): \(error)", file: file, line: line)
            return nil
        }
    }

    private func assertValue(_ source: String, _ expected: CELValue, file: StaticString = #filePath, line: UInt = #line) {
        guard let actual = value(source, file: file, line: line) else { return }
        XCTAssertTrue(CELEvaluator.equal(actual, expected), "\(source) = \(actual.literalText)", file: file, line: line)
        XCTAssertEqual(actual.typeName, expected.typeName, source, file: file, line: line)
    }

    private func assertError(_ source: String, containing text: String, file: StaticString = #filePath, line: UInt = #line) {
        do {
            let result = try CELExpression(source).evaluate(variables)
            guard case .failure(let error) = result else {
                return XCTFail("\(source): expected an error, got \(result)", file: file, line: line)
            }
            XCTAssertTrue(error.message.contains(text), "\(source): \(error.message)", file: file, line: line)
        } catch {
            XCTFail("\(source): \(error)", file: file, line: line)
        }
    }

    private func assertSyntaxError(_ source: String, _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try CELExpression(source), source, file: file, line: line) { error in
            XCTAssertEqual((error as? CELSyntaxError)?.description, expected, source, file: file, line: line)
        }
    }

    func testLiterals() {
        assertValue("42", .int(42))
        assertValue("0x1F", .int(31))
        assertValue("7u", .uint(7))
        assertValue("2.5", .double(2.5))
        assertValue(".5e1", .double(5))
        assertValue("-9223372036854775808", .int(Int64.min))
        assertValue(#""a\tb\u00e9\x41""#, .string("a\tbéA"))
        assertValue("'''two\nlines'''", .string("two\nlines"))
        assertValue(#"r"\d""#, .string(#"\d"#))
        assertValue(#"b"\xff""#, .bytes([0xFF]))
        assertValue("true", .bool(true))
        assertValue("null", .null)
        assertValue("[1, 'a', 2.0]", .list([.int(1), .string("a"), .double(2)]))
        assertValue("{'a': 1, 2: 'b'}", .map([(.string("a"), .int(1)), (.int(2), .string("b"))]))
    }

    func testArithmetic() {
        assertValue("1 + 2 * 3", .int(7))
        assertValue("7 / 2", .int(3))
        assertValue("-7 / 2", .int(-3))
        assertValue("-7 % 3", .int(-1))
        assertValue("3u * 2u", .uint(6))
        assertValue("1.5 * 2.0", .double(3))
        assertValue("1.0 / 0.0", .double(.infinity))
        assertValue("'ab' + 'c'", .string("abc"))
        assertValue("[1] + [2]", .list([.int(1), .int(2)]))
        assertValue("-(2)", .int(-2))
        assertError("1 / 0", containing: "division by zero")
        assertError("1 % 0", containing: "modulus by zero")
        assertError("9223372036854775807 + 1", containing: "overflow")
        assertError("-9223372036854775808 / -1", containing: "overflow")
        assertError("-9223372036854775808 % -1", containing: "overflow")
        assertError("3u - 4u", containing: "overflow")
        assertError("1 + 1.0", containing: "no such overload")
        assertError("2.5 % 1.0", containing: "no such overload")
    }

    func testHeterogeneousComparisons() {
        assertValue("1 == 1.0", .bool(true))
        assertValue("1u == 1", .bool(true))
        assertValue("1 < 1.5", .bool(true))
        assertValue("2u > 1.5", .bool(true))
        assertValue("-1 < 0u", .bool(true))
        // int against double compares as doubles, as cel-go and the reference interpreter do.
        assertValue("9223372036854775807 == 9223372036854775808.0", .bool(true))
        assertValue("0.0 / 0.0 < 1", .bool(false))
        assertValue("0.0 / 0.0 >= 1", .bool(false))
        assertValue("[1, 2] == [1.0, 2u]", .bool(true))
        assertValue("1 == 'a'", .bool(false))
        assertValue("1 != 'a'", .bool(true))
        assertValue("0.0 / 0.0 == 0.0 / 0.0", .bool(false))
        assertValue("'a' < 'b'", .bool(true))
        assertValue("b'a' < b'b'", .bool(true))
        assertValue("false < true", .bool(true))
        assertValue("user.age >= 30 && user.score < 3", .bool(true))
        assertError("1 < 'a'", containing: "no such overload")
        assertError("[1] < [2]", containing: "no such overload")
    }

    func testLogicAbsorbsErrors() {
        assertValue("false && 1 / 0 == 1", .bool(false))
        assertValue("1 / 0 == 1 && false", .bool(false))
        assertValue("true || 1 / 0 == 1", .bool(true))
        assertValue("1 / 0 == 1 || true", .bool(true))
        assertValue("1 || true", .bool(true))
        assertValue("!false", .bool(true))
        assertError("true && 1 / 0 == 1", containing: "division by zero")
        assertError("false || 1", containing: "no such overload")
        assertError("!1", containing: "no such overload")
        assertValue("true ? 1 : 1 / 0", .int(1))
        assertValue("user.age > 18 ? 'adult' : 'minor'", .string("adult"))
        assertError("1 ? 2 : 3", containing: "no such overload")
    }

    func testMembershipSelectionAndIndexing() {
        assertValue("'b' in user.tags", .bool(true))
        assertValue("1.0 in [1, 2]", .bool(true))
        assertValue("'plan' in user", .bool(true))
        assertValue("user.tags[1]", .string("b"))
        assertValue("user['plan']", .string("pro"))
        assertValue("device.nested.x", .int(1))
        assertValue("{1: 'one'}[1u]", .string("one"))
        assertError("user.tags[2]", containing: "out of bounds")
        assertError("user.age.x", containing: "no such field")
        assertError("nobody", containing: "undeclared reference")
    }

    func testNullSafety() {
        assertValue("user.missing", .null)
        assertValue("user.missing.deeper", .null)
        assertValue("user.missing == null", .bool(true))
        assertValue("user.missing == 1", .bool(false))
        assertValue("user.missing < 1", .bool(false))
        assertValue("user.missing >= 1", .bool(false))
        assertValue("user['missing']", .null)
        assertValue("has(user.plan)", .bool(true))
        assertValue("has(user.missing)", .bool(false))
        assertValue("has(user.missing.deeper)", .bool(false))
        // A filter that reads a missing field does not match, and does not fail the others.
        XCTAssertFalse(try CELExpression("user.missing > 3").matches(variables))
        XCTAssertTrue(try CELExpression("user.missing > 3 || user.plan == 'pro'").matches(variables))
    }

    func testFunctions() {
        assertValue("size('héllo')", .int(5))
        assertValue("'abc'.size()", .int(3))
        assertValue("size(user.tags)", .int(2))
        assertValue("size({'a': 1})", .int(1))
        assertValue("size(b'ab')", .int(2))
        assertValue("'hello'.contains('ell')", .bool(true))
        assertValue("'hello'.startsWith('he')", .bool(true))
        assertValue("'hello'.endsWith('lo')", .bool(true))
        assertValue("'hello'.matches('^h.l+o$')", .bool(true))
        assertValue("'order-123'.matches('[0-9]{3}')", .bool(true))
        assertValue("matches('abc', 'x|b')", .bool(true))
        assertValue("'abc'.matches('^b')", .bool(false))
        assertValue("int(2.7)", .int(2))
        assertValue("int(-2.7)", .int(-2))
        assertValue("int('12')", .int(12))
        assertValue("uint(3)", .uint(3))
        assertValue("double(1)", .double(1))
        assertValue("double('1.5')", .double(1.5))
        assertValue("string(2.0)", .string("2"))
        assertValue("string(0.1)", .string("0.1"))
        assertValue("string(1e20)", .string("100000000000000000000"))
        assertValue("string(7u)", .string("7"))
        assertValue("string(b'ab')", .string("ab"))
        assertValue("bool('true')", .bool(true))
        assertError("int(1e19)", containing: "out of range")
        assertError("uint(-1)", containing: "out of range")
        assertError("uint(-0.5)", containing: "out of range")
        assertError("int('x')", containing: "not an integer")
        assertError("max(1, 2)", containing: "unknown function")
        assertError("'a'.size(1)", containing: "no such overload")
    }

    func testTimestampsAndDurations() {
        assertValue("timestamp('2020-01-01T00:00:00Z') < timestamp('2021-01-01T00:00:00Z')", .bool(true))
        assertValue("timestamp('2020-01-01T01:00:00+01:00') == timestamp('2020-01-01T00:00:00Z')", .bool(true))
        assertValue("duration('90m') == duration('1h30m')", .bool(true))
        assertValue("duration('1h') > duration('59m59.5s')", .bool(true))
        assertValue("timestamp('2020-01-01T00:00:00Z') + duration('36h')", .timestamp(seconds: 1_577_966_400, nanos: 0))
        assertValue("string(timestamp('2019-12-31T23:59:59.5Z') + duration('1s'))", .string("2020-01-01T00:00:00.5Z"))
        assertValue(
            "timestamp('2020-01-02T00:00:00Z') - timestamp('2020-01-01T00:00:00Z')", .duration(nanoseconds: 86_400_000_000_000))
        assertValue("string(duration('90s'))", .string("1m30s"))
        assertError("timestamp('yesterday')", containing: "RFC 3339")
        assertError("duration('3 days')", containing: "not a duration")
    }

    func testSyntaxErrorsNamePositions() {
        assertSyntaxError("(device.deviceLanguageCode == 'de'", "1:35: expected ')', found end of filter")
        assertSyntaxError("user.age >", "1:11: unexpected end of filter")
        assertSyntaxError("user.age = 3", "1:10: unexpected '=' (compare with '==')")
        assertSyntaxError("user.age & 3", "1:10: unexpected '&' (CEL writes '&&' and '||')")
        assertSyntaxError("'abc", "1:1: unterminated string")
        assertSyntaxError("user.\n  age >> 2", "2:8: unexpected '>'")
        assertSyntaxError("'é' == é", "1:8: unexpected character 'é'")
        assertSyntaxError("has(user)", "1:5: has() takes a field selection, such as has(user.plan)")
        assertSyntaxError("99999999999999999999", "1:1: integer out of range (int is 64-bit; write a 'u' suffix for uint)")
        assertSyntaxError("", "1:1: the filter is empty (leave \"filter\" out to match everyone)")
    }

    func testLimits() throws {
        let long = Array(repeating: "1", count: 2_100).joined(separator: "+")
        assertSyntaxError(long, "1:1: the filter is 4199 bytes long; at most 4096 are allowed")
        // 48 parentheses deep, as documented; one more is refused.
        let parenthesized = { (n: Int) in String(repeating: "(", count: n) + "1" + String(repeating: ")", count: n) }
        XCTAssertNoThrow(try CELExpression(parenthesized(48)))
        XCTAssertThrowsError(try CELExpression(parenthesized(49))) { error in
            XCTAssertEqual(
                (error as? CELSyntaxError)?.reason, "nested too deeply (at most 48 levels of parentheses, 96 of ! or -)")
        }
        XCTAssertNoThrow(try CELExpression(String(repeating: "!", count: 96) + "true"))
        let manyNots = String(repeating: "!", count: 100) + "true"
        XCTAssertThrowsError(try CELExpression(manyNots))
        // Chains nest without parentheses: a long one is refused before evaluation recurses through it.
        let chain = Array(repeating: "1", count: 1_500).joined(separator: "+")
        XCTAssertThrowsError(try CELExpression(chain)) { error in
            XCTAssertEqual((error as? CELSyntaxError)?.reason, "nested too deeply (at most 100 levels of operators)")
        }
        XCTAssertNoThrow(try CELExpression(Array(repeating: "1", count: 90).joined(separator: "+")))
        assertError("duration('3000000h')", containing: "not a duration")  // past Int64 nanoseconds
        // A pattern that takes a backtracking engine exponential time answers at once here.
        let text = CELValue.string(String(repeating: "a", count: 5_000) + "!")
        XCTAssertFalse(try CELExpression("params.text.matches('^(a+)+$')").matches(["params": .map([(.string("text"), text)])]))
        XCTAssertFalse(try CELExpression("params.text.matches('(a|aa)*b')").matches(["params": .map([(.string("text"), text)])]))
        XCTAssertTrue(try CELExpression("params.text.matches('(a|aa)*!$')").matches(["params": .map([(.string("text"), text)])]))
        assertError("'a'.matches('(a{1000}){1000}')", containing: "too large")
        // Many calls over long text: one filter's string work is bounded as a whole.
        let longText = ["params": CELValue.map([(.string("text"), .string(String(repeating: "ab", count: 30_000)))])]
        let heavy = try CELExpression(
            Array(repeating: "params.text.matches('(a|b)*(a|b){500}c')", count: 20).joined(separator: " || "))
        guard case .failure(let error) = heavy.evaluate(longText) else { return XCTFail("the work was not bounded") }
        XCTAssertTrue(error.message.contains("too much work"), error.message)
        let wide = try CELExpression("params.text.contains(params.text + 'x')")
        guard case .failure(let compared) = wide.evaluate(longText) else { return XCTFail("contains was not bounded") }
        XCTAssertTrue(compared.message.contains("too much text"), compared.message)
        assertError("'a'.matches('(?=a)')", containing: "only (?:...) groups")
        assertError("'a'.matches('(a')", containing: "missing ')'")
    }

    func testExplainListsSubExpressions() throws {
        let filter = try CELExpression("device.deviceLanguageCode == 'de' && device.daysSinceInstall < 7")
        let (value, steps) = filter.explain(variables)
        XCTAssertEqual(try value.get().text, "true")
        XCTAssertEqual(
            steps.map { "\($0.source) = \((try? $0.value.get())?.literalText ?? "error")" },
            [
                "device.deviceLanguageCode = \"de\"",
                "device.deviceLanguageCode == 'de' = true",
                "device.daysSinceInstall = 3",
                "device.daysSinceInstall < 7 = true",
                "device.deviceLanguageCode == 'de' && device.daysSinceInstall < 7 = true",
            ])
    }
}
