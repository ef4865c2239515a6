import Foundation
import XCTest

@testable import PaywallCore

/// The CEL subset against a reference: `scripts/cel_differential.py` generates expressions
/// over generated variables (ints and doubles mixed) and evaluates them with PyPI's
/// `common-expression-language==0.10.0` (the Rust cel-interpreter's bindings); this evaluator
/// must agree exactly on every case that reads only present fields. Cases that read a missing
/// field may differ only where the reference errors and null safety gives a value.
///
/// The venv: `scripts/cel-reference-venv` (scripts/setup runs it). A longer run:
/// `CEL_DIFFERENTIAL_COUNT=100000 swift test --filter CELDifferentialTests` (and
/// `CEL_DIFFERENTIAL_SEED` for other cases).
final class CELDifferentialTests: XCTestCase {
    private static let python = TestPaths.repository.appendingPathComponent(".build/cel-venv/bin/python")
    private static let generator = TestPaths.repository.appendingPathComponent("scripts/cel_differential.py")

    func testAgreesWithTheReferenceInterpreter() throws {
        let environment = ProcessInfo.processInfo.environment
        let count = Int(environment["CEL_DIFFERENTIAL_COUNT"] ?? "") ?? 1_000
        let seed = Int(environment["CEL_DIFFERENTIAL_SEED"] ?? "") ?? 1
        guard FileManager.default.isExecutableFile(atPath: Self.python.path) else {
            return XCTFail("no \(Self.python.path): make it with scripts/cel-reference-venv (scripts/setup runs it)")
        }
        let process = Process()
        process.executableURL = Self.python
        process.arguments = [Self.generator.path, "--count", String(count), "--seed", String(seed)]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "the generator failed")
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
        XCTAssertEqual(lines.count, count)

        var present = 0
        var disagreements: [String] = []
        var nullSafetyDifferences = 0
        for line in lines {
            let item = try JSONValue(parsing: String(line))
            let source = try XCTUnwrap(item["expression"]?.stringValue)
            let variables = try XCTUnwrap(item["variables"]?.objectValue).mapValues(CELValue.init(json:))
            let expected = try XCTUnwrap(item["result"])
            let readsOnlyPresentFields = item["present"]?.boolValue == true
            let actual = Self.tagged(try CELExpression(source).evaluate(variables))
            if readsOnlyPresentFields { present += 1 }
            if Self.agree(actual, expected) { continue }
            if !readsOnlyPresentFields, expected["kind"] == "error" {
                nullSafetyDifferences += 1
                continue
            }
            disagreements.append(
                "\(source)\n    variables \(item["variables"]!.jsonText)\n    reference \(expected.jsonText), this \(actual.jsonText)"
            )
        }
        XCTAssertGreaterThanOrEqual(present * 100, count * 80, "at least 80% of the cases read only present fields")
        XCTAssertTrue(
            disagreements.isEmpty,
            "\(disagreements.count) of \(count) disagree:\n" + disagreements.prefix(20).joined(separator: "\n"))
        print("CEL differential: \(count) cases, \(present) on present fields, \(nullSafetyDifferences) null-safety differences")
    }

    /// This evaluator's value in the generator's tagged form (int and uint are both `int`, as Python sees them).
    private static func tagged(_ result: Result<CELValue, CELEvaluationError>) -> JSONValue {
        guard case .success(let value) = result else { return .object(["kind": "error"]) }
        return tagged(value)
    }

    private static func tagged(_ value: CELValue) -> JSONValue {
        switch value {
        case .bool(let b): return .object(["kind": "bool", "value": .bool(b)])
        case .int(let i): return .object(["kind": "int", "value": .string(String(i))])
        case .uint(let u): return .object(["kind": "int", "value": .string(String(u))])
        case .double(let d): return .object(["kind": "double", "value": .string(d.isNaN ? "nan" : "\(d)")])
        case .string(let s): return .object(["kind": "string", "value": .string(s)])
        case .list(let items): return .object(["kind": "list", "value": .array(items.map(tagged))])
        case .null: return .object(["kind": "null"])
        default: return .object(["kind": "other", "value": .string(value.text)])
        }
    }

    /// Doubles compare by value (Python's `repr` and Swift's description differ in spelling only).
    private static func agree(_ a: JSONValue, _ b: JSONValue) -> Bool {
        guard a["kind"] == b["kind"] else { return false }
        switch a["kind"]?.stringValue {
        case "double":
            guard let x = a["value"]?.stringValue.flatMap(Double.init), let y = b["value"]?.stringValue.flatMap(Double.init)
            else { return false }
            return x == y || (x.isNaN && y.isNaN)
        case "list":
            guard let x = a["value"]?.arrayValue, let y = b["value"]?.arrayValue, x.count == y.count else { return false }
            return zip(x, y).allSatisfy { agree($0, $1) }
        default:
            return a == b
        }
    }
}
