import CGtk

/// Wraps a Swift closure as a one-shot `GAsyncReadyCallback` and its user data.
@MainActor
package enum AsyncCallback {
    package typealias Body = @MainActor (OpaquePointer?) -> Void

    /// The C callback to pass together with `userData(body)`; it runs `body` with the
    /// `GAsyncResult` once and releases it.
    package static let function: GAsyncReadyCallback = { _, result, data in
        // GLib calls back on the main thread, where the call was started.
        nonisolated(unsafe) let (result, data) = (result, data)
        MainActor.assumeIsolated { ClosureBox<Body>.take(data).call(result) }
    }

    package static func userData(_ body: @escaping Body) -> UnsafeMutableRawPointer {
        ClosureBox.retained(body)
    }
}

/// The message of a GError, freeing it.
package func consumeError(_ error: UnsafeMutablePointer<GError>?) -> String {
    guard let error else { return "unknown error" }
    defer { g_error_free(error) }
    return String(cString: error.pointee.message)
}
