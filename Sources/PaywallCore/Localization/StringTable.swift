import Foundation

/// User-visible strings of the runtime's own UI, read from `locales/<locale>.json` (a flat
/// JSON object of key -> text, `{name}` placeholders). Lookups fall back from the most specific
/// locale to its language and then to English, so a missing translation shows English text
/// rather than a key.
package struct StringTable: Sendable {
    private let layers: [[String: String]]
    /// How the requested locale maps onto the tables that exist.
    package let resolution: LocaleResolution
    /// The most specific table that exists (`pt_PT`, `zh_Hant`, `en`): its plural rules apply.
    package let language: String
    /// The language of that table: what the texts are written in (`en` for `xx_YY`).
    package let textLanguage: String
    /// Writes counts in the locale's digits (Arabic-Indic in `ar_EG`).
    private let numberLocale: Locale

    package enum LoadError: Error, CustomStringConvertible {
        case missingEnglish(path: String)
        case malformed(path: String, reason: String)

        package var description: String {
            switch self {
            case .missingEnglish(let p): "string table \(p) is missing; reinstall the runtime's locales/ folder"
            case .malformed(let p, let r): "string table \(p) is not a JSON object of strings (\(r)); fix or remove it"
            }
        }
    }

    /// Loads the tables for `locale` (e.g. `pt_BR.UTF-8`, `de-DE`, `fr`) from `directory`, as
    /// `LocaleResolution` maps it onto the tables there.
    package init(directory: URL, locale: String) throws(LoadError) {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(".json".count)) }
        resolution = LocaleResolution(requested: locale, available: Set(names))
        var layers: [[String: String]] = []
        for name in resolution.chain {
            let url = directory.appendingPathComponent("\(name).json")
            guard FileManager.default.fileExists(atPath: url.path) else {
                if name == "en" { throw .missingEnglish(path: url.path) }
                continue
            }
            layers.append(try Self.table(at: url))
        }
        self.layers = layers
        language = resolution.resolved
        textLanguage = String(resolution.resolved.split(separator: "_").first ?? "en")
        numberLocale = Locale(identifier: resolution.formattingIdentifier)
    }

    /// One table: a JSON object whose values are all strings, each key once.
    static func table(at url: URL) throws(LoadError) -> [String: String] {
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

    /// Whether the texts are written right to left (Arabic, Hebrew).
    package var isRightToLeft: Bool {
        Locale.Language(identifier: textLanguage).characterDirection == .rightToLeft
    }

    /// Every key with its text from the most specific table that has it (plural forms as their
    /// own keys: `KEY.one`, `KEY.other`, ...).
    package var allTexts: [String: String] {
        var merged: [String: String] = [:]
        for layer in layers.reversed() {
            // A table's plural forms replace a less specific table's whole, as in `plural`.
            let bases = Set(layer.keys.compactMap(Self.pluralBase))
            if !bases.isEmpty { merged = merged.filter { Self.pluralBase($0.key).map { !bases.contains($0) } ?? true } }
            merged.merge(layer) { _, specific in specific }
        }
        return merged
    }

    /// `period.day.few` -> `period.day`; nil for a key that is not a plural form.
    static func pluralBase(_ key: String) -> String? {
        guard let dot = key.lastIndex(of: "."), PluralRule.Category(rawValue: String(key[key.index(after: dot)...])) != nil
        else { return nil }
        return String(key[..<dot])
    }

    /// The BCP 47 tag of the texts' table, for `<html lang>` (`pt-BR`, `zh-Hant`, `es-419`).
    package var languageTag: String { resolution.resolved.replacingOccurrences(of: "_", with: "-") }

    /// The text for `count` of something: `key.<category>` for the language's plural category
    /// (`key.one`, `key.few`, ...), else `key.other`; `{count}` is filled in (a number keeps its
    /// place in either direction, so it is not isolated).
    package func plural(_ key: String, count: Int, _ arguments: [String: String] = [:]) -> String {
        let category = PluralRule.category(of: count, locale: language)
        // The forms come whole from the most specific table that has any: English's `KEY.one`
        // must not stand in for a language whose own table lacks that form.
        let forms = layers.first { layer in PluralRule.Category.allCases.contains { layer["\(key).\($0.rawValue)"] != nil } }
        guard let template = forms?["\(key).\(category.rawValue)"] ?? forms?["\(key).other"] else { return "\(key).other" }
        return fill(template, arguments)
            .replacingOccurrences(of: "{count}", with: count.formatted(.number.grouping(.never).locale(numberLocale)))
    }

    /// The text for `key` with `{name}` placeholders filled from `arguments`; the key itself
    /// when no table has it (visible, so a missing string is noticed). In a right-to-left text
    /// each argument is a Unicode isolate (FSI ... PDI), so left-to-right data inside it (a
    /// price, a product name, an email) keeps its own order: "$anonymous", not "anonymous$".
    package func text(_ key: String, _ arguments: [String: String] = [:]) -> String {
        guard let text = layers.lazy.compactMap({ $0[key] }).first else { return key }
        return fill(text, arguments)
    }

    private func fill(_ template: String, _ arguments: [String: String]) -> String {
        var text = template
        let isolate = isRightToLeft
        for (name, value) in arguments {
            text = text.replacingOccurrences(of: "{\(name)}", with: isolate ? "\u{2068}\(value)\u{2069}" : value)
        }
        return text
    }
}
