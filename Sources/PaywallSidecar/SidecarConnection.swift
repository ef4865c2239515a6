import Foundation
import PaywallCLI
import PaywallHost

/// The sidecar's two pipes: lines in from the app (watched on the GLib main loop, never a
/// blocking read on the main thread), protocol lines out on a descriptor of their own. At
/// start the process's stdout becomes a copy of stderr, so nothing a library or WebKit's
/// child processes print can reach the protocol.
@MainActor
package final class SidecarConnection {
    private let input: Int32
    private let output: Int32
    private var framer = LineFramer()
    private var watch: UInt32 = 0
    /// The app closed our output: lines are dropped from then on.
    private var outputClosed = false
    /// A frame and the moment (`DispatchTime` nanoseconds) its line's end was read.
    package var onFrame: (LineFramer.Frame, UInt64) -> Void = { _, _ in }
    /// The input reached its end (the app closed it, or exited).
    package var onClosed: () -> Void = {}

    /// Takes over the standard streams: input from fd 0, output on a close-on-exec copy of fd 1,
    /// and fd 1 pointed at stderr.
    package static func standardStreams() throws -> SidecarConnection {
        let output = fcntl(1, F_DUPFD_CLOEXEC, 3)
        guard output >= 0, dup2(2, 1) >= 0 else {
            throw CLIError.failure("cannot set up the protocol's stdout: \(String(cString: strerror(errno)))")
        }
        return SidecarConnection(input: 0, output: output)
    }

    package init(input: Int32, output: Int32) {
        self.input = input
        self.output = output
        // A write to an app that went away fails with EPIPE instead of killing the process.
        signal(SIGPIPE, SIG_IGN)
    }

    package func start() {
        watch = MainLoop.whenReadable(input) { [weak self] hangup in
            guard let self else { return false }
            return self.readOnce(hangup: hangup)
        }
    }

    /// Stops reading (at shutdown); lines already read have been handled.
    package func stopReading() {
        MainLoop.cancel(watch)
        watch = 0
    }

    /// One read: at most 64 KiB, which GLib's readiness guarantees does not block.
    private func readOnce(hangup: Bool) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = hangup ? 0 : buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR || errno == EAGAIN { return true }
        guard count > 0 else {
            watch = 0
            onClosed()
            return false
        }
        let now = DispatchTime.now().uptimeNanoseconds
        for frame in framer.feed(buffer[0..<count]) { onFrame(frame, now) }
        return true
    }

    /// Writes one line (a `\n` is added). Blocks only while the app's pipe is full.
    package func send(_ line: String) {
        guard !outputClosed else { return }
        let bytes = Array((line + "\n").utf8)
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { write(output, $0.baseAddress! + written, bytes.count - written) }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                outputClosed = true  // EPIPE: nobody reads any more
                return
            }
            written += n
        }
    }
}
