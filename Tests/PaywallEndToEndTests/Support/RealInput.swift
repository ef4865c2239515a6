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
    static func waitForWindow(
        pid: Int32, name: String = ".*", timeout: Double = 20,
        file: StaticString = #filePath, line: UInt = #line
    ) -> String? {
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

    /// Types `text` as key presses, into the window that has the keyboard (under Xvfb, which
    /// runs no window manager: the one under the pointer).
    static func type(_ text: String) {
        _ = xdotool(["type", "--delay", "20", text])
    }

    /// Presses a key combination such as `ctrl+q` (to the window that has the keyboard).
    static func key(_ combination: String) {
        _ = xdotool(["key", combination])
    }

    /// `window`'s width and height.
    static func size(window: String) -> (width: Int, height: Int)? {
        // WIDTH=400 HEIGHT=720 ... (one assignment a line)
        let values = xdotool(["getwindowgeometry", "--shell", window]).split(separator: "\n")
            .reduce(into: [String: Int]()) { values, line in
                let parts = line.split(separator: "=", maxSplits: 1)
                if parts.count == 2 { values[String(parts[0])] = Int(parts[1]) }
            }
        guard let width = values["WIDTH"], let height = values["HEIGHT"] else { return nil }
        return (width, height)
    }

    /// The window `window` is transient for (`WM_TRANSIENT_FOR`), as a number; nil when unset.
    static func transientFor(window: String) -> UInt? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/xprop")
        process.arguments = ["-id", window, "WM_TRANSIENT_FOR"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        // WM_TRANSIENT_FOR(WINDOW): window id # 0x200004
        guard
            let hex = String(decoding: data, as: UTF8.self).split(separator: "#").last?
                .trimmingCharacters(in: .whitespacesAndNewlines), hex.hasPrefix("0x")
        else { return nil }
        return UInt(hex.dropFirst(2), radix: 16)
    }

    /// The whole screen as a PNG at `path` (ImageMagick's `import`).
    static func screenshot(to path: URL) {
        _ = SystemTool.run("/usr/bin/import", ["-window", "root", path.path])
    }
}
