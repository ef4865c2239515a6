import Foundation

/// Files the tests read, found from this file's place in the repository, so the tests run
/// from any directory and test files can move between folders.
enum TestPaths {
    /// The repository's root (`Tests/PaywallCoreTests/Support/` is three levels down).
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// The runtime's string tables.
    static let locales = repository.appendingPathComponent("locales", isDirectory: true)
    /// `Tests/PaywallCoreTests/Fixtures`.
    static let fixtures = repository.appendingPathComponent("Tests/PaywallCoreTests/Fixtures", isDirectory: true)
}
