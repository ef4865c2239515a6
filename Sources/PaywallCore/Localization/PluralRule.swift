import CPluralRules

/// CLDR plural categories, from ICU (`uplrules_select`): the well-kept implementation of the
/// rules every language's string table is written against.
package enum PluralRule {
    package enum Category: String, Sendable, CaseIterable {
        case zero, one, two, few, many, other
    }

    /// The category of `count` in `locale` (`pl`, `pt_PT`, ...): which `KEY.<category>` form to use.
    package static func category(of count: Int, locale: String) -> Category {
        var buffer = [CChar](repeating: 0, count: 16)
        guard paywall_plural_select(locale, Double(count), &buffer, Int32(buffer.count)) == 0 else { return .other }
        return Category(rawValue: Self.text(buffer)) ?? .other
    }

    /// The categories ICU's rules for `locale` use: exactly the forms its string table carries.
    package static func categories(locale: String) -> Set<Category> {
        var buffer = [CChar](repeating: 0, count: 64)
        guard paywall_plural_keywords(locale, &buffer, Int32(buffer.count)) == 0 else { return [.other] }
        let found = Set(Self.text(buffer).split(separator: " ").compactMap { Category(rawValue: String($0)) })
        return found.isEmpty ? [.other] : found
    }

    /// A NUL-terminated C string the shim wrote into `buffer`.
    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
