import Foundation
import XCTest

/// A Weston compositor for one test, so the runtime runs as it does on a GNOME or KDE Wayland
/// session. Weston's X11 backend runs it inside the test's Xvfb: its headless backend has no
/// seat, and GTK then reports a critical (`gdk_seat_get_keyboard`) no real session shows.
final class Weston {
    let process = Process()
    let runtimeDirectory: URL
    let socket = "wayland-paywall-test"

    /// The environment that makes `paywall` (and its WebKit processes) use this compositor.
    var environment: [String: String?] {
        ["GDK_BACKEND": "wayland", "WAYLAND_DISPLAY": socket, "XDG_RUNTIME_DIR": runtimeDirectory.path]
    }

    /// Starts Weston and waits until it accepts clients; fails the test if it cannot.
    init(in workDir: URL) throws {
        // A fresh runtime directory: no stale socket from an earlier run can look like a live one.
        runtimeDirectory = workDir.appendingPathComponent("xdg-runtime")
        try FileManager.default.createDirectory(
            at: runtimeDirectory, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/weston") else {
            XCTFail("Wayland tests need Weston: apt-get install weston")
            throw XCTSkip("no weston")
        }
        process.executableURL = URL(fileURLWithPath: "/usr/bin/weston")
        process.arguments = ["--backend=x11-backend.so", "--socket=\(socket)", "--idle-time=0", "--width=1280", "--height=1024"]
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = runtimeDirectory.path
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(
            forWritingTo: {
                let log = workDir.appendingPathComponent("weston.log")
                _ = FileManager.default.createFile(atPath: log.path, contents: nil)
                return log
            }())
        try process.run()
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, process.isRunning, !accepts() { usleep(50_000) }
        guard process.isRunning, accepts() else {
            stop()
            XCTFail("Weston did not start; see \(workDir.appendingPathComponent("weston.log").path)")
            throw XCTSkip("weston did not start")
        }
    }

    /// Whether the compositor's socket takes a connection (it exists a moment before it does).
    private func accepts() -> Bool {
        let path = runtimeDirectory.appendingPathComponent(socket).path
        let fd = Foundation.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            path.utf8CString.withUnsafeBytes {
                buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0.prefix(buffer.count - 1)))
            }
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
            }
        }
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    deinit { stop() }
}
