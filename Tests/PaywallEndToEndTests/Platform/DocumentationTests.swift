import Foundation
import XCTest

/// The documentation's tables of contracts are checked against the built executables, so a
/// command, option or sidecar method cannot ship undocumented and the docs cannot list a stale
/// one: the Command Line article against `paywall --help` and each `paywall CMD --help`, the
/// From Any Language article against the methods `paywall serve` answers to, and the README's
/// links against the files they name.
final class DocumentationTests: EndToEndTestCase {
    static let catalog = packageRoot.appendingPathComponent("Sources/PaywallHost/Documentation.docc")

    func testTheCommandLineArticleListsEveryCommandAndItsOptions() throws {
        let article = try Self.article("CommandLine.md")
        let commands = try Self.listed(under: "COMMANDS:", in: help([]))
        XCTAssertGreaterThan(commands.count, 10, "paywall --help lists its commands")
        let tabled = try Self.rows(in: Self.section("## Commands", of: article)).flatMap { row in
            Self.codeSpans(in: row[0]).compactMap { $0.hasPrefix("paywall ") ? $0.split(separator: " ")[1] : nil }
        }.map(String.init)
        XCTAssertEqual(tabled, commands, "the Commands table lists exactly `paywall --help`'s commands, in its order")

        for command in commands {
            let section = try Self.section("### `paywall \(command)`", of: article)
            let commandHelp = try help([command])
            let actions = try Self.listed(under: "ACTIONS:", in: commandHelp)
            if actions.isEmpty {
                XCTAssertEqual(
                    Self.optionNames(in: Self.rows(in: section).map { $0[0] }), try Self.options(in: commandHelp),
                    "the options table of `paywall \(command)` lists exactly its --help's options")
                continue
            }
            let rows = Self.rows(in: section)
            XCTAssertEqual(
                rows.compactMap { Self.codeSpans(in: $0[0]).first?.split(separator: " ").first.map(String.init) }, actions,
                "the actions table of `paywall \(command)` lists exactly its --help's actions")
            for row in rows where row.count > 1 {
                guard let action = Self.codeSpans(in: row[0]).first?.split(separator: " ").first.map(String.init) else {
                    continue
                }
                XCTAssertEqual(
                    Self.optionNames(in: [row[1]]), try Self.options(in: help([command, action])),
                    "the options of `paywall \(command) \(action)` are exactly its --help's")
            }
        }
    }

    func testTheFromAnyLanguageArticleListsEverySidecarMethod() throws {
        // An unknown method's error lists every method the sidecar answers to.
        let request = workDir.appendingPathComponent("request.jsonl")
        try Data("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"noSuchMethod\"}\n".utf8).write(to: request)
        let served = try PaywallProcess.run(["serve"], in: workDir, stdin: request)
        XCTAssertEqual(served.status, 0, served.stderr)
        let line = try XCTUnwrap(served.stdout.split(separator: "\n").first, "an answer: \(served.stderr)")
        let answer = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let message = try XCTUnwrap((answer["error"] as? [String: Any])?["message"] as? String, "\(answer)")
        let list = try XCTUnwrap(message.components(separatedBy: "the methods are: ").last, message)
        let methods = list.components(separatedBy: ", ").sorted()
        XCTAssertGreaterThan(methods.count, 5, message)

        let article = try Self.article("FromAnyLanguage.md")
        let documented = try Self.rows(in: Self.section("## Methods (app -> sidecar)", of: article))
            .compactMap { Self.codeSpans(in: $0[0]).first }
        XCTAssertEqual(Set(documented).count, documented.count, "a method is listed twice: \(documented)")
        XCTAssertEqual(documented.sorted(), methods, "the Methods table lists exactly the sidecar's methods")
    }

    func testTheReadmesLinksNameFilesThatExist() throws {
        let readme = try String(contentsOf: Self.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let targets = readme.matches(of: try Regex(#"\]\(([^)\s]+)\)"#)).compactMap { $0.output[1].substring.map(String.init) }
        let local = targets.filter { !$0.contains("://") && !$0.hasPrefix("#") }
        XCTAssertGreaterThan(local.count, 10, "the README links its articles")
        for target in local {
            let path = String(target.split(separator: "#", maxSplits: 1)[0])
            XCTAssertTrue(
                FileManager.default.fileExists(atPath: Self.packageRoot.appendingPathComponent(path).path),
                "README links to \(target), which does not exist")
        }
        for article in try FileManager.default.contentsOfDirectory(atPath: Self.catalog.path)
        where article.hasSuffix(".md") && article != "PaywallHost.md" {
            XCTAssertTrue(readme.contains("Documentation.docc/\(article))"), "the README links the article \(article)")
        }
    }

    // MARK: - Reading help and Markdown

    private func help(_ command: [String]) throws -> String {
        let result = try PaywallProcess.run(command + ["--help"], in: workDir)
        XCTAssertEqual(result.status, 0, "paywall \(command.joined(separator: " ")) --help: \(result.stderr)")
        return result.stdout
    }

    static func article(_ name: String) throws -> String {
        try String(contentsOf: catalog.appendingPathComponent(name), encoding: .utf8)
    }

    /// The first words of the indented lines after `heading` (`COMMANDS:`, `ACTIONS:`) up to a blank line.
    static func listed(under heading: String, in help: String) throws -> [String] {
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: Substring(heading)) else { return [] }
        return lines[(start + 1)...].prefix { $0.hasPrefix("  ") }.map { String($0.split(separator: " ")[0]) }
    }

    /// The option names of a --help's OPTIONS list, `--help` left out.
    static func options(in help: String) throws -> [String] {
        try listed(under: "OPTIONS:", in: help).filter { $0 != "--help" }
    }

    struct MissingSection: Error, CustomStringConvertible {
        var heading: String
        var description: String { "no section \"\(heading)\" in the article" }
    }

    /// The lines from `heading` to the next heading of its level or above.
    static func section(_ heading: String, of text: String) throws -> [Substring] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0 == heading }) else { throw MissingSection(heading: heading) }
        let level = heading.prefix { $0 == "#" }.count
        return Array(
            lines[(start + 1)...].prefix { line in
                let hashes = line.prefix { $0 == "#" }.count
                return hashes == 0 || hashes > level || !line.dropFirst(hashes).hasPrefix(" ")
            })
    }

    /// The cells of each table row (header and rule rows left out); `\|` does not split a cell.
    static func rows(in lines: [Substring]) -> [[String]] {
        lines.filter { $0.hasPrefix("|") && !$0.hasPrefix("|---") }.compactMap { line -> [String]? in
            var cells: [String] = []
            var cell = ""
            var escaped = false
            for character in line.dropFirst() {
                if escaped {
                    cell.append(character == "|" ? "|" : "\\\(character)")
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "|" {
                    cells.append(cell.trimmingCharacters(in: .whitespaces))
                    cell = ""
                } else {
                    cell.append(character)
                }
            }
            // A header row names its columns in plain words, with no code span.
            return cells.first.map { codeSpans(in: $0).isEmpty } == true ? nil : cells
        }
    }

    static func codeSpans(in cell: String) -> [String] {
        cell.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map {
            String($0.element)
        }
    }

    /// The option names (`--store`) of the code spans that start with `--` (`--store CATALOG`).
    static func optionNames(in cells: [String]) -> [String] {
        cells.flatMap(codeSpans).filter { $0.hasPrefix("--") }.map { String($0.split(separator: " ")[0]) }
    }
}
