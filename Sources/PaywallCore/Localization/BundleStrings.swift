import Foundation

/// A bundle's own string tables, `locales/<locale>.json` inside it, in the runtime tables'
/// format: designers write the page's copy once per language and use it as `{{ t.KEY }}`
/// (plural forms `KEY.one`, `KEY.other`, ... as `{{ t.KEY count=VARIABLE }}`). The tables are
/// resolved like the runtime's, and the page is then shown in the language they resolve to:
/// its `<html lang dir>`, and the runtime's own fragments in it (periods, trial texts).
package struct BundleStrings: Sendable {
    /// The folder inside a bundle that holds its tables.
    package static let folder = "locales"

    /// The bundle's tables for the requested locale.
    package let table: StringTable

    /// The tables of the bundle at `root` for `locale`; nil when the bundle has no `locales/`
    /// folder. A folder without `en.json` or with a malformed table is an error naming the file.
    package init?(bundleRoot root: URL, locale: String) throws(StringTable.LoadError) {
        let directory = root.appendingPathComponent(Self.folder)
        guard FileSystem.isFolder(directory.path) else { return nil }
        table = try StringTable(directory: directory, locale: locale)
    }

    /// What is wrong with the tables of the bundle at `root`, one sentence each: a table that
    /// cannot be read, or a text whose plural forms are not exactly the ones ICU lists for the
    /// table's language (a missing form would show English inside the page).
    package static func problems(bundleRoot root: URL) -> [String] {
        let directory = root.appendingPathComponent(folder)
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { $0.hasSuffix(".json") && $0 != "notes.json" }.sorted()
        guard !names.isEmpty else { return [] }
        var problems: [String] = []
        var tables: [String: [String: String]] = [:]
        for name in names {
            do { tables[String(name.dropLast(5))] = try StringTable.table(at: directory.appendingPathComponent(name)) } catch {
                problems.append(error.description)
            }
        }
        guard let english = tables["en"] else {
            return problems + ["\(folder)/en.json is missing; every other table falls back to it"]
        }
        let bases = Set(english.keys.compactMap(StringTable.pluralBase))
        for (locale, table) in tables.sorted(by: { $0.key < $1.key }) {
            let needed = PluralRule.categories(locale: locale)
            for base in bases.sorted() {
                let has = Set(
                    table.keys.filter { StringTable.pluralBase($0) == base }
                        .compactMap { PluralRule.Category(rawValue: String($0.split(separator: ".").last!)) })
                guard has != needed else { continue }
                let list = { (set: Set<PluralRule.Category>) in
                    PluralRule.Category.allCases.filter(set.contains).map(\.rawValue).joined(separator: ", ")
                }
                problems.append(
                    "\(folder)/\(locale).json: \"\(base)\" has the forms [\(list(has))]; \(locale) needs exactly [\(list(needed))]"
                )
            }
        }
        return problems
    }

    /// The page's `t` template variable: every key of the resolved tables with its text.
    package var variables: [String: JSONValue] {
        table.allTexts.mapValues(JSONValue.string)
    }
}
