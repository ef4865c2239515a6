/// CLDR plural categories for counts, for the languages the runtime ships strings in.
/// Languages without a rule here fall back to English's one/other.
public enum PluralRule {
    public enum Category: String, Sendable {
        case zero, one, two, few, many, other
    }

    public static func category(of count: Int, language: String) -> Category {
        switch language {
        case "ja", "zh", "ko", "th", "vi", "id", "ms", "tr":
            return .other
        case "fr", "pt":  // CLDR: 0 and 1 are "one" in French and Brazilian Portuguese
            return count == 0 || count == 1 ? .one : .other
        case "ar":
            let mod100 = count % 100
            if count == 0 { return .zero }
            if count == 1 { return .one }
            if count == 2 { return .two }
            if (3...10).contains(mod100) { return .few }
            if (11...99).contains(mod100) { return .many }
            return .other
        case "ru", "uk", "pl", "cs", "sk":
            let mod10 = count % 10, mod100 = count % 100
            if mod10 == 1 && mod100 != 11 { return .one }
            if (2...4).contains(mod10) && !(12...14).contains(mod100) { return .few }
            return .many
        default:
            return count == 1 ? .one : .other
        }
    }
}
