import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// An advisory lock on a file (`flock`), shared between processes: shared holders run side
/// by side, an exclusive holder runs alone. Released when the value is released.
package final class FileLock {
    private let descriptor: Int32

    package enum Mode: Sendable {
        case shared, exclusive
    }

    /// Waits for the lock. Throws when the lock file cannot be opened.
    package init(path: String, mode: Mode) throws {
        descriptor = try Self.open(path)
        if flock(descriptor, mode == .shared ? LOCK_SH : LOCK_EX) != 0 {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw LockError(description: "cannot lock \(path): \(reason)")
        }
    }

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// The lock if nobody holds it in a conflicting mode now, else nil (no waiting). Throws
    /// when the lock file cannot be opened (that is not somebody holding it).
    package static func trying(_ path: String, mode: Mode) throws -> FileLock? {
        let descriptor = try open(path)
        guard flock(descriptor, (mode == .shared ? LOCK_SH : LOCK_EX) | LOCK_NB) == 0 else {
            let failure = errno
            close(descriptor)
            if failure == EWOULDBLOCK { return nil }
            throw LockError(description: "cannot lock \(path): \(String(cString: strerror(failure)))")
        }
        return FileLock(descriptor: descriptor)
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    private static func open(_ path: String) throws -> Int32 {
        let descriptor = Glibc.open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw LockError(description: "cannot open lock file \(path): \(String(cString: strerror(errno)))")
        }
        return descriptor
    }

    package struct LockError: Error, CustomStringConvertible {
        package let description: String
    }
}
