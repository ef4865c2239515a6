// Foundation's own ICU (`_FoundationICU`, linked into the binary with `--static-swift-stdlib`),
// not the distribution's libicu: a released binary then needs no versioned `libicu*.so.NN`.
// Its C API carries the `swift_` prefix ICU's renaming gives it.
import _FoundationICU

/// CLDR plural categories, from ICU (`uplrules_select`): the well-kept implementation of the
/// rules every language's string table is written against.
package enum PluralRule {
    package enum Category: String, Sendable, CaseIterable {
        case zero, one, two, few, many, other
    }

    /// The category of `count` in `locale` (`pl`, `pt_PT`, ...): which `KEY.<category>` form to use.
    package static func category(of count: Int, locale: String) -> Category {
        var status = U_ZERO_ERROR
        guard let rules = swift_uplrules_open(locale, &status), status.rawValue <= U_ZERO_ERROR.rawValue else {
            return .other
        }
        defer { swift_uplrules_close(rules) }
        var keyword = [UChar](repeating: 0, count: 16)
        let length = swift_uplrules_select(rules, Double(count), &keyword, Int32(keyword.count), &status)
        guard status.rawValue <= U_ZERO_ERROR.rawValue, length < keyword.count else { return .other }
        return Category(rawValue: String(decoding: keyword[..<Int(length)], as: UTF16.self)) ?? .other
    }

    /// The categories ICU's rules for `locale` use: exactly the forms its string table carries.
    package static func categories(locale: String) -> Set<Category> {
        var status = U_ZERO_ERROR
        guard let rules = swift_uplrules_open(locale, &status), status.rawValue <= U_ZERO_ERROR.rawValue else {
            return [.other]
        }
        defer { swift_uplrules_close(rules) }
        guard let keywords = swift_uplrules_getKeywords(rules, &status) else { return [.other] }
        defer { swift_uenum_close(keywords) }
        var found = Set<Category>()
        var length: Int32 = 0
        while status.rawValue <= U_ZERO_ERROR.rawValue, let keyword = swift_uenum_next(keywords, &length, &status) {
            if let category = Category(rawValue: String(cString: keyword)) { found.insert(category) }
        }
        return found.isEmpty ? [.other] : found
    }
}
