import Foundation

/// User-visible strings of the runtime's own UI, read from `locales/<locale>.json` (a flat
/// JSON object of key -> text, `{name}` placeholders). Lookups fall back from the most specific
/// locale to its language and then to English, so a missing translation shows English text
/// rather than a key.
public struct StringTable: Sendable {
    private let layers: [[String: String]]
    /// The language whose plural rules apply (`pt`, `ar`, ...).
    public let language: String
    /// The language of the most specific table that exists: what the texts are written in
    /// (`en` for `he_IL` while there is no Hebrew table).
    public let textLanguage: String
    /// Writes counts in the locale's digits (Arabic-Indic in `ar_EG`).
    private let numberLocale: Locale

    public enum LoadError: Error, CustomStringConvertible {
        case missingEnglish(path: String)
        case malformed(path: String, reason: String)

        public var description: String {
            switch self {
            case .missingEnglish(let p): "string table \(p) is missing; reinstall the runtime's locales/ folder"
            case .malformed(let p, let r): "string table \(p) is not a JSON object of strings (\(r)); fix or remove it"
            }
        }
    }

    /// Loads the tables for `locale` (e.g. `pt_BR.UTF-8`, `de-DE`, `fr`) from `directory`.
    public init(directory: URL, locale: String) throws(LoadError) {
        var layers: [[String: String]] = []
        var loaded: [String] = []
        for name in Self.fallbackChain(for: locale) {
            let url = directory.appendingPathComponent("\(name).json")
            guard FileManager.default.fileExists(atPath: url.path) else {
                if name == "en" { throw .missingEnglish(path: url.path) }
                continue
            }
            layers.append(try Self.table(at: url))
            loaded.append(name)
        }
        self.layers = layers
        textLanguage = loaded.first.map { String($0.split(separator: "_").first ?? "en") } ?? "en"
        language = Self.fallbackChain(for: locale).first.map { String($0.split(separator: "_").first ?? "en") } ?? "en"
        numberLocale = SystemLocale.locale(locale)
    }

    /// One table: a JSON object whose values are all strings, each key once.
    private static func table(at url: URL) throws(LoadError) -> [String: String] {
        let value: JSONValue
        do {
            value = try JSONParser.parseFile(Array(Data(contentsOf: url)))
        } catch {
            throw .malformed(path: url.path, reason: "\(error)")
        }
        guard let object = value.objectValue else { throw .malformed(path: url.path, reason: "the top level is not an object") }
        var table: [String: String] = [:]
        for (key, text) in object {
            guard let text = text.stringValue else { throw .malformed(path: url.path, reason: "\"\(key)\" is not a string") }
            table[key] = text
        }
        return table
    }

    /// Whether the texts are written right to left (Arabic).
    public var isRightToLeft: Bool {
        Locale.Language(identifier: textLanguage).characterDirection == .rightToLeft
    }

    /// `pt_BR.UTF-8` -> `["pt_BR", "pt", "en"]`.
    static func fallbackChain(for locale: String) -> [String] {
        let base = locale.split(separator: ".").first.map(String.init)?.split(separator: "@").first.map(String.init) ?? ""
        let normalized = base.replacingOccurrences(of: "-", with: "_")
        var chain: [String] = []
        if !normalized.isEmpty, normalized != "C", normalized != "POSIX" {
            chain.append(normalized)
            if let language = normalized.split(separator: "_").first.map(String.init), language != normalized {
                chain.append(language)
            }
        }
        if !chain.contains("en") { chain.append("en") }
        return chain
    }

    /// The text for `count` of something: `key.<category>` for the language's plural category
    /// (`key.one`, `key.few`, ...), else `key.other`; `{count}` is filled in.
    public func plural(_ key: String, count: Int, _ arguments: [String: String] = [:]) -> String {
        let category = PluralRule.category(of: count, language: language)
        let specific = "\(key).\(category.rawValue)"
        var arguments = arguments
        arguments["count"] = count.formatted(.number.grouping(.never).locale(numberLocale))
        let hasSpecific = layers.contains { $0[specific] != nil }
        return text(hasSpecific ? specific : "\(key).other", arguments)
    }

    /// The text for `key` with `{name}` placeholders filled from `arguments`; the key itself
    /// when no table has it (visible, so a missing string is noticed).
    public func text(_ key: String, _ arguments: [String: String] = [:]) -> String {
        guard var text = layers.lazy.compactMap({ $0[key] }).first else { return key }
        for (name, value) in arguments { text = text.replacingOccurrences(of: "{\(name)}", with: value) }
        return text
    }
}
