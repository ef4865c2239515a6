import Foundation
import XCTest

/// The README's "In a Swift app" snippets are taken from the example app, so they
/// compile: every line of every Swift block there must be a line of `Examples/LumenNotes/main.swift`.
final class ReadmeSnippetTests: XCTestCase {
    func testTheAppSectionsSnippetsAreTheExampleAppsLines() throws {
        let root = EndToEndTestCase.packageRoot
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let example = try String(contentsOf: root.appendingPathComponent("Examples/LumenNotes/main.swift"), encoding: .utf8)
        let exampleLines = Set(example.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        let start = try XCTUnwrap(readme.range(of: "## In a Swift app\n"), "the README's app section")
        let section = readme[start.upperBound...]
        let end = section.range(of: "\n## ")?.lowerBound ?? section.endIndex
        var inSwift = false
        var checked = 0
        for raw in section[..<end].split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("```") {
                inSwift = line == "```swift"
                continue
            }
            guard inSwift, !line.isEmpty else { continue }
            XCTAssertTrue(exampleLines.contains(line), "README line not in the example app: \(line)")
            checked += 1
        }
        XCTAssertGreaterThan(checked, 5, "the section has its snippets")
    }
}
