import Foundation

/// How a requested locale (`--locale`, or POSIX's `LC_ALL` / `LC_MESSAGES` / `LANG`) maps onto
/// the string tables that exist: `pt_BR.UTF-8` reads `pt_BR`, then `pt`, then `en`; `zh_TW`
/// reads `zh_Hant`; `no` reads `nb`; `C` reads `en`.
package struct LocaleResolution: Equatable, Sendable {
    /// What was asked for, as given.
    package let requested: String
    /// The tables to read, most specific first; the first one exists and `en` is always last.
    package let chain: [String]
    /// The requested language has no table, so the texts are English (said once, as the event
    /// `locale_fallback`). Not set for `C` / `POSIX`, nor for a region of a language that has a
    /// table (`de_AT` reads `de`).
    package let fellBack: Bool
    /// The locale for prices, dates and numbers (`de_AT` stays Austrian while reading `de`).
    package let formattingIdentifier: String

    /// The most specific table that exists: the language the texts are written in.
    package var resolved: String { chain[0] }

    /// Whether `text` is a locale identifier at all: `ll`, `lll`, with an optional script
    /// (`Hant`), region (`BR`, `419`), POSIX codeset (`.UTF-8`) and modifier (`@latin`), joined by
    /// `_` or `-`; or `C` / `POSIX` (with a codeset).
    package static func isWellFormed(_ text: String) -> Bool {
        text.wholeMatch(
            of:
                /(C|POSIX)(\.[A-Za-z0-9-]+)?|[A-Za-z]{2,3}([_-][A-Za-z]{4})?([_-]([A-Za-z]{2}|[0-9]{3}))?(\.[A-Za-z0-9-]+)?(@[A-Za-z0-9]+)?/
        ) != nil
    }

    /// - Parameter available: the table names that exist (`en`, `pt_BR`, `zh_Hant`, ...).
    ///   A request that is not well formed falls back to `en` (`fellBack` set).
    package init(requested: String, available: Set<String>) {
        self.requested = requested
        let parts = Self.parts(requested)
        guard let parts else {
            let posix = Self.isWellFormed(requested) || requested.isEmpty
            chain = ["en"]
            fellBack = !posix
            formattingIdentifier = "en_US"
            return
        }
        var candidates = Self.candidates(parts)
        candidates = candidates.filter { available.contains($0) }
        if candidates.last != "en" { candidates.append("en") }
        var unique: [String] = []
        for name in candidates where !unique.contains(name) { unique.append(name) }
        chain = unique
        fellBack = unique[0] == "en" && parts.language != "en"
        formattingIdentifier = [parts.language, parts.script, parts.region].compactMap { $0 }.joined(separator: "_")
    }

    private struct Parts {
        var language: String
        var script: String?
        var region: String?
    }

    /// Language, script and region of a well-formed, non-POSIX request; nil otherwise.
    private static func parts(_ text: String) -> Parts? {
        let base = text.split(separator: ".").first.map(String.init)?.split(separator: "@").first.map(String.init) ?? ""
        guard isWellFormed(text), base != "C", base != "POSIX" else { return nil }
        let fields = base.split(whereSeparator: { $0 == "_" || $0 == "-" }).map(String.init)
        var parts = Parts(language: fields[0].lowercased())
        for field in fields.dropFirst() {
            if field.count == 4 {
                parts.script = field.prefix(1).uppercased() + field.dropFirst().lowercased()
            } else {
                parts.region = field.uppercased()
            }
        }
        // Old and macro-language codes for the tables' languages.
        parts.language = ["no": "nb", "iw": "he", "in": "id", "ji": "yi"][parts.language] ?? parts.language
        return parts
    }

    /// Latin American regions, which read `es_419` rather than Spain's `es`.
    private static let latinAmerica: Set<String> = [
        "419", "AR", "BO", "CL", "CO", "CR", "CU", "DO", "EC", "GT", "HN", "MX", "NI", "PA", "PE", "PR", "PY", "SV", "US", "UY",
        "VE",
    ]

    /// The table names a request could read, most specific first (not yet filtered by what exists).
    private static func candidates(_ p: Parts) -> [String] {
        let language = p.language
        switch language {
        case "zh":
            // Chinese tables are by script: Taiwan, Hong Kong and Macau write Traditional.
            let traditional = p.script == "Hant" || (p.script == nil && ["TW", "HK", "MO"].contains(p.region ?? ""))
            return [traditional ? "zh_Hant" : "zh_Hans"]
        case "es" where p.region.map(latinAmerica.contains) == true:
            return ["es_\(p.region!)", "es_419", "es"]
        case "pt" where p.region != nil && p.region != "BR":
            return ["pt_\(p.region!)", "pt_PT", "pt"]
        case "en" where ["IE", "NZ", "IN", "ZA"].contains(p.region ?? ""):
            return ["en_\(p.region!)", p.region == "NZ" ? "en_AU" : "en_GB", "en"]
        default:
            var names: [String] = []
            if let script = p.script, let region = p.region { names.append("\(language)_\(script)_\(region)") }
            if let region = p.region { names.append("\(language)_\(region)") }
            if let script = p.script { names.append("\(language)_\(script)") }
            names.append(language)
            return names
        }
    }
}
