import Foundation
import PaywallCore

/// `paywall install --prefix DIR`: copies this executable to DIR/bin, the window commands'
/// executable to DIR/libexec/paywall, and the resources they run with to DIR/share/paywall,
/// where an installed `paywall` looks for them.
package enum InstallCommand {
    package static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        let prefix = URL(fileURLWithPath: arguments.value("--prefix") ?? "/usr/local")
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let resources: RuntimeResources
        do {
            resources = try RuntimeResources.locate(executable: executable)
        } catch {
            throw .failure(error.description)
        }
        let fm = FileManager.default
        let bin = prefix.appendingPathComponent("bin")
        let share = prefix.appendingPathComponent("share/paywall")
        let libexec = prefix.appendingPathComponent("libexec/paywall")
        guard let window = WindowExecutable.locate(executable: executable) else {
            throw .failure("\(WindowExecutable.name) is not beside \(executable.path); build it first (swift build builds both)")
        }
        do {
            try fm.createDirectory(at: bin, withIntermediateDirectories: true)
            try fm.createDirectory(at: share, withIntermediateDirectories: true)
            try fm.createDirectory(at: libexec, withIntermediateDirectories: true)
            try replace(bin.appendingPathComponent("paywall"), with: executable)
            try replace(libexec.appendingPathComponent(WindowExecutable.name), with: window)
            for folder in [resources.web, resources.templates, resources.locales] {
                try replace(share.appendingPathComponent(folder.lastPathComponent), with: folder)
            }
        } catch {
            throw .failure("cannot install under \(prefix.path): \(error.localizedDescription)")
        }
        print(
            "installed \(bin.appendingPathComponent("paywall").path), \(libexec.appendingPathComponent(WindowExecutable.name).path) and \(share.path)"
        )
        return 0
    }

    /// Copies `source` over `destination` through a temporary copy, so installing into the
    /// prefix the command runs from never deletes what it is copying.
    private static func replace(_ destination: URL, with source: URL) throws {
        let fm = FileManager.default
        if destination.resolvingSymlinksInPath().path == source.resolvingSymlinksInPath().path { return }
        let staging = destination.deletingLastPathComponent().appendingPathComponent(
            ".\(destination.lastPathComponent).installing")
        try? fm.removeItem(at: staging)
        try fm.copyItem(at: source, to: staging)
        if fm.fileExists(atPath: destination.path) { try fm.removeItem(at: destination) }
        try fm.moveItem(at: staging, to: destination)
    }
}
