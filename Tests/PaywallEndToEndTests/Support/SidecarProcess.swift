import Foundation

/// A running `paywall serve`, driven line by line: requests are written to its stdin, its
/// answers read back one at a time; the notifications it sends meanwhile are kept.
final class SidecarProcess {
    let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffered = Data()
    /// The notifications read so far (`event`, `customerInfoChanged`, ...), as lines.
    private(set) var notifications: [String] = []

    init(in workDir: URL) throws {
        Self.configureServe(process, in: workDir, input: input, output: output)
        try process.run()
    }

    /// Sets `process` up as `paywall serve` in `workDir` (its data under `xdg-data/`, GLib
    /// criticals fatal, stderr discarded) over the two pipes; the caller starts it.
    static func configureServe(_ process: Process, in workDir: URL, input: Pipe, output: Pipe) {
        process.executableURL = PaywallProcess.executable
        process.arguments = ["serve"]
        process.currentDirectoryURL = workDir
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = workDir.appendingPathComponent("xdg-data").path
        environment["G_DEBUG"] = "fatal-criticals"
        process.environment = environment
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
    }

    func send(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// The next line the sidecar writes that is not a notification (bounded: nil after 30 s).
    func nextAnswer() -> String? {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if let newline = buffered.firstIndex(of: 0x0A) {
                let line = String(decoding: buffered[..<newline], as: UTF8.self)
                buffered.removeSubrange(...newline)
                if line.contains(#""method":"#) {
                    notifications.append(line)
                    continue
                }
                return line
            }
            // Waits for data at most until the deadline: a sidecar that never answers fails the test, not hangs it.
            var ready = pollfd(fd: output.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, Int32(max(0, deadline.timeIntervalSinceNow) * 1000)) > 0 else { return nil }
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { return nil }
            buffered.append(chunk)
        }
        return nil
    }

    /// Closes stdin (the sidecar shuts down), waits for it to exit and returns the answers
    /// it wrote meanwhile; the notifications join `notifications`.
    @discardableResult
    func close() -> [String] {
        try? input.fileHandleForWriting.close()
        var answers: [String] = []
        while let answer = nextAnswer() { answers.append(answer) }
        process.waitUntilExit()
        return answers
    }
}
