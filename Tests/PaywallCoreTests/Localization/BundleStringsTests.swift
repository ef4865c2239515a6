import Foundation
import XCTest

@testable import PaywallCore

/// A bundle's own tables: what `paywall validate` reports about them.
final class BundleStringsTests: XCTestCase {
    private var root: URL!

    override func setUpWithError() throws {
        root = try makeTemporaryDirectory("BundleStringsTests")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("locales"), withIntermediateDirectories: true)
    }

    override func tearDown() { removeTemporaryDirectory(root) }

    private func write(_ locale: String, _ json: String) throws {
        try json.write(to: root.appendingPathComponent("locales/\(locale).json"), atomically: true, encoding: .utf8)
    }

    func testPluralFormsMustBeICUsForEachTable() throws {
        try write("en", #"{"title": "Hi", "days.one": "{count} day", "days.other": "{count} days"}"#)
        try write(
            "pl",
            #"{"title": "Cześć", "days.one": "{count} dzień", "days.few": "{count} dni", "days.many": "{count} dni", "days.other": "{count} dnia"}"#
        )
        XCTAssertEqual(BundleStrings.problems(bundleRoot: root), [])
        try write("ar", #"{"title": "مرحبا", "days.other": "{count} يوم"}"#)
        XCTAssertEqual(
            BundleStrings.problems(bundleRoot: root),
            [#"locales/ar.json: "days" has the forms [other]; ar needs exactly [zero, one, two, few, many, other]"#])
    }

    func testUnreadableTablesAndAMissingEnglishAreProblems() throws {
        try write("de", #"{"title": "Hallo", "title": "Hi"}"#)
        let problems = BundleStrings.problems(bundleRoot: root)
        XCTAssertTrue(problems.contains { $0.contains("duplicate key \"title\"") }, "\(problems)")
        XCTAssertTrue(problems.contains("locales/en.json is missing; every other table falls back to it"), "\(problems)")
    }

    func testABundleWithoutTablesHasNoProblems() throws {
        try FileManager.default.removeItem(at: root.appendingPathComponent("locales"))
        XCTAssertEqual(BundleStrings.problems(bundleRoot: root), [])
    }
}
