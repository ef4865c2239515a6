import Foundation

/// SplitMix64: a tiny seeded generator, so a fuzz run that finds a problem can be replayed
/// exactly from its seed (`SystemRandomNumberGenerator` cannot be seeded).
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Inputs and mutations shared by the fuzz tests.
enum Fuzz {
    /// How many cases each fuzz test runs: small by default so the suite stays quick on CI;
    /// `PAYWALL_FUZZ_ITERATIONS=200000 swift test --filter Fuzz` for a long run.
    static let iterations = ProcessInfo.processInfo.environment["PAYWALL_FUZZ_ITERATIONS"].flatMap(Int.init) ?? 300

    /// The seed of a run; `PAYWALL_FUZZ_SEED` replays another.
    static let seed = ProcessInfo.processInfo.environment["PAYWALL_FUZZ_SEED"].flatMap(UInt64.init) ?? 0x5EED_0F_F022

    /// A document nested far deeper than any parser limit: `JSONDecoder` took tens of seconds on this shape.
    static let deeplyNested = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)

    /// Pieces of JSON (and near-JSON) that mutations splice in: structure, escapes, lone
    /// surrogates, huge numbers, and bytes that are not UTF-8.
    private static let fragments: [[UInt8]] =
        [
            "{", "}", "[", "]", ",", ":", "\"", "\\", "\\u", "\\ud800", "\\udc00", "\\ud83d\\ude00", "null", "true", "-",
            "0", "1e400", "1e-400", "0.1", "-0", "99999999999999999999999999999999999999999", "\"\":", "\"id\":", "[[[[[[[[",
            "]]]]", "\u{0}", "\n", "\u{FEFF}", "é", "../", "*", "@",
        ].map { Array($0.utf8) } + [[0xFF], [0xC3], [0xED, 0xA0, 0x80]]

    /// `base` changed in one to four places: bytes flipped, deleted, duplicated or replaced by fragments.
    static func mutate(_ base: [UInt8], using rng: inout SplitMix64) -> [UInt8] {
        var bytes = base
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
            let at = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &rng)
            switch Int.random(in: 0..<5, using: &rng) {
            case 0 where !bytes.isEmpty: bytes[at] = UInt8.random(in: 0...255, using: &rng)
            case 1 where !bytes.isEmpty: bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...8, using: &rng)))
            case 2 where !bytes.isEmpty:
                let end = min(bytes.count, at + Int.random(in: 1...32, using: &rng))
                bytes.insert(contentsOf: bytes[at..<end], at: at)
            default: bytes.insert(contentsOf: fragments.randomElement(using: &rng)!, at: at)
            }
        }
        return bytes
    }

    /// A random JSON value up to `depth` levels, with keys drawn from `keys` so objects hit real fields.
    static func value(depth: Int, keys: [String], using rng: inout SplitMix64) -> String {
        let choice = Int.random(in: 0..<(depth > 0 ? 8 : 5), using: &rng)
        switch choice {
        case 0: return "null"
        case 1: return Bool.random(using: &rng) ? "true" : "false"
        case 2: return ["0", "-1", "4.99", "1e3", "0.1", "1e308", "12345678901234567890"].randomElement(using: &rng)!
        case 3, 4:
            return "\"" + (["", "x", "P1M", "USD", "https://a.example", "a@b.c", "\\ud800", "é", "../x", "#FFFFFF"] + keys)
                .randomElement(using: &rng)! + "\""
        case 5:
            let count = Int.random(in: 0...3, using: &rng)
            return "[" + (0..<count).map { _ in value(depth: depth - 1, keys: keys, using: &rng) }.joined(separator: ",") + "]"
        default:
            let count = Int.random(in: 0...4, using: &rng)
            return "{"
                + (0..<count).map { _ in
                    "\"\(keys.randomElement(using: &rng)!)\":\(value(depth: depth - 1, keys: keys, using: &rng))"
                }.joined(separator: ",") + "}"
        }
    }
}

extension Fuzz {
    /// Many arrays nested just under the depth limit, side by side: the shape that took
    /// `JSONDecoder` over a minute (each level's failed type guesses cost its whole depth).
    static let wideAndDeep =
        "["
        + Array(
            repeating: String(repeating: "[", count: 500) + String(repeating: "]", count: 500),
            count: 150
        ).joined(separator: ",") + "]"
}
