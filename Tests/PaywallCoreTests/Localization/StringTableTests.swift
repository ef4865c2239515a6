import Foundation
import XCTest

@testable import PaywallCore

final class StringTableTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("locales-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try write("en", ["greeting": "Hello {name}", "only.en": "English only"])
        try write("pt", ["greeting": "Olá {name}"])
        try write("pt_BR", ["greeting": "Oi {name}"])
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: dir)
    }

    private func write(_ locale: String, _ strings: [String: String]) throws {
        try JSONEncoder().encode(strings).write(to: dir.appendingPathComponent("\(locale).json"))
    }

    func testMostSpecificLocaleWins() throws {
        XCTAssertEqual(try StringTable(directory: dir, locale: "pt_BR.UTF-8").text("greeting", ["name": "Ana"]), "Oi Ana")
        XCTAssertEqual(try StringTable(directory: dir, locale: "pt-PT").text("greeting", ["name": "Ana"]), "Olá Ana")
    }

    /// A locale without a table of its own reads English, so its texts are marked English and
    /// laid out left to right, whatever the locale's own direction.
    func testTextLanguageIsTheTableThatExists() throws {
        try write("ar", ["greeting": "مرحبا {name}"])
        XCTAssertEqual(try StringTable(directory: dir, locale: "pt_BR").textLanguage, "pt")
        XCTAssertEqual(try StringTable(directory: dir, locale: "ar_EG").textLanguage, "ar")
        XCTAssertTrue(try StringTable(directory: dir, locale: "ar_EG").isRightToLeft)
        let hebrew = try StringTable(directory: dir, locale: "he_IL")
        XCTAssertEqual(hebrew.language, "en", "English texts follow English plural rules")
        XCTAssertEqual(hebrew.textLanguage, "en")
        XCTAssertFalse(hebrew.isRightToLeft)
        XCTAssertTrue(hebrew.resolution.fellBack)
    }

    func testFallsBackToEnglishThenToTheKey() throws {
        let table = try StringTable(directory: dir, locale: "pt_BR")
        XCTAssertEqual(table.text("only.en"), "English only")
        XCTAssertEqual(table.text("no.such.key"), "no.such.key")
        XCTAssertEqual(try StringTable(directory: dir, locale: "C").text("greeting", ["name": "x"]), "Hello x")
    }

    func testMissingEnglishAndMalformedTablesAreClearErrors() throws {
        try FileManager.default.removeItem(at: dir.appendingPathComponent("en.json"))
        XCTAssertThrowsError(try StringTable(directory: dir, locale: "en")) { error in
            XCTAssertTrue("\(error)".contains("en.json"), "\(error)")
        }
        try Data("[1, 2]".utf8).write(to: dir.appendingPathComponent("en.json"))
        XCTAssertThrowsError(try StringTable(directory: dir, locale: "en")) { error in
            XCTAssertTrue("\(error)".contains("not a JSON object of strings"), "\(error)")
        }
    }

    func testDeepNestingDuplicateKeysAndNonStringsAreRefused() throws {
        for (text, expected) in [
            (Fuzz.deeplyNested, "nested more than 512 levels"), (Fuzz.wideAndDeep, "the top level is not an object"),
            (#"{"greeting": "Hi", "greeting": "Hello"}"#, #"duplicate key "greeting" (each key may appear once"#),
            (#"{"greeting": 1}"#, #""greeting" is not a string"#),
        ] {
            try Data(text.utf8).write(to: dir.appendingPathComponent("en.json"))
            XCTAssertThrowsError(try StringTable(directory: dir, locale: "en")) { error in
                XCTAssertTrue("\(error)".contains(expected) && "\(error)".contains("en.json"), "\(text.prefix(100)): \(error)")
            }
        }
    }

    func testShippedEnglishTableHasTheHostsKeys() throws {
        let table = try StringTable(directory: TestPaths.locales, locale: "en")
        XCTAssertEqual(table.text("window.title.preview", ["bundle": "classic"]), "classic — Paywall Preview")
        XCTAssertEqual(table.text("window.title.present", ["bundle": "classic"]), "classic")
    }

    func testSystemLocalePrecedence() {
        XCTAssertEqual(SystemLocale.identifier(environment: ["LANG": "fr_FR.UTF-8", "LC_ALL": "de_DE"]), "de_DE")
        XCTAssertEqual(SystemLocale.identifier(environment: ["LANG": "fr_FR.UTF-8", "LC_MESSAGES": "ja_JP"]), "ja_JP")
        XCTAssertEqual(SystemLocale.identifier(environment: ["LANG": "fr_FR.UTF-8", "LC_ALL": ""]), "fr_FR.UTF-8")
        XCTAssertEqual(SystemLocale.identifier(environment: [:]), "en")
    }

    /// Arguments of a right-to-left text are isolates; left-to-right texts and counts are left alone.
    func testRightToLeftArgumentsAreIsolated() throws {
        try write("ar", ["title": "إلغاء {product}؟", "n.other": "{count} {what}"])
        let arabic = try StringTable(directory: dir, locale: "ar_EG")
        XCTAssertEqual(arabic.text("title", ["product": "100 AI Credits"]), "إلغاء \u{2068}100 AI Credits\u{2069}؟")
        XCTAssertEqual(arabic.plural("n", count: 3, ["what": "US$"]), "٣ \u{2068}US$\u{2069}")
        XCTAssertEqual(arabic.languageTag, "ar")
        XCTAssertEqual(try StringTable(directory: dir, locale: "pt_BR").text("greeting", ["name": "Ana"]), "Oi Ana")
        XCTAssertEqual(try StringTable(directory: dir, locale: "pt_BR").languageTag, "pt-BR")
    }

    /// A language's plural forms come whole from its own table: English's "one" never stands
    /// in for a form the language's table lacks (its "other" does).
    func testPluralFormsAreNeverMixedWithEnglish() throws {
        try write("en", ["greeting": "Hello {name}", "days.one": "{count} day", "days.other": "{count} days"])
        try write(
            "ar", ["days.zero": "لا أيام", "days.few": "{count} أيام", "days.many": "{count} يومًا", "days.other": "{count} يوم"])
        let arabic = try StringTable(directory: dir, locale: "ar_EG")
        XCTAssertEqual(arabic.plural("days", count: 1), "١ يوم", "ar's own other, not English's one")
        XCTAssertEqual(arabic.plural("days", count: 3), "٣ أيام")
        let texts = arabic.allTexts
        XCTAssertNil(texts["days.one"], "the page's t variable has no English form either")
        XCTAssertEqual(texts["days.other"], "{count} يوم")
        XCTAssertEqual(texts["greeting"], "Hello {name}", "other keys still fall back")
    }
}
