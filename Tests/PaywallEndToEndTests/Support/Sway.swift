import Foundation
import XCTest

/// A Sway compositor for one test: the Wayland compositor here that implements xdg-foreign
/// (Debian 12's Weston 10 does not), so an app's window exported through it can parent a
/// paywall. It runs on wlroots' X11 backend inside the test's Xvfb (a seat with a keyboard, as
/// on a real session), logging the protocol it receives (`WAYLAND_DEBUG=server`) to
/// `protocolLog`. Sway refuses to run as root: as root it runs as `nobody`.
final class Sway {
    let process = Process()
    let runtimeDirectory: URL
    let protocolLog: URL
    /// The Wayland socket's name in `runtimeDirectory` (Sway picks it: `wayland-N`).
    private(set) var socket = ""

    /// The environment that makes clients (GTK, `paywall`, `swaymsg`) use this compositor.
    var environment: [String: String?] {
        [
            "GDK_BACKEND": "wayland", "WAYLAND_DISPLAY": socket, "XDG_RUNTIME_DIR": runtimeDirectory.path,
            "SWAYSOCK": ipcSocket.path,
        ]
    }

    private var ipcSocket: URL { runtimeDirectory.appendingPathComponent("sway-ipc.sock") }

    /// Starts Sway and waits until it takes clients; fails the test if it cannot.
    init(in workDir: URL) throws {
        runtimeDirectory = workDir.appendingPathComponent("sway-runtime")
        protocolLog = workDir.appendingPathComponent("sway.log")
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/sway") else {
            XCTFail("Wayland parent tests need Sway (the compositor with xdg-foreign): apt-get install sway")
            throw XCTSkip("no sway")
        }
        let fm = FileManager.default
        try fm.createDirectory(at: runtimeDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let config = workDir.appendingPathComponent("sway.conf")
        try "output * bg #203040 solid_color\n".write(to: config, atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = runtimeDirectory.path
        environment["WAYLAND_DISPLAY"] = nil
        environment["SWAYSOCK"] = ipcSocket.path
        environment["WLR_BACKENDS"] = "x11"
        environment["WAYLAND_DEBUG"] = "server"
        environment["HOME"] = workDir.path
        var command = ["/usr/bin/sway", "-c", config.path]
        if getuid() == 0 {
            let nobody: uid_t = 65534
            for path in [workDir, runtimeDirectory] { chown(path.path, nobody, nobody) }
            // The X server's cookie, readable by that user.
            if let cookie = environment["XAUTHORITY"] {
                let copy = workDir.appendingPathComponent("xauthority")
                try? fm.removeItem(at: copy)
                try fm.copyItem(atPath: cookie, toPath: copy.path)
                try fm.setAttributes([.posixPermissions: 0o644], ofItemAtPath: copy.path)
                environment["XAUTHORITY"] = copy.path
            }
            command = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + command
        }
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        _ = fm.createFile(atPath: protocolLog.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: protocolLog)
        try process.run()
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, process.isRunning, waylandSocket() == nil { usleep(50_000) }
        guard process.isRunning, let name = waylandSocket() else {
            stop()
            XCTFail("Sway did not start; see \(protocolLog.path)")
            throw XCTSkip("sway did not start")
        }
        socket = name
        while Date() < deadline, !fm.fileExists(atPath: ipcSocket.path) { usleep(50_000) }
    }

    /// The socket Sway made (`wayland-N`), once it is listening.
    private func waylandSocket() -> String? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: runtimeDirectory.path)) ?? []
        return names.first { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    deinit { stop() }
}
