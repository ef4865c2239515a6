import Foundation

/// The example app (`Examples/LumenNotes`), built as an app builds against the runtime: its
/// own package with a path dependency on this one, so it compiles only against the public
/// API. Built once per test process, into `.build/examples/LumenNotes`.
enum ExamplePackage {
    struct BuildFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// The built `LumenNotesExample`, or why it did not build.
    static func lumenNotes() throws -> URL {
        try built.get()
    }

    private static let built: Result<URL, BuildFailure> = Result { () throws(BuildFailure) -> URL in
        let root = EndToEndTestCase.packageRoot
        let arguments = [
            "build", "--package-path", root.appendingPathComponent("Examples/LumenNotes").path,
            "--scratch-path", root.appendingPathComponent(".build/examples/LumenNotes").path,
        ]
        do {
            let swift = try Toolchain.tool("swift")
            _ = try Toolchain.run(swift, arguments)
            let bin = try Toolchain.run(swift, arguments + ["--show-bin-path"])
            return URL(fileURLWithPath: bin.trimmingCharacters(in: .whitespacesAndNewlines))
                .appendingPathComponent("LumenNotesExample")
        } catch {
            throw BuildFailure(description: "swift \(arguments.joined(separator: " ")) failed: \(error)")
        }
    }
}
