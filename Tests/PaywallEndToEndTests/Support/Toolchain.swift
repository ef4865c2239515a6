import Foundation

/// The Swift toolchain's tools and other programs a test runs to completion, with their
/// output in files (no pipe can fill up and stall them).
enum Toolchain {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// A tool of the Swift toolchain: on `PATH`, else in `/opt/swift/usr/bin` (where the
    /// project's machines have it).
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
