import CGtk
import Foundation

/// Turns the GLib loop (WebKit's signals, the main queue) until `condition` holds or
/// `timeout` seconds pass; returns whether it held.
@MainActor
func runLoop(timeout: Double = 15, until condition: @escaping @MainActor () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition(), Date() < deadline {
        g_main_context_iteration(nil, 0)
        try? await Task.sleep(nanoseconds: 5_000_000)
    }
    return condition()
}
