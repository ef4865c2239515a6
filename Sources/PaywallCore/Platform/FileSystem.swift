import Foundation

/// Small file-system questions several layers ask.
package enum FileSystem {
    /// Whether `path` is there and is a folder (not a file).
    package static func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// The bytes of the file at `path`, read to its end whatever size it reports (`/proc`
    /// files report 0); nil when it cannot be opened or read (missing, a folder, no permission).
    ///
    /// For files read again and again in a long-running process. Foundation's readers
    /// (`Data(contentsOf:)`, `String(contentsOfFile:)`, `FileManager.contents(atPath:)`; Swift
    /// 6.3 on Linux) keep a 4 kB buffer each time a file that reports size 0 turns out empty,
    /// as every thread's `/proc/PID/task/TID/children` does: reading the process tree's memory
    /// twice per preload kept about 250 kB a preload (`paywall bench`, the soak).
    package static func contents(atPath path: String) -> Data? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT != S_IFDIR else { return nil }
        // One byte more than the reported size, so a file that has not grown ends in one read.
        var bytes = [UInt8](repeating: 0, count: max(Int(info.st_size), 0) + 1)
        var count = 0
        while true {
            if count == bytes.count { bytes += [UInt8](repeating: 0, count: max(4096, bytes.count)) }
            let read = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, $0.count - count) }
            if read < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if read == 0 { return Data(bytes[..<count]) }
            count += read
        }
    }
}
