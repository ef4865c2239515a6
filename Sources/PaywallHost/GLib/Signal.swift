import CGtk
import CWebKit

/// Connects Swift closures to GObject signals. GLib passes the closure back as user data and
/// releases it when the handler goes away, so nothing leaks and nothing dangles.
/// One trampoline per C signature; signals with other signatures add one here.
@MainActor
package enum Signal {
    @discardableResult
    private static func connect<F>(_ instance: UnsafeMutableRawPointer, _ name: String, _ trampoline: GCallback, _ f: F) -> gulong
    {
        g_signal_connect_data(
            instance, name, trampoline, ClosureBox.retained(f), { data, _ in releaseClosureBox(data) }, GConnectFlags(0))
    }

    /// `void (instance, gpointer)`: e.g. `destroy`. Returns the handler's id (for `g_signal_handler_disconnect`).
    @discardableResult
    package static func connect(_ instance: UnsafeMutableRawPointer, _ name: String, _ f: @escaping @MainActor () -> Void)
        -> gulong
    {
        typealias F = @MainActor () -> Void
        let t: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, data in
            MainActor.assumeIsolated { ClosureBox<F>.from(data).call() }
        }
        return connect(instance, name, unsafeBitCast(t, to: GCallback.self), f)
    }

    /// `void (instance, pointer, gpointer)`: e.g. `script-message-received::NAME`.
    package static func connect(
        _ instance: UnsafeMutableRawPointer, _ name: String,
        pointer f: @escaping @MainActor (UnsafeMutableRawPointer?) -> Void
    ) {
        typealias F = @MainActor (UnsafeMutableRawPointer?) -> Void
        let t: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = {
            _, arg, data in
            MainActor.assumeIsolated { ClosureBox<F>.from(data).call(arg) }
        }
        connect(instance, name, unsafeBitCast(t, to: GCallback.self), f)
    }

    /// `void (instance, enum, gpointer)`: e.g. `load-changed`, `web-process-terminated`.
    package static func connect(
        _ instance: UnsafeMutableRawPointer, _ name: String,
        enumValue f: @escaping @MainActor (UInt32) -> Void
    ) {
        typealias F = @MainActor (UInt32) -> Void
        let t: @convention(c) (UnsafeMutableRawPointer?, UInt32, UnsafeMutableRawPointer?) -> Void = { _, value, data in
            MainActor.assumeIsolated { ClosureBox<F>.from(data).call(value) }
        }
        connect(instance, name, unsafeBitCast(t, to: GCallback.self), f)
    }

    /// `gpointer (instance, gpointer)`: e.g. `create-web-view` of an automation session. (Its
    /// own name: a trailing closure would make `connect` calls ambiguous.)
    package static func connectReturningPointer(
        _ instance: UnsafeMutableRawPointer, _ name: String,
        _ f: @escaping @MainActor () -> UnsafeMutableRawPointer?
    ) {
        typealias F = @MainActor () -> UnsafeMutableRawPointer?
        let t: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { _, data in
            // A pointer is not Sendable: it leaves the isolated closure as its address.
            UnsafeMutableRawPointer(bitPattern: MainActor.assumeIsolated { UInt(bitPattern: ClosureBox<F>.from(data).call()) })
        }
        connect(instance, name, unsafeBitCast(t, to: GCallback.self), f)
    }

    /// `gboolean (instance, pointer, gpointer)`: e.g. `delete-event`. Return true to stop other handlers.
    package static func connect(
        _ instance: UnsafeMutableRawPointer, _ name: String,
        stopping f: @escaping @MainActor (UnsafeMutableRawPointer?) -> Bool
    ) {
        typealias F = @MainActor (UnsafeMutableRawPointer?) -> Bool
        let t: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> gboolean = {
            _, arg, data in
            MainActor.assumeIsolated { ClosureBox<F>.from(data).call(arg) ? 1 : 0 }
        }
        connect(instance, name, unsafeBitCast(t, to: GCallback.self), f)
    }

    /// `gboolean (instance, pointer, enum, gpointer)`: `decide-policy`.
    package static func connect(
        _ instance: UnsafeMutableRawPointer, _ name: String,
        decide f: @escaping @MainActor (UnsafeMutableRawPointer?, UInt32) -> Bool
    ) {
        typealias F = @MainActor (UnsafeMutableRawPointer?, UInt32) -> Bool
        let t:
            @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UInt32, UnsafeMutableRawPointer?)
                -> gboolean = { _, arg, kind, data in
                    MainActor.assumeIsolated { ClosureBox<F>.from(data).call(arg, kind) ? 1 : 0 }
                }
        connect(instance, name, unsafeBitCast(t, to: GCallback.self), f)
    }

    /// `void (instance, GdkDragContext*, gint x, gint y, GtkSelectionData*, guint info, guint time,
    /// gpointer)`: `drag-data-received`. The closure gets the selection data.
    package static func connect(
        _ instance: UnsafeMutableRawPointer, _ name: String,
        dataReceived f: @escaping @MainActor (OpaquePointer?) -> Void
    ) {
        typealias F = @MainActor (OpaquePointer?) -> Void
        let t:
            @convention(c) (
                UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, gint, gint, OpaquePointer?, guint, guint,
                UnsafeMutableRawPointer?
            ) -> Void = { _, _, _, _, selection, _, _, data in
                // A pointer is not Sendable: it enters the isolated closure as its address.
                let address = UInt(bitPattern: selection)
                MainActor.assumeIsolated { ClosureBox<F>.from(data).call(OpaquePointer(bitPattern: address)) }
            }
        connect(instance, name, unsafeBitCast(t, to: GCallback.self), f)
    }

    /// `gboolean (instance, enum, const char*, GError*, gpointer)`: `load-failed`. The closure
    /// gets the URI, the message, and whether the load was only cancelled or stopped by a policy.
    package static func connect(
        _ instance: UnsafeMutableRawPointer, _ name: String,
        loadFailed f: @escaping @MainActor (String, String, Bool) -> Bool
    ) {
        typealias F = @MainActor (String, String, Bool) -> Bool
        let t:
            @convention(c) (
                UnsafeMutableRawPointer?, UInt32, UnsafePointer<CChar>?, UnsafeMutablePointer<GError>?,
                UnsafeMutableRawPointer?
            ) -> gboolean = { _, _, uri, error, data in
                let uri = uri.map { String(cString: $0) } ?? ""
                let message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
                let interrupted =
                    error.map {
                        ($0.pointee.domain == webkit_network_error_quark()
                            && $0.pointee.code == WEBKIT_NETWORK_ERROR_CANCELLED.rawValue)
                            || ($0.pointee.domain == webkit_policy_error_quark()
                                && $0.pointee.code == WEBKIT_POLICY_ERROR_FRAME_LOAD_INTERRUPTED_BY_POLICY_CHANGE.rawValue)
                    } ?? false
                return MainActor.assumeIsolated { ClosureBox<F>.from(data).call(uri, message, interrupted) ? 1 : 0 }
            }
        connect(instance, name, unsafeBitCast(t, to: GCallback.self), f)
    }
}
