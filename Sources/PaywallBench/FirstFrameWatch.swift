import CGtk
import Foundation
import PaywallCLI
import PaywallHost

/// Watches a view's window from the moment it is asked to show until the first frame painted on
/// screen whose pixels, read back after the paint (`PaintedFrames`), show the page's content:
/// the marker `BenchFixtures.marker` draws in the page's top-left corner. Frames before it are
/// blank (the window's background, the loading placeholder or a half-drawn page); of those,
/// white ones show pure white where the marker goes.
@MainActor
final class FirstFrameWatch {
    struct Frame {
        /// From the call to the end of the content frame's paint.
        var ms: Double
        var blank: Int
        var white: Int
    }

    /// The marker's colour and the points of the view it covers.
    static let markerColor: UInt32 = 0x12ab34
    static let markerPoints = [(x: 6, y: 6), (x: 18, y: 18)]
    /// Frames to wait for content (about 10 seconds at 60 Hz) before the run counts as failed.
    private static let patience = 600

    private var frames: PaintedFrames?
    private var outcome: Result<Frame, BenchError>?
    private var waiter: CheckedContinuation<Frame, Error>?
    private var blank = 0, white = 0

    /// - Parameter content: whether a frame's pixels show the content (default: the marker at every point).
    init(
        _ widget: UnsafeMutablePointer<GtkWidget>, start: Double,
        content: @escaping @MainActor ([UInt32?]) -> Bool = { $0.allSatisfy { $0 == FirstFrameWatch.markerColor } }
    ) {
        frames = PaintedFrames(widget: widget, points: Self.markerPoints) { [weak self] frame in
            guard let self, frame.onScreen else { return true }  // an X11 window waiting off screen shows nothing
            if content(frame.pixels) {
                finish(.success(Frame(ms: frame.endedAt - start, blank: blank, white: white)))
                return false
            }
            blank += 1
            if frame.pixels.contains(0xffffff) { white += 1 }
            if blank > Self.patience {
                finish(.failure(BenchError("no content frame after \(blank) frames (pixels \(frame.pixels))")))
                return false
            }
            return true
        }
    }

    /// The first content frame, once painted.
    func result() async throws -> Frame {
        if let outcome { return try outcome.get() }
        return try await withCheckedThrowingContinuation { waiter = $0 }
    }

    private func finish(_ result: Result<Frame, BenchError>) {
        outcome = result
        frames = nil
        waiter?.resume(with: result)
        waiter = nil
    }
}

/// First content frames over a bench's runs: the median time, the most blank and white frames.
struct FirstFrames {
    private(set) var times: [Double] = []
    private(set) var mostBlank = 0
    private(set) var mostWhite = 0

    mutating func add(_ frame: FirstFrameWatch.Frame) {
        times.append(frame.ms)
        mostBlank = max(mostBlank, frame.blank)
        mostWhite = max(mostWhite, frame.white)
    }

    var median: Double { Bench.median(times) }
}
