import CGtk
import Dispatch

/// The GTK main loop, made to run Swift concurrency too.
///
/// On Linux nothing drains libdispatch's main queue inside `gtk_main()`, so `@MainActor`
/// tasks and `DispatchQueue.main` blocks would never run (PLATFORM.md). `integrateDispatch()`
/// watches the main queue's eventfd from GLib and drains the queue whenever it is signalled.
package enum MainLoop {
    nonisolated(unsafe) private static var dispatchSource: guint = 0

    /// Makes `@MainActor` work run inside the GLib default main context. Idempotent.
    @MainActor
    package static func integrateDispatch() {
        guard dispatchSource == 0 else { return }
        let fd = _dispatch_get_main_queue_handle_4CF()
        dispatchSource = g_unix_fd_add(
            fd, G_IO_IN,
            { fd, _, _ in
                // Reset the eventfd first (libdispatch leaves that to the run loop); a signalled fd
                // left unread would make GLib call back forever and starve every other source.
                var counter: UInt64 = 0
                _ = read(fd, &counter, MemoryLayout<UInt64>.size)
                _dispatch_main_queue_callback_4CF(nil)
                return 1  // keep watching
            }, nil)
    }

    /// Runs `body` once on the main loop after `seconds`. Returns an id for `cancel`.
    @MainActor @discardableResult
    package static func after(seconds: Double, _ body: @escaping @MainActor () -> Void) -> UInt32 {
        typealias F = @MainActor () -> Void
        return g_timeout_add_full(
            G_PRIORITY_DEFAULT, milliseconds(seconds),
            { data in
                MainActor.assumeIsolated { ClosureBox<F>.from(data).call() }
                return 0  // one shot
            }, ClosureBox.retained(body), { releaseClosureBox($0) })
    }

    /// Runs `body` every `seconds` until it returns false.
    @MainActor @discardableResult
    package static func every(seconds: Double, _ body: @escaping @MainActor () -> Bool) -> UInt32 {
        typealias F = @MainActor () -> Bool
        return g_timeout_add_full(
            G_PRIORITY_DEFAULT, max(1, milliseconds(seconds)),
            { data in
                MainActor.assumeIsolated { ClosureBox<F>.from(data).call() ? 1 : 0 }
            }, ClosureBox.retained(body), { releaseClosureBox($0) })
    }

    /// GLib counts in 32-bit milliseconds (about 49 days); longer waits are cut to that.
    static func milliseconds(_ seconds: Double) -> guint {
        guard seconds.isFinite, seconds > 0 else { return 0 }
        return guint(min(seconds * 1000, Double(guint.max - 1)))
    }

    /// Runs `body` on the main loop each time the process receives `signal` (`SIGTERM`,
    /// `SIGINT`, `SIGHUP`, ...) instead of the default action, so it can end cleanly.
    @MainActor @discardableResult
    package static func onSignal(_ signal: Int32, _ body: @escaping @MainActor () -> Void) -> UInt32 {
        typealias F = @MainActor () -> Void
        return g_unix_signal_add_full(
            G_PRIORITY_DEFAULT, signal,
            { data in
                MainActor.assumeIsolated { ClosureBox<F>.from(data).call() }
                return 1  // keep handling
            }, ClosureBox.retained(body), { releaseClosureBox($0) })
    }

    @MainActor
    package static func cancel(_ id: UInt32) {
        if id != 0 { g_source_remove(id) }
    }
}

extension MainLoop {
    /// Runs `body` on the main loop whenever `fd` has input or was closed (`hangup`), until it
    /// returns false: a pipe is read without ever blocking the main thread.
    @MainActor @discardableResult
    package static func whenReadable(_ fd: Int32, _ body: @escaping @MainActor (_ hangup: Bool) -> Bool) -> UInt32 {
        typealias F = @MainActor (Bool) -> Bool
        let conditions = GIOCondition(G_IO_IN.rawValue | G_IO_HUP.rawValue | G_IO_ERR.rawValue)
        return g_unix_fd_add_full(
            G_PRIORITY_DEFAULT, fd, conditions,
            { _, condition, data in
                let hangup =
                    condition.rawValue & (G_IO_HUP.rawValue | G_IO_ERR.rawValue) != 0
                    && condition.rawValue & G_IO_IN.rawValue == 0
                return MainActor.assumeIsolated { ClosureBox<F>.from(data).call(hangup) } ? 1 : 0
            }, ClosureBox.retained(body), { releaseClosureBox($0) })
    }
}
