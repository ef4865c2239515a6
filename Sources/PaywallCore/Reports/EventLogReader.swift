import Foundation

/// Reads event logs line by line in fixed-size chunks, so a large log costs its events'
/// memory, not its own size twice; a line longer than `maxLineBytes` is reported as bad.
package enum EventLogReader {
    /// A line that is not an event: skipped, and named so it can be fixed.
    package struct BadLine: Equatable, Sendable, CustomStringConvertible {
        package let path: String
        package let line: Int
        package let reason: String
        package var description: String { "\(path):\(line): \(reason)" }
    }

    package struct ReadError: Error, CustomStringConvertible {
        package let path: String
        package let reason: String
        package var description: String { "cannot read \(path): \(reason)" }
    }

    package static let maxLineBytes = 1 << 20

    /// Calls `event` with every event of `path` in order and `bad` with every line that is
    /// not one (blank lines are skipped silently).
    package static func read(
        _ path: String, event: (ReportLine) -> Void, bad: (BadLine) -> Void
    ) throws(ReadError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ReadError(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var pending: [UInt8] = []
        var overlong = false
        var number = 0
        func finish(_ bytes: ArraySlice<UInt8>) {
            number += 1
            if overlong {
                bad(BadLine(path: path, line: number, reason: "longer than \(maxLineBytes) bytes"))
                overlong = false
                return
            }
            let text = String(decoding: bytes, as: UTF8.self)
            guard !text.allSatisfy(\.isWhitespace) else { return }
            do {
                for line in try ReportLine.parse(text) { event(line) }
            } catch {
                bad(BadLine(path: path, line: number, reason: error.description))
            }
        }
        while true {
            let count = chunk.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw ReadError(path: path, reason: String(cString: strerror(errno)))
            }
            if count == 0 { break }
            var start = 0
            for index in 0..<count where chunk[index] == UInt8(ascii: "\n") {
                if !overlong { pending += chunk[start..<index] }
                finish(pending[...])
                pending.removeAll(keepingCapacity: true)
                start = index + 1
            }
            if !overlong { pending += chunk[start..<count] }
            if pending.count > maxLineBytes {
                overlong = true
                pending.removeAll()
            }
        }
        if overlong || !pending.isEmpty { finish(pending[...]) }
    }
}
