import Foundation
import XCTest

/// The public API an app gets from `import PaywallHost` (PaywallHost and the PaywallCore it
/// re-exports), from the built modules' symbol graphs, against the checked-in
/// `public-api.txt`: a symbol made public, changed or removed is a decision the diff shows.
final class PublicAPITests: XCTestCase {
    static let baseline = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("public-api.txt")

    func testThePublicAPIIsTheCheckedInBaseline() throws {
        let lines = try PublicSymbols.lines(modules: ["PaywallCore", "PaywallHost"])
        XCTAssertGreaterThan(lines.count, 100, "the symbol graphs have the facade and its models")
        XCTAssertTrue(lines.contains { $0.hasPrefix("PaywallHost class Paywalls:") }, "the facade is public")
        let text = lines.joined(separator: "\n") + "\n"
        if ProcessInfo.processInfo.environment["PAYWALL_UPDATE_PUBLIC_API"] == "1" {
            try text.write(to: Self.baseline, atomically: true, encoding: .utf8)
            return
        }
        let expected = (try? String(contentsOf: Self.baseline, encoding: .utf8)) ?? ""
        let old = Set(expected.split(separator: "\n").map(String.init))
        let new = Set(lines)
        let added = new.subtracting(old).sorted()
        let removed = old.subtracting(new).sorted()
        XCTAssert(
            added.isEmpty && removed.isEmpty,
            """
            the public API differs from \(Self.baseline.path):
            \((added.map { "+ \($0)" } + removed.map { "- \($0)" }).joined(separator: "\n"))
            If the change is meant, update the baseline: PAYWALL_UPDATE_PUBLIC_API=1 swift test --filter PublicAPITests
            """)
    }
}
