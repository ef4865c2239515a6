/// A paywall view's size in pixels, written `WIDTHxHEIGHT` on the command line.
package struct ViewSize: Equatable, Sendable, CustomStringConvertible {
    package var width: Int
    package var height: Int

    /// A phone-like portrait size, as paywalls are designed for.
    package static let standard = ViewSize(width: 400, height: 720)

    package init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The longest side a view may have, in pixels (a 10000x10000 snapshot takes about 1.8 GB).
    package static let maxSide = 10_000

    /// Parses `400x720`; nil unless both sides are whole numbers from 1 to `maxSide`.
    package init?(parsing text: String) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
            (1...Self.maxSide).contains(w), (1...Self.maxSide).contains(h)
        else { return nil }
        self.init(width: w, height: h)
    }

    package var description: String { "\(width)x\(height)" }
}
