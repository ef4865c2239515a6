import Foundation
import XCTest

/// Runs the built `paywall` executable as a subprocess, as a tester would, so GTK owns that
/// process's main thread. Output goes to files (no pipe can fill up and stall the child).
struct PaywallProcess {
    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The `paywall` binary next to this test bundle (`.build/<config>/paywall`).
    static var executable: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("paywall")
    }

    /// The window commands' executable beside it, which `paywall` execs.
    static var windowExecutable: URL {
        executable.deletingLastPathComponent().appendingPathComponent("paywall-window")
    }

    /// Freed memory scribbled over by glibc: a use after free then fails loudly instead of
    /// reading stale bytes (purchase runs use it; they once touched a destroyed window).
    static let scribbledMemory: [String: String?] = ["MALLOC_PERTURB_": "165"]

    let process = Process()
    let stdoutURL: URL
    let stderrURL: URL

    /// Starts `paywall ARGS` in `workDir` (`executable` to run another copy of the binary, or a
    /// test script that launches `paywall` itself with this environment).
    /// `environment` entries override the test's own; a nil value removes a variable. `stdin`
    /// is a file its standard input reads (none by default).
    init(
        _ arguments: [String], in workDir: URL, environment: [String: String?] = [:],
        executable: URL = PaywallProcess.executable, stdin: URL? = nil
    ) throws {
        stdoutURL = workDir.appendingPathComponent("stdout-\(UUID().uuidString).txt")
        stderrURL = workDir.appendingPathComponent("stderr-\(UUID().uuidString).txt")
        _ = FileManager.default.createFile(atPath: stdoutURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = workDir
        var merged = ProcessInfo.processInfo.environment
        // Databases a test does not place itself go to its work directory, never the user's.
        merged["XDG_DATA_HOME"] = workDir.appendingPathComponent("xdg-data").path
        // A GTK or GLib critical aborts the process, so it fails the test that caused it.
        merged["G_DEBUG"] = "fatal-criticals"
        for (name, value) in environment { merged[name] = value }
        process.environment = merged
        process.standardInput = try stdin.map { try FileHandle(forReadingFrom: $0) } ?? FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: stdoutURL)
        process.standardError = try FileHandle(forWritingTo: stderrURL)
        try process.run()
    }

    /// Waits for the process to exit; kills it and fails the test after `timeout` seconds.
    func wait(timeout: Double = 60, file: StaticString = #filePath, line: UInt = #line) -> Outcome {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            XCTFail("paywall did not exit within \(timeout) s", file: file, line: line)
        }
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus,
            stdout: (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "")
    }

    func terminate() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    /// Runs `paywall ARGS` to completion.
    static func run(
        _ arguments: [String], in workDir: URL, environment: [String: String?] = [:],
        executable: URL = PaywallProcess.executable, stdin: URL? = nil, timeout: Double = 60,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> Outcome {
        try PaywallProcess(arguments, in: workDir, environment: environment, executable: executable, stdin: stdin)
            .wait(timeout: timeout, file: file, line: line)
    }
}
