/// `matches()`'s regular expressions: RE2's syntax (what CEL specifies), run by a Pike VM in
/// time linear in the text for any pattern, so no pattern can hang the host (a backtracking
/// engine takes exponential time on `(a+)+$`). The subset: literals and escapes, `.`, classes
/// `[a-z]` `[^...]` `\d \w \s \D \W \S`, groups `(...)` `(?:...)`, `|`, `* + ?` and `{n,m}`
/// (lazy forms too), and the anchors `^ $`. Backreferences and lookaround are not RE2 and are
/// refused.
struct CELRegex {
    /// Patterns longer than this are refused; with `maximumProgram` this bounds the work per character.
    static let maximumPatternLength = 1_000
    static let maximumProgram = 10_000

    private struct CharacterSet {
        var ranges: [ClosedRange<UInt32>]
        var negated = false
        func contains(_ c: UInt32) -> Bool { ranges.contains { $0.contains(c) } != negated }
    }

    private enum Instruction {
        case character(CharacterSet)
        case split(Int, Int)
        case jump(Int)
        case textStart
        case textEnd
        case match
    }

    private indirect enum Node {
        case set(CharacterSet)
        case empty
        case textStart
        case textEnd
        case concatenation([Node])
        case alternation([Node])
        case repetition(Node, minimum: Int, maximum: Int?)
    }

    private var program: [Instruction] = []

    static func compile(_ pattern: String) -> Result<CELRegex, CELEvaluationError> {
        let scalars = Array(pattern.unicodeScalars.map(\.value))
        guard scalars.count <= maximumPatternLength else {
            return .failure(
                CELEvaluationError(message: "matches(): the pattern is longer than \(maximumPatternLength) characters"))
        }
        var parser = Parser(scalars: scalars)
        do throws(CELEvaluationError) {
            let node = try parser.alternation(depth: 0)
            guard parser.index == scalars.count else { throw parser.fail("unmatched ')'") }
            var regex = CELRegex()
            try regex.emit(node)
            regex.program.append(.match)
            return .success(regex)
        } catch {
            return .failure(error)
        }
    }

    private mutating func emit(_ node: Node) throws(CELEvaluationError) {
        guard program.count <= Self.maximumProgram else {
            throw CELEvaluationError(message: "matches(): the pattern is too large once its repetitions are expanded")
        }
        switch node {
        case .set(let set): program.append(.character(set))
        case .empty: break
        case .textStart: program.append(.textStart)
        case .textEnd: program.append(.textEnd)
        case .concatenation(let nodes):
            for node in nodes { try emit(node) }
        case .alternation(let nodes):
            var jumps: [Int] = []
            for (i, node) in nodes.enumerated() {
                if i < nodes.count - 1 {
                    let split = program.count
                    program.append(.split(split + 1, 0))
                    try emit(node)
                    jumps.append(program.count)
                    program.append(.jump(0))
                    program[split] = .split(split + 1, program.count)
                } else {
                    try emit(node)
                }
            }
            for jump in jumps { program[jump] = .jump(program.count) }
        case .repetition(let inner, let minimum, let maximum):
            for _ in 0..<minimum { try emit(inner) }
            if let maximum {
                var splits: [Int] = []
                for _ in minimum..<maximum {
                    splits.append(program.count)
                    program.append(.split(program.count + 1, 0))
                    try emit(inner)
                }
                for split in splits { program[split] = .split(split + 1, program.count) }
            } else {
                let split = program.count
                program.append(.split(split + 1, 0))
                try emit(inner)
                program.append(.jump(split))
                program[split] = .split(split + 1, program.count)
            }
        }
    }

    /// Whether the pattern matches anywhere in `text` (RE2's partial match, as CEL's `matches`);
    /// nil once `budget` (thread steps) runs out.
    func search(_ text: [Unicode.Scalar], budget: inout Int) -> Bool? {
        var current: [Int] = []
        var next: [Int] = []
        var seen = [Int](repeating: -1, count: program.count)
        var stack: [Int] = []
        // Adds `pc` and every instruction it reaches without reading a character; true on a match.
        func add(_ pc: Int, at position: Int, to list: inout [Int]) -> Bool {
            stack.append(pc)
            while let pc = stack.popLast() {
                guard seen[pc] != position else { continue }
                seen[pc] = position
                switch program[pc] {
                case .character: list.append(pc)
                case .split(let a, let b):
                    stack.append(b)
                    stack.append(a)
                case .jump(let target): stack.append(target)
                case .textStart: if position == 0 { stack.append(pc + 1) }
                case .textEnd: if position == text.count { stack.append(pc + 1) }
                case .match:
                    stack.removeAll()
                    return true
                }
            }
            return false
        }
        for position in 0...text.count {
            if add(0, at: position, to: &current) { return true }
            guard position < text.count else { break }
            budget -= current.count + 1
            if budget < 0 { return nil }
            let c = text[position].value
            next.removeAll(keepingCapacity: true)
            for pc in current {
                if case .character(let set) = program[pc], set.contains(c) {
                    if add(pc + 1, at: position + 1, to: &next) { return true }
                }
            }
            swap(&current, &next)
        }
        return false
    }

    private struct Parser {
        let scalars: [UInt32]
        var index = 0
        static let maximumDepth = 32
        static let maximumCount = 1_000

        func fail(_ reason: String) -> CELEvaluationError {
            CELEvaluationError(message: "matches(): invalid pattern at character \(index + 1): \(reason)")
        }

        private func peek(_ ahead: Int = 0) -> UInt32? { index + ahead < scalars.count ? scalars[index + ahead] : nil }
        private static func code(_ c: Character) -> UInt32 { c.unicodeScalars.first!.value }

        mutating func alternation(depth: Int) throws(CELEvaluationError) -> Node {
            guard depth <= Self.maximumDepth else { throw fail("groups nested too deeply") }
            var branches = [try concatenation(depth: depth)]
            while peek() == Self.code("|") {
                index += 1
                branches.append(try concatenation(depth: depth))
            }
            return branches.count == 1 ? branches[0] : .alternation(branches)
        }

        private mutating func concatenation(depth: Int) throws(CELEvaluationError) -> Node {
            var items: [Node] = []
            while let c = peek(), c != Self.code("|"), c != Self.code(")") {
                var atom = try self.atom(depth: depth)
                while let q = peek(), let (minimum, maximum) = try quantifier(q) {
                    if case .textStart = atom { throw fail("nothing to repeat") }
                    if case .repetition = atom { throw fail("a repetition of a repetition (write a group)") }
                    if peek() == Self.code("?") { index += 1 }  // lazy: the same answer for a yes/no match
                    atom = .repetition(atom, minimum: minimum, maximum: maximum)
                }
                items.append(atom)
            }
            return items.count == 1 ? items[0] : (items.isEmpty ? .empty : .concatenation(items))
        }

        /// A quantifier at the cursor (consumed), or nil when there is none.
        private mutating func quantifier(_ c: UInt32) throws(CELEvaluationError) -> (Int, Int?)? {
            switch c {
            case Self.code("*"):
                index += 1
                return (0, nil)
            case Self.code("+"):
                index += 1
                return (1, nil)
            case Self.code("?"):
                index += 1
                return (0, 1)
            case Self.code("{"):
                var cursor = index + 1
                func number() -> Int? {
                    var value: Int?
                    while cursor < scalars.count, (48...57).contains(scalars[cursor]), (value ?? 0) < 100_000 {
                        value = (value ?? 0) * 10 + Int(scalars[cursor] - 48)
                        cursor += 1
                    }
                    return value
                }
                // Not a valid `{n,m}`: RE2 reads the brace as a literal.
                guard let minimum = number() else { return nil }
                var maximum: Int? = minimum
                if cursor < scalars.count, scalars[cursor] == Self.code(",") {
                    cursor += 1
                    maximum = number()
                }
                guard cursor < scalars.count, scalars[cursor] == Self.code("}") else { return nil }
                guard minimum <= Self.maximumCount, (maximum ?? 0) <= Self.maximumCount else {
                    throw fail("a repetition count above \(Self.maximumCount)")
                }
                if let maximum, maximum < minimum { throw fail("{\(minimum),\(maximum)}: the maximum is below the minimum") }
                index = cursor + 1
                return (minimum, maximum)
            default:
                return nil
            }
        }

        private mutating func atom(depth: Int) throws(CELEvaluationError) -> Node {
            let c = scalars[index]
            index += 1
            switch c {
            case Self.code("("):
                if peek() == Self.code("?") {
                    guard peek(1) == Self.code(":") else {
                        throw fail("only (?:...) groups are supported (no flags, no lookaround)")
                    }
                    index += 2
                }
                let inner = try alternation(depth: depth + 1)
                guard peek() == Self.code(")") else { throw fail("missing ')'") }
                index += 1
                return .concatenation([inner])  // a group: repeatable even when it holds a repetition
            case Self.code("."): return .set(CharacterSet(ranges: [10...10], negated: true))
            case Self.code("^"): return .textStart
            case Self.code("$"): return .textEnd
            case Self.code("["): return .set(try characterClass())
            case Self.code("\\"): return .set(try escape(inClass: false))
            case Self.code("*"), Self.code("+"), Self.code("?"): throw fail("nothing to repeat")
            default: return .set(CharacterSet(ranges: [c...c]))
            }
        }

        private mutating func characterClass() throws(CELEvaluationError) -> CharacterSet {
            var set = CharacterSet(ranges: [])
            if peek() == Self.code("^") {
                set.negated = true
                index += 1
            }
            var first = true
            while true {
                guard let c = peek() else { throw fail("missing ']'") }
                if c == Self.code("]"), !first {
                    index += 1
                    return set
                }
                first = false
                index += 1
                var low: UInt32
                if c == Self.code("\\") {
                    let escaped = try escape(inClass: true)
                    guard escaped.ranges.count == 1, !escaped.negated, escaped.ranges[0].count == 1 else {
                        // \d, \w, \s inside a class: add their ranges (their negations are refused).
                        guard !escaped.negated else { throw fail("\\D, \\W, \\S inside [...] are not supported") }
                        set.ranges += escaped.ranges
                        continue
                    }
                    low = escaped.ranges[0].lowerBound
                } else {
                    low = c
                }
                if peek() == Self.code("-"), let high = peek(1), high != Self.code("]") {
                    index += 2
                    var upper = high
                    if high == Self.code("\\") {
                        let escaped = try escape(inClass: true)
                        guard escaped.ranges.count == 1, escaped.ranges[0].count == 1 else {
                            throw fail("a class as a range's end")
                        }
                        upper = escaped.ranges[0].lowerBound
                    }
                    guard low <= upper else { throw fail("a range that runs backwards") }
                    set.ranges.append(low...upper)
                } else {
                    set.ranges.append(low...low)
                }
            }
        }

        /// After a backslash.
        private mutating func escape(inClass: Bool) throws(CELEvaluationError) -> CharacterSet {
            guard let c = peek() else { throw fail("a pattern cannot end with '\\'") }
            index += 1
            let digits: [ClosedRange<UInt32>] = [48...57]
            let word: [ClosedRange<UInt32>] = [48...57, 65...90, 95...95, 97...122]
            let space: [ClosedRange<UInt32>] = [9...10, 12...13, 32...32]
            switch Character(UnicodeScalar(c)!) {
            case "d": return CharacterSet(ranges: digits)
            case "D": return CharacterSet(ranges: digits, negated: true)
            case "w": return CharacterSet(ranges: word)
            case "W": return CharacterSet(ranges: word, negated: true)
            case "s": return CharacterSet(ranges: space)
            case "S": return CharacterSet(ranges: space, negated: true)
            case "n": return CharacterSet(ranges: [10...10])
            case "t": return CharacterSet(ranges: [9...9])
            case "r": return CharacterSet(ranges: [13...13])
            case "f": return CharacterSet(ranges: [12...12])
            case "v": return CharacterSet(ranges: [11...11])
            default:
                let isPunctuation =
                    (33...47).contains(c) || (58...64).contains(c) || (91...96).contains(c) || (123...126).contains(c)
                guard isPunctuation else { throw fail("unsupported escape '\\\(Character(UnicodeScalar(c)!))'") }
                return CharacterSet(ranges: [c...c])
            }
        }
    }
}
