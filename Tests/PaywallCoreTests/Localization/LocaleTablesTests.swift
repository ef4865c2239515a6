import Foundation
import XCTest

@testable import PaywallCore

/// The shipped string tables, the runtime's and `templates/classic`'s: the 41 locales, every
/// key in every table, placeholders as in English, plural forms exactly ICU's for the language.
final class LocaleTablesTests: XCTestCase {
    static let locales = [
        "ar", "ca", "cs", "da", "de", "el", "en", "en_AU", "en_GB", "es", "es_419", "fi", "fr", "fr_CA", "he", "hi", "hr",
        "hu", "id", "it", "ja", "ko", "ms", "nb", "nl", "nn", "pl", "pt", "pt_BR", "pt_PT", "ro", "ru", "sk", "sl", "sv",
        "th", "tr", "uk", "vi", "zh_Hans", "zh_Hant",
    ]
    private static let root = TestPaths.repository

    private func table(_ folder: String, _ locale: String) throws -> [String: String] {
        let url = Self.root.appendingPathComponent(folder).appendingPathComponent("\(locale).json")
        let value = try JSONParser.parseFile(Array(Data(contentsOf: url)))
        return try XCTUnwrap(value.objectValue).mapValues { try XCTUnwrap($0.stringValue, "\(locale): not a string") }
    }

    private static func placeholders(_ text: String) -> [String] {
        text.matches(of: /\{\{\s*[\w.$-]+\s*\}\}|\{\w+\}/).map { String($0.output) }.sorted()
    }

    private func check(_ folder: String) throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent(folder).path)
            .filter { $0.hasSuffix(".json") && $0 != "notes.json" }.map { String($0.dropLast(5)) }
        XCTAssertEqual(Set(files), Set(Self.locales), "\(folder) holds exactly the 41 tables")
        let english = try table(folder, "en")
        let plain = english.filter { StringTable.pluralBase($0.key) == nil }
        let bases = Set(english.keys.compactMap(StringTable.pluralBase))
        for locale in Self.locales {
            let strings = try table(folder, locale)
            for (key, text) in plain {
                guard let translated = strings[key] else {
                    XCTFail("\(folder)/\(locale): missing \(key)")
                    continue
                }
                XCTAssertNotEqual(translated, key, "\(folder)/\(locale): \(key) is its own key")
                XCTAssertFalse(translated.trimmingCharacters(in: .whitespaces).isEmpty, "\(folder)/\(locale): \(key) is empty")
                XCTAssertEqual(Self.placeholders(translated), Self.placeholders(text), "\(folder)/\(locale): \(key)")
            }
            let icu = PluralRule.categories(locale: locale)
            for base in bases {
                let forms = Set(
                    strings.keys.filter { StringTable.pluralBase($0) == base }.compactMap {
                        PluralRule.Category(rawValue: String($0.split(separator: ".").last!))
                    })
                XCTAssertEqual(forms, icu, "\(folder)/\(locale): \(base) carries ICU's categories")
            }
            let extra = strings.keys.filter { plain[$0] == nil && !bases.contains(StringTable.pluralBase($0) ?? "") }
            XCTAssertEqual(extra, [], "\(folder)/\(locale): keys English does not have")
        }
    }

    func testRuntimeTables() throws { try check("locales") }

    func testClassicTemplateTables() throws { try check("templates/classic/locales") }

    /// Regional tables differ where usage differs.
    func testRegionalVariantsDiffer() throws {
        for (a, b) in [
            ("en", "en_GB"), ("pt_BR", "pt_PT"), ("es", "es_419"), ("fr", "fr_CA"), ("zh_Hans", "zh_Hant"), ("nb", "nn"),
        ] {
            let (first, second) = (try table("locales", a), try table("locales", b))
            let differing = first.keys.filter { first[$0] != second[$0] }
            let template = (try table("templates/classic/locales", a), try table("templates/classic/locales", b))
            let templateDiffering = template.0.keys.filter { template.0[$0] != template.1[$0] }
            XCTAssertFalse(differing.isEmpty && templateDiffering.isEmpty, "\(a) and \(b) are the same")
        }
        XCTAssertEqual(try table("locales", "en_GB")["cc.cancel.done.title"], "Subscription Cancelled")
    }
}
