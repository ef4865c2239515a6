import CGtk
import Dispatch
import Glibc
import XCTest

@testable import PaywallHost

/// Proves Swift concurrency runs inside the GLib main loop GTK uses. Needs no display:
/// GLib's default main context is the one `gtk_main()` iterates.
final class MainLoopTests: XCTestCase {
    @MainActor
    final class Recorder {
        var hops: Set<String> = []
    }

    func testMainActorHopsCompleteWhileTheGLibLoopRuns() {
        MainActor.assumeIsolated {
            MainLoop.integrateDispatch()
            let loop = g_main_loop_new(nil, 0)!
            defer { g_main_loop_unref(loop) }
            let recorder = Recorder()
            let expected: Set<String> = ["task", "dispatch", "detached"]

            Task { @MainActor in recorder.hops.insert("task") }
            DispatchQueue.main.async { MainActor.assumeIsolated { _ = recorder.hops.insert("dispatch") } }
            Task.detached {
                // Off the main thread, then back onto the main actor: what an async purchase controller does.
                await MainActor.run { _ = recorder.hops.insert("detached") }
            }
            MainLoop.every(seconds: 0.005) {
                guard recorder.hops == expected else { return true }
                g_main_loop_quit(loop)
                return false
            }
            // Bounded: without the dispatch integration the hops never run and this ends the loop.
            let deadline = MainLoop.after(seconds: 10) { g_main_loop_quit(loop) }
            g_main_loop_run(loop)
            MainLoop.cancel(deadline)
            XCTAssertEqual(recorder.hops, expected)
            // The queue's eventfd must be reset once drained, or GLib would spin on it.
            var wake = pollfd(fd: _dispatch_get_main_queue_handle_4CF(), events: Int16(POLLIN), revents: 0)
            XCTAssertEqual(poll(&wake, 1, 0), 0, "main queue eventfd still signalled after draining")
        }
    }
}
