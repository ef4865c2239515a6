import Foundation

/// The texts of one bundle's page for a user: the bundle's own tables (the page's `t`
/// variable) and the runtime's texts in the language those tables resolve to, so a page is in
/// one language throughout. What a presenter and `paywall variables` both build a page from.
package struct PageStrings {
    /// The bundle's tables; nil when it has none, or when they are broken (`problem`).
    package let bundleStrings: BundleStrings?
    /// The runtime's texts (periods, trials, dialogs, the fallback paywall) in the page's language.
    package let runtime: StringTable
    /// Why the bundle's tables could not be read; the page would show raw `{{ t.KEY }}`.
    package let problem: String?

    /// - Parameters:
    ///   - locales: the runtime's `locales/` folder.
    ///   - user: the runtime's texts in the user's locale (used as they are when the bundle has no tables).
    package init(bundleRoot: URL, locales: URL, user: StringTable) {
        var problem: String?
        var bundleStrings: BundleStrings?
        do { bundleStrings = try BundleStrings(bundleRoot: bundleRoot, locale: user.resolution.requested) } catch {
            problem = "the bundle's string tables: \(error)"
        }
        self.bundleStrings = bundleStrings
        self.problem = problem
        runtime = bundleStrings.flatMap { try? StringTable(directory: locales, locale: $0.table.resolution.resolved) } ?? user
    }
}
