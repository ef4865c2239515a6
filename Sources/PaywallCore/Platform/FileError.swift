import Foundation

/// A file operation that failed, in words: what was done to which file and what the system
/// said ("no space left on device", "file name too long"), instead of Foundation's
/// `NSCocoaErrorDomain Code=640 UserInfo={...}`.
package struct FileError: Error, CustomStringConvertible, Equatable {
    /// What was being done: "write", "create the folder", "copy", "move".
    package let action: String
    package let path: String
    package let reason: String

    package var description: String { "cannot \(action) \(path): \(reason)" }

    package init(action: String, path: String, reason: String) {
        self.action = action
        self.path = path
        self.reason = reason
    }

    /// `error` (from Foundation or a POSIX call) about `path`, in words.
    package init(_ error: Error, action: String, path: String) {
        self.init(action: action, path: path, reason: Self.reason(error))
    }

    /// Runs `body`, turning whatever it throws into a `FileError` about `path`.
    package static func wrap<T>(_ action: String, _ path: String, _ body: () throws -> T) throws(FileError) -> T {
        do { return try body() } catch let error as FileError { throw error } catch {
            throw FileError(error, action: action, path: path)
        }
    }

    /// The system's words for `code` (an errno), lowercased: "no space left on device".
    package static func reason(errno code: Int32) -> String {
        let text = String(cString: strerror(code))
        return text.prefix(1).lowercased() + text.dropFirst()
    }

    /// What went wrong in `error`: the POSIX reason when Foundation carries one, else the
    /// reason its Cocoa code stands for, else its own description.
    package static func reason(_ error: Error) -> String {
        if let code = posixCode(error) { return reason(errno: code) }
        if let error = error as? FileError { return error.reason }
        return "\(error)"
    }

    /// `error` in words, naming the file Foundation says it is about: for errors of code
    /// that does not know which file or operation it was doing.
    package static func describe(_ error: Error) -> String {
        if let error = error as? FileError { return error.description }
        let ns = error as NSError
        guard posixCode(error) != nil,
            let path = ns.userInfo[NSFilePathErrorKey] as? String ?? (ns.userInfo[NSURLErrorKey] as? URL)?.path
        else { return "\(error)" }
        return "\(path): \(reason(error))"
    }

    private static func posixCode(_ error: Error) -> Int32? {
        let ns = error as NSError
        if ns.domain == NSPOSIXErrorDomain { return Int32(ns.code) }
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? Error, let code = posixCode(underlying) { return code }
        guard ns.domain == NSCocoaErrorDomain else { return nil }
        // Foundation's codes without an underlying POSIX error.
        switch ns.code {
        case NSFileWriteOutOfSpaceError: return ENOSPC
        case NSFileWriteVolumeReadOnlyError: return EROFS
        case NSFileWriteNoPermissionError, NSFileReadNoPermissionError: return EACCES
        case NSFileNoSuchFileError, NSFileReadNoSuchFileError: return ENOENT
        case NSFileWriteFileExistsError: return EEXIST
        default: return nil
        }
    }
}
