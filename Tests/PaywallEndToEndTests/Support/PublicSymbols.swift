import Foundation
import XCTest

/// A module's public symbols, one line each, from `swift-symbolgraph-extract` over the
/// built module: the module, the kind, the symbol's path and its declaration.
enum PublicSymbols {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

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
        let includes = try run("/usr/bin/pkg-config", ["--cflags-only-I", "gtk+-3.0", "webkit2gtk-4.1", "sqlite3"])
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
        for shim in ["CGtk", "CWebKit", "CSQLite"] {
            arguments += ["-I", root.appendingPathComponent("Sources/\(shim)").path]
        }
        arguments += [
            "-Xcc", "-fmodule-map-file=" + build.appendingPathComponent("CPluralRules.build/module.modulemap").path,
            "-Xcc", "-I" + root.appendingPathComponent("Sources/CPluralRules/include").path,
        ]
        for include in includes { arguments += ["-Xcc", include] }
        _ = try run(try tool("swift-symbolgraph-extract"), arguments)
    }

    /// A tool of the Swift toolchain: on `PATH`, or beside the `swift` this machine has.
    static func tool(_ name: String) throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for dir in path.split(separator: ":").map(String.init) + ["/opt/swift/usr/bin", "/usr/bin"] {
            let candidate = URL(fileURLWithPath: dir).appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw Failure(description: "\(name) is not on PATH: put the Swift toolchain's usr/bin on it")
    }

    /// Runs `executable ARGUMENTS`, returning its standard output; throws with its stderr
    /// when it fails.
    static func run(_ executable: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("paywall-run-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: scratch.path + ".out", contents: nil)
        _ = FileManager.default.createFile(atPath: scratch.path + ".err", contents: nil)
        defer {
            try? FileManager.default.removeItem(atPath: scratch.path + ".out")
            try? FileManager.default.removeItem(atPath: scratch.path + ".err")
        }
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: scratch.path + ".out"))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: scratch.path + ".err"))
        try process.run()
        process.waitUntilExit()
        let out = (try? String(contentsOfFile: scratch.path + ".out", encoding: .utf8)) ?? ""
        guard process.terminationStatus == 0 else {
            let err = (try? String(contentsOfFile: scratch.path + ".err", encoding: .utf8)) ?? ""
            throw Failure(
                description: "\(executable) \(arguments.joined(separator: " ")) exited \(process.terminationStatus): \(err)")
        }
        return out
    }
}
