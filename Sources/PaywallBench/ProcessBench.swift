import Foundation
import PaywallCLI
import PaywallCore

/// Whole processes against a minimal Swift Foundation program started the same way, and the
/// cached status read inside this process as an app does at its start.
extension Bench {
    /// The `paywall` command line this window executable was started by: beside it in a build
    /// directory, or `PREFIX/bin/paywall` for `PREFIX/libexec/paywall/paywall-window`. Its
    /// commands without a window are what the whole-process figures time.
    static var paywallExecutable: URL {
        WindowExecutable.commandLine(besideWindow: URL(fileURLWithPath: "/proc/self/exe"))
    }

    /// The minimal Swift Foundation program built beside `paywall` (`Sources/paywall-bench-baseline`).
    static var baselineExecutable: URL {
        paywallExecutable.deletingLastPathComponent().appendingPathComponent("paywall-bench-baseline")
    }

    /// Milliseconds `executable ARGS` took in a new process, which must succeed.
    static func timedRun(_ arguments: [String], executable: URL = paywallExecutable) throws -> Double {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let start = now()
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchError(
                "\(executable.lastPathComponent) \(arguments.joined(separator: " ")) exited \(process.terminationStatus)")
        }
        return now() - start
    }

    /// The data directory the status reads use, its cache holding an active status.
    private func statusData(_ work: URL) throws -> String {
        let data = work.appendingPathComponent("data").path
        let cache = try EntitlementCache(path: try DataDirectory(explicit: data).entitlementCache)
        try cache.appSetStatus(user: Purchases.anonymousUser, .active(["pro"]))
        return data
    }

    /// `paywall status` in a new process each time: reading the SQLite cache at a cold start.
    func statusReads(_ work: URL) throws -> Double {
        let data = try statusData(work)
        return Self.median(try (0..<runs).map { _ in try Self.timedRun(["status", "--data-dir", data, "--json"]) })
    }

    /// Opening the entitlement cache and reading the cold-start status, in this process, as an
    /// app does at its start (a new read-write connection each run; the schema the file is
    /// checked against is worked out at the first, before these runs).
    func statusReadsInProcess(_ work: URL) throws -> Double {
        let path = try DataDirectory(explicit: try statusData(work)).entitlementCache
        var times: [Double] = []
        for _ in 0..<runs {
            let start = Self.now()
            let cache = try EntitlementCache(path: path)
            let (status, _) = try cache.coldStartStatus(user: Purchases.anonymousUser)
            times.append(Self.now() - start)
            guard status.name == "active" else { throw BenchError("the cached status read back as \(status.name)") }
        }
        return Self.median(times)
    }

    /// A minimal Swift Foundation program's whole process: the reference for the commands below.
    func swiftBaseline() throws -> Double {
        let executable = Self.baselineExecutable
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw BenchError(
                "\(executable.path) is missing: build the package (`swift build -c release`) to get it beside paywall")
        }
        return Self.median(try (0..<runs).map { _ in try Self.timedRun([], executable: executable) })
    }

    /// The commands that show no window, one whole process each (`status` is `statusReads`).
    func commandProcesses(_ work: URL, paywall: PaywallBundle) throws -> [(key: String, ms: Double)] {
        let data = work.appendingPathComponent("data").path
        let store = paywall.root.appendingPathComponent("store.json").path
        let packed = work.appendingPathComponent("packed")
        try FileManager.default.copyItem(at: paywall.root, to: packed)
        let commands: [(String, [String])] = [
            ("store_process_ms", ["store", "products", "--store", store, "--data-dir", data]),
            ("cache_process_ms", ["cache", "list", "--data-dir", data]),
            ("validate_process_ms", ["validate", paywall.root.path]),
            ("bundle_process_ms", ["bundle", "pack", packed.path]),
        ]
        return try commands.map { key, arguments in
            (key, Self.median(try (0..<runs).map { _ in try Self.timedRun(arguments) }))
        }
    }
}
