import Foundation

/// A bundle's own string tables, `locales/<locale>.json` inside it, in the runtime tables'
/// format: designers write the page's copy once per language and use it as `{{ t.KEY }}`
/// (plural forms `KEY.one`, `KEY.other`, ... as `{{ t.KEY count=VARIABLE }}`). The tables are
/// resolved like the runtime's, and the page is then shown in the language they resolve to:
/// its `<html lang dir>`, and the runtime's own fragments in it (periods, trial texts).
public struct BundleStrings: Sendable {
    /// The folder inside a bundle that holds its tables.
    public static let folder = "locales"

    /// The bundle's tables for the requested locale.
    public let table: StringTable

    /// The tables of the bundle at `root` for `locale`; nil when the bundle has no `locales/`
    /// folder. A folder without `en.json` or with a malformed table is an error naming the file.
    public init?(bundleRoot root: URL, locale: String) throws(StringTable.LoadError) {
        let directory = root.appendingPathComponent(Self.folder)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return nil
        }
        table = try StringTable(directory: directory, locale: locale)
    }

    /// The page's `t` template variable: every key of the resolved tables with its text.
    public var variables: [String: JSONValue] {
        table.allTexts.mapValues(JSONValue.string)
    }
}
