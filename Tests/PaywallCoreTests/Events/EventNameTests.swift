import Foundation
import XCTest

@testable import PaywallCore

/// The documentation's event tables (the Testing and Customer Center articles) are the user's
/// list of events: they must name exactly the `EventName` cases, so a new event cannot ship
/// undocumented and the docs cannot promise one the runtime never reports.
final class EventNameTests: XCTestCase {
    /// The articles and sections whose tables list events, one or more names in a row's first cell.
    private static let eventSections = [
        ("Testing.md", "## Event log (`--events FILE`)"), ("CustomerCenter.md", "## Customer center events"),
    ]

    func testTheDocumentedEventTablesListExactlyTheEventNames() throws {
        let catalog = TestPaths.repository.appendingPathComponent("Sources/PaywallHost/Documentation.docc")
        let documented = try Self.eventSections.flatMap { article, heading in
            let text = try String(contentsOf: catalog.appendingPathComponent(article), encoding: .utf8)
            return try Self.firstCellNames(in: Self.section(heading, of: text))
        }
        let cases = EventName.allCases.map(\.rawValue)
        let undocumented = cases.filter { !documented.contains($0) }
        XCTAssertEqual(undocumented, [], "EventName cases missing from the documented event tables: add a row for each")
        let unknown = documented.filter { EventName(rawValue: $0) == nil }
        XCTAssertEqual(
            unknown, [], "the documented event tables name events that are not EventName cases: fix the spelling or add the case")
        XCTAssertEqual(Set(documented).count, documented.count, "an event is listed twice: \(documented)")
    }

    func testTheTableReaderFindsEveryNameOfARowAndOnlyTheFirstCell() throws {
        let text = """
            ### Events
            | name | params |
            |---|---|
            | `alpha_one` | `not_a_name` |
            | `beta_two` / `gamma_three`, `delta_four` | `message` |
            Prose mentioning `not_an_event`.
            ### Next
            | `after_the_section` | |
            """
        XCTAssertEqual(
            try Self.firstCellNames(in: Self.section("### Events", of: text)),
            ["alpha_one", "beta_two", "gamma_three", "delta_four"])
        XCTAssertThrowsError(try Self.section("### Missing", of: text))
    }

    struct MissingSection: Error, CustomStringConvertible {
        var heading: String
        var description: String { "no section \"\(heading)\" in the article; update EventNameTests.eventSections" }
    }

    /// The lines from `heading` to the next heading of any level.
    static func section(_ heading: String, of text: String) throws -> [Substring] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0 == heading }) else { throw MissingSection(heading: heading) }
        let rest = lines[(start + 1)...]
        return Array(rest.prefix { !$0.hasPrefix("#") })
    }

    /// The backticked names in the first cell of each table row (the header and rule skipped).
    static func firstCellNames(in lines: [Substring]) throws -> [String] {
        let regex = try Regex("`([^`]+)`")
        return lines.filter { $0.hasPrefix("| `") }.flatMap { row -> [String] in
            let cell = row.dropFirst().prefix { $0 != "|" }
            return cell.matches(of: regex).compactMap { $0.output[1].substring.map(String.init) }
        }
    }
}
