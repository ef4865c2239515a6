import Foundation
import XCTest

/// A module's public symbols, one line each, from `swift-symbolgraph-extract` over the
/// built module: the module, the kind, the symbol's path and its declaration.
enum PublicSymbols {
    /// Sorted lines of every public symbol of `modules` (the compiler's synthesized ones,
    /// such as `!=` from `Equatable`, left out: they follow from the conformances listed).
    static func lines(modules: [String]) throws -> [String] {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("paywall-symbols-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: output) }
        try extractAll(to: output)
        var lines: Set<String> = []
        for file in try FileManager.default.contentsOfDirectory(atPath: output.path) where file.hasSuffix(".symbols.json") {
            let data = try Data(contentsOf: output.appendingPathComponent(file))
            let graph = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let module = try XCTUnwrap((graph["module"] as? [String: Any])?["name"] as? String)
            guard modules.contains(module) else { continue }
            for case let symbol as [String: Any] in graph["symbols"] as? [Any] ?? [] {
                let precise = (symbol["identifier"] as? [String: Any])?["precise"] as? String ?? ""
                guard !precise.contains("::SYNTHESIZED::") else { continue }
                let kind = ((symbol["kind"] as? [String: Any])?["identifier"] as? String ?? "?")
                    .replacingOccurrences(of: "swift.", with: "")
                let path = (symbol["pathComponents"] as? [String] ?? []).joined(separator: ".")
                let declaration = (symbol["declarationFragments"] as? [[String: Any]] ?? [])
                    .compactMap { $0["spelling"] as? String }.joined()
                    .split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
                lines.insert("\(module) \(kind) \(path): \(declaration)")
            }
        }
        return lines.sorted()
    }

    /// Runs `scripts/symbol-graphs` (what `scripts/docs` builds the catalog over) on the
    /// modules built next to this test bundle.
    private static func extractAll(to output: URL) throws {
        let build = PaywallProcess.executable.deletingLastPathComponent()
        let script = EndToEndTestCase.packageRoot.appendingPathComponent("scripts/symbol-graphs")
        _ = try Toolchain.run(script.path, [output.path, build.path])
    }
}
