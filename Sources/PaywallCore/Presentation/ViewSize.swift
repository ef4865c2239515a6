/// A paywall view's size in pixels, written `WIDTHxHEIGHT` on the command line.
public struct ViewSize: Equatable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    /// A phone-like portrait size, as paywalls are designed for.
    public static let standard = ViewSize(width: 400, height: 720)

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Parses `400x720`; nil unless both sides are whole numbers from 1 to 10000.
    public init?(parsing text: String) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
            (1...10_000).contains(w), (1...10_000).contains(h)
        else { return nil }
        self.init(width: w, height: h)
    }

    public var description: String { "\(width)x\(height)" }
}
