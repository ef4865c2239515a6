/// Carries a Swift closure through C APIs as a `gpointer`. The pointer holds one retain,
/// given back by the C side's destroy notify (or after a one-shot callback ran).
final class ClosureBox<F> {
    let call: F

    init(_ call: F) {
        self.call = call
    }

    /// A +1 pointer for C user data.
    static func retained(_ call: F) -> UnsafeMutableRawPointer {
        Unmanaged.passRetained(ClosureBox(call)).toOpaque()
    }

    /// The box behind a user-data pointer, without consuming it.
    static func from(_ pointer: UnsafeMutableRawPointer?) -> ClosureBox<F> {
        Unmanaged<ClosureBox<F>>.fromOpaque(pointer!).takeUnretainedValue()
    }

    /// The box behind a user-data pointer, consuming the pointer's retain (one-shot callbacks).
    static func take(_ pointer: UnsafeMutableRawPointer?) -> ClosureBox<F> {
        Unmanaged<ClosureBox<F>>.fromOpaque(pointer!).takeRetainedValue()
    }
}

/// Gives back the retain of a `ClosureBox` user-data pointer. Not generic, so C destroy
/// notifies can call it.
func releaseClosureBox(_ pointer: UnsafeMutableRawPointer?) {
    if let pointer { Unmanaged<AnyObject>.fromOpaque(pointer).release() }
}
