import Foundation

/// A dotted version such as `2.10.1`, compared number by number (`2.10` is newer than `2.9`;
/// missing parts count as 0). Text after the numbers (`-beta`) is ignored.
package struct Version: Comparable, Sendable {
    package let components: [Int]

    package init?(_ text: String) {
        let numeric = text.trimmingCharacters(in: .whitespaces).drop { $0 == "v" }
            .prefix { $0.isNumber || $0 == "." }
        guard numeric.first?.isNumber == true else { return nil }
        components = numeric.split(separator: ".", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
    }

    package static func < (a: Version, b: Version) -> Bool {
        for i in 0..<max(a.components.count, b.components.count) {
            let x = i < a.components.count ? a.components[i] : 0
            let y = i < b.components.count ? b.components[i] : 0
            if x != y { return x < y }
        }
        return false
    }

    package static func == (a: Version, b: Version) -> Bool { !(a < b) && !(b < a) }
}
