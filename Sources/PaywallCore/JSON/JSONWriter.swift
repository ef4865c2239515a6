/// Writes a `JSONValue` as compact JSON text with sorted keys, as `JSONEncoder` with
/// `.sortedKeys` and `.withoutEscapingSlashes` would, in a fraction of its time (every event
/// sent to a page and every event-log line is written here).
enum JSONWriter {
    static func text(_ value: JSONValue) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(value, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private static func write(_ value: JSONValue, to out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let n): out.append(contentsOf: number(n).utf8)
        case .string(let s): string(s, to: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                write(item, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            // By UTF-8 bytes, as JSONEncoder sorts (Swift's `<` compares canonical equivalents).
            for (i, key) in members.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }).enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                string(key, to: &out)
                out.append(UInt8(ascii: ":"))
                write(members[key]!, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Whole numbers without a fraction (ids and counters stay readable); JSON has no NaN or infinity.
    static func number(_ n: Double) -> String {
        guard n.isFinite else { return "null" }
        if let whole = wholeNumber(n) { return String(whole) }
        let text = "\(n)"
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    /// `n` as an integer when it is one that prints exactly (below 10^15).
    static func wholeNumber(_ n: Double) -> Int64? {
        n.rounded() == n && abs(n) < 1e15 ? Int64(n) : nil
    }

    private static let hex = Array("0123456789abcdef".utf8)

    private static func string(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), b])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), b])
            case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x08: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0..<0x20:
                out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), 0x30, 0x30, hex[Int(b >> 4)], hex[Int(b & 0xF)]])
            default: out.append(b)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
