/// How a rendered snapshot differs from its baseline. A pixel differs when any of its four
/// channels differs by more than the tolerance. Images of different sizes are laid on the
/// larger canvas, top left aligned: a pixel that is not in both differs (by 255).
package struct PixelDifference: Equatable, Sendable {
    package let differingPixels: Int
    /// The largest difference of one channel anywhere, tolerated or not (0 to 255).
    package let maxChannelDelta: Int
    /// The canvas's pixels: the larger width by the larger height.
    package let comparedPixels: Int
    package let sizesDiffer: Bool

    /// The share of the canvas's pixels that differ.
    package var ratio: Double { comparedPixels == 0 ? 0 : Double(differingPixels) / Double(comparedPixels) }

    /// Whether the images count as the same: same size, and at most `maxRatio` of the pixels differ.
    package func isWithin(maxRatio: Double) -> Bool { !sizesDiffer && ratio <= maxRatio }

    package init(baseline: RGBAImage, current: RGBAImage, tolerance: Int) {
        var differing = 0
        var largest = 0
        Self.walk(baseline, current) { _, delta in
            guard let delta else {
                differing += 1
                largest = 255
                return
            }
            if delta > tolerance { differing += 1 }
            largest = max(largest, delta)
        }
        differingPixels = differing
        maxChannelDelta = largest
        comparedPixels = max(baseline.width, current.width) * max(baseline.height, current.height)
        sizesDiffer = baseline.width != current.width || baseline.height != current.height
    }

    /// The canvas with every differing pixel red over a faded grey copy of the current image
    /// (of the baseline where only it has pixels).
    package static func highlight(baseline: RGBAImage, current: RGBAImage, tolerance: Int) -> RGBAImage {
        let width = max(baseline.width, current.width)
        var pixels = [UInt8](repeating: 0, count: width * max(baseline.height, current.height) * 4)
        walk(baseline, current) { index, delta in
            let offset = index * 4
            guard let delta, delta <= tolerance else {
                pixels.replaceSubrange(offset..<offset + 4, with: [255, 0, 0, 255])
                return
            }
            let x = index % width
            let y = index / width
            let source = x < current.width && y < current.height ? current : baseline
            let base = (y * source.width + x) * 4
            let grey =
                (Int(source.pixels[base]) * 299 + Int(source.pixels[base + 1]) * 587 + Int(source.pixels[base + 2]) * 114) / 1000
            let faded = UInt8(255 - (255 - grey) / 3)
            pixels.replaceSubrange(offset..<offset + 4, with: [faded, faded, faded, 255])
        }
        return RGBAImage(width: width, height: max(baseline.height, current.height), pixels: pixels)
    }

    /// Calls `visit` for every pixel of the canvas (its index, row by row) with the largest
    /// difference of its channels, or nil where the pixel is not in both images (it differs
    /// whatever the tolerance).
    private static func walk(_ a: RGBAImage, _ b: RGBAImage, _ visit: (Int, Int?) -> Void) {
        let width = max(a.width, b.width)
        let height = max(a.height, b.height)
        a.pixels.withUnsafeBufferPointer { pa in
            b.pixels.withUnsafeBufferPointer { pb in
                for y in 0..<height {
                    for x in 0..<width {
                        let index = y * width + x
                        guard x < a.width, y < a.height, x < b.width, y < b.height else {
                            visit(index, nil)
                            continue
                        }
                        let oa = (y * a.width + x) * 4
                        let ob = (y * b.width + x) * 4
                        var delta = 0
                        for channel in 0..<4 {
                            delta = max(delta, abs(Int(pa[oa + channel]) - Int(pb[ob + channel])))
                        }
                        visit(index, delta)
                    }
                }
            }
        }
    }
}
