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
        for module in modules { try extract(module, to: output) }
        var lines: Set<String> = []
        for file in try FileManager.default.contentsOfDirectory(atPath: output.path) where file.hasSuffix(".symbols.json") {
            let data = try Data(contentsOf: output.appendingPathComponent(file))
            let graph = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let module = try XCTUnwrap((graph["module"] as? [String: Any])?["name"] as? String)
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

    /// Runs `swift-symbolgraph-extract` on the built `module` (next to this test bundle), with
    /// the C modules it imports.
    private static func extract(_ module: String, to output: URL) throws {
        let build = PaywallProcess.executable.deletingLastPathComponent()
        let root = EndToEndTestCase.packageRoot
        let includes = try Toolchain.run("/usr/bin/pkg-config", ["--cflags-only-I", "gtk+-3.0", "webkit2gtk-4.1", "sqlite3"])
            .split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
        #if arch(x86_64)
            let triple = "x86_64-unknown-linux-gnu"
        #else
            let triple = "aarch64-unknown-linux-gnu"
        #endif
        var arguments = [
            "-module-name", module, "-I", build.appendingPathComponent("Modules").path, "-target", triple,
            "-minimum-access-level", "public", "-output-dir", output.path,
        ]
        for shim in ["CGtk", "CWebKit", "CSQLite", "CCurl"] {
            arguments += ["-I", root.appendingPathComponent("Sources/\(shim)").path]
        }
        arguments += [
            "-Xcc", "-fmodule-map-file=" + build.appendingPathComponent("CLazyCurl.build/module.modulemap").path,
            "-Xcc", "-I" + root.appendingPathComponent("Sources/CLazyCurl/include").path,
        ]
        for include in includes { arguments += ["-Xcc", include] }
        _ = try Toolchain.run(try Toolchain.tool("swift-symbolgraph-extract"), arguments)
    }
}
