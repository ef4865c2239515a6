import Foundation
import XCTest

/// Real X11 input and window lookups through `xdotool` (Debian's package; `.ci/run` installs
/// it), for what a page's script cannot fake: a user's click.
enum RealInput {
    static func xdotool(_ arguments: [String]) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/xdotool")
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return "" }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// The visible windows of process `pid` whose title matches the regular expression `name`.
    static func windows(pid: Int32, name: String = ".*") -> [String] {
        xdotool(["search", "--all", "--onlyvisible", "--pid", "\(pid)", "--name", name])
            .split(separator: "\n").map(String.init)
    }

    /// Waits for a visible window of `pid` titled like `name`; fails after `timeout` seconds.
    static func waitForWindow(pid: Int32, name: String = ".*", timeout: Double = 20,
                              file: StaticString = #filePath, line: UInt = #line) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let window = windows(pid: pid, name: name).first { return window }
            usleep(50_000)
        }
        XCTFail("no window of process \(pid) titled like \(name)", file: file, line: line)
        return nil
    }

    /// A left click at (`x`, `y`) inside `window`, through the X server as a mouse would.
    static func click(window: String, x: Int, y: Int) {
        _ = xdotool(["mousemove", "--window", window, "\(x)", "\(y)", "click", "1"])
    }
}
