import Foundation
import PaywallCore

/// The images a snapshot matrix renders: every locale in every theme at every size, each
/// named `<locale>_<theme>_<W>x<H>` (`de_dark_400x720`).
package struct SnapshotMatrix: Equatable, Sendable {
    package struct Shot: Equatable, Sendable {
        package let locale: String
        package let theme: String
        package let size: ViewSize

        package var name: String { "\(locale)_\(theme)_\(size)" }
        package var fileName: String { name + ".png" }
    }

    package let locales: [String]
    package let themes: [String]
    package let sizes: [ViewSize]

    package static let themeNames = ["light", "dark"]

    /// Parses the comma-separated lists of `--locales`, `--themes` and `--sizes`.
    package init(locales: String, themes: String, sizes: String) throws(ParseError) {
        self.locales = try Self.list(locales, option: "--locales", expected: "a locale identifier such as de, pt_BR or zh_Hant") {
            LocaleResolution.isWellFormed($0) ? $0 : nil
        }
        self.themes = try Self.list(themes, option: "--themes", expected: "light or dark") {
            Self.themeNames.contains($0) ? $0 : nil
        }
        self.sizes = try Self.list(
            sizes, option: "--sizes",
            expected: "WIDTHxHEIGHT in pixels, each side from 1 to \(ViewSize.maxSide), e.g. 400x720"
        ) {
            ViewSize(parsing: $0)
        }
    }

    /// Locale by locale (a locale's texts are set up once), then theme, then size.
    package var shots: [Shot] {
        locales.flatMap { locale in
            themes.flatMap { theme in sizes.map { Shot(locale: locale, theme: theme, size: $0) } }
        }
    }

    package struct ParseError: Error, CustomStringConvertible {
        package let description: String
    }

    private static func list<Item: Equatable & CustomStringConvertible>(
        _ text: String, option: String, expected: String, parse: (String) -> Item?
    ) throws(ParseError) -> [Item] {
        var items: [Item] = []
        for raw in text.split(separator: ",", omittingEmptySubsequences: false) {
            let trimmed = raw.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else {
                throw ParseError(description: "\(option): empty entry in '\(text)'; separate the values with single commas")
            }
            guard let item = parse(trimmed) else { throw ParseError(description: "\(option): '\(trimmed)' is not \(expected)") }
            guard !items.contains(item) else { throw ParseError(description: "\(option) lists \(item) twice") }
            items.append(item)
        }
        return items
    }
}
