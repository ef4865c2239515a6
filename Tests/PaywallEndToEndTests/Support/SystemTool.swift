import Foundation

/// Runs a system tool (mount, umount, dd) quietly, for tests that set up real filesystems.
enum SystemTool {
    /// Waits for `tool ARGUMENTS` to exit and returns its status; -1 when it cannot start.
    static func run(_ tool: String, _ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
