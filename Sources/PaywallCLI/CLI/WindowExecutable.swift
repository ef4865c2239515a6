import Foundation

/// Where the window commands run: the `paywall-window` executable beside `paywall` (a build
/// directory), or in `../libexec/paywall/` (an install, see `paywall install`).
package enum WindowExecutable {
    package static let name = "paywall-window"

    /// The window executable for the `paywall` at `executable`, or nil when neither place has it.
    package static func locate(executable: URL = URL(fileURLWithPath: "/proc/self/exe")) -> URL? {
        let bin = executable.resolvingSymlinksInPath().deletingLastPathComponent()
        let candidates = [
            bin.appendingPathComponent(name),
            bin.deletingLastPathComponent().appendingPathComponent("libexec/paywall/\(name)"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// The `paywall` that runs beside the window executable at `window`: the same directory (a
    /// build directory), or `PREFIX/bin/paywall` for `PREFIX/libexec/paywall/paywall-window`.
    package static func commandLine(besideWindow window: URL) -> URL {
        let dir = window.resolvingSymlinksInPath().deletingLastPathComponent()
        let sibling = dir.appendingPathComponent("paywall")
        if FileManager.default.isExecutableFile(atPath: sibling.path) { return sibling }
        return dir.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("bin/paywall")
    }

    /// Replaces this process with the window executable running `arguments`; returns only on
    /// failure, as an error saying what is missing.
    package static func exec(_ arguments: [String]) throws(CLIError) -> Never {
        guard let path = locate()?.path else {
            throw .failure(
                "the window commands need \(name) beside paywall or in ../libexec/paywall/; build it (swift build) or reinstall (paywall install)"
            )
        }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        execv(path, argv)
        throw .failure("cannot run \(path): \(String(cString: strerror(errno)))")
    }
}
