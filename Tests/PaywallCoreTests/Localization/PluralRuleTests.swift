import XCTest

@testable import PaywallCore

/// Plural categories come from ICU (CLDR); the fixed cases the hand-written rules got wrong.
final class PluralRuleTests: XCTestCase {
    func testFixedCases() {
        let cases: [(String, Int, PluralRule.Category)] = [
            ("pl", 1, .one), ("pl", 22, .few), ("pl", 21, .many), ("pl", 5, .many),
            ("cs", 5, .other), ("cs", 3, .few),
            ("pt_PT", 0, .other), ("pt_PT", 1, .one), ("pt_BR", 0, .one), ("pt", 0, .one),
            ("tr", 1, .one), ("tr", 2, .other),
            ("ar", 0, .zero), ("ar", 2, .two), ("ar", 103, .few), ("ar", 111, .many),
            ("he", 2, .two), ("sl", 102, .two), ("ru", 21, .one), ("ja", 1, .other), ("en", 1, .one), ("en", 0, .other),
        ]
        for (locale, count, category) in cases {
            XCTAssertEqual(PluralRule.category(of: count, locale: locale), category, "\(locale) \(count)")
        }
    }

    func testCategoriesAreICUsKeywords() {
        XCTAssertEqual(PluralRule.categories(locale: "pl"), [.one, .few, .many, .other])
        XCTAssertEqual(PluralRule.categories(locale: "ja"), [.other])
        XCTAssertEqual(PluralRule.categories(locale: "ar"), Set(PluralRule.Category.allCases))
        XCTAssertEqual(PluralRule.categories(locale: "fr"), [.one, .many, .other])
    }
}
