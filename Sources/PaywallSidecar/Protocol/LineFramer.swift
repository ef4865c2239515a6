/// Splits the bytes an app writes to `paywall serve` into lines (`\n`-terminated, a `\r`
/// before it dropped), holding at most `maxLineBytes` of one line: the rest of a longer line
/// is discarded as it arrives, never buffered, and the line is reported once as `.tooLong`.
package struct LineFramer {
    /// One MiB: no request the protocol defines comes near it.
    package static let maxLineBytes = 1 << 20

    package enum Frame: Equatable {
        case line([UInt8])
        /// A line over the limit, reported as soon as it crosses it.
        case tooLong
    }

    private let limit: Int
    private var buffer: [UInt8] = []
    /// Inside a line already reported too long: dropping bytes until its end.
    private var discarding = false

    package init(limit: Int = LineFramer.maxLineBytes) {
        self.limit = limit
    }

    /// The complete lines in what has arrived so far; blank lines are skipped.
    package mutating func feed<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> [Frame] where Bytes.Index == Int {
        var frames: [Frame] = []
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n"))
            let end = newline ?? bytes.endIndex
            if !discarding {
                if buffer.count + (end - start) > limit {
                    frames.append(.tooLong)
                    buffer.removeAll(keepingCapacity: false)
                    discarding = true
                } else {
                    buffer.append(contentsOf: bytes[start..<end])
                }
            }
            guard let newline else { break }
            if !discarding {
                if buffer.last == UInt8(ascii: "\r") { buffer.removeLast() }
                if buffer.contains(where: { !Self.isWhitespace($0) }) { frames.append(.line(buffer)) }
            }
            buffer.removeAll(keepingCapacity: true)
            discarding = false
            start = newline + 1
        }
        return frames
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D
    }
}
