import XCTest

@testable import PaywallCore

final class PixelDifferenceTests: XCTestCase {
    private func image(_ width: Int, _ height: Int, _ rgba: [UInt8] = [10, 20, 30, 255]) -> RGBAImage {
        RGBAImage(width: width, height: height, pixels: Array((0..<width * height).map { _ in rgba }.joined()))
    }

    private func setting(_ image: RGBAImage, _ x: Int, _ y: Int, _ rgba: [UInt8]) -> RGBAImage {
        var copy = image
        let offset = (y * image.width + x) * 4
        copy.pixels.replaceSubrange(offset..<offset + 4, with: rgba)
        return copy
    }

    func testIdenticalImagesDoNotDiffer() {
        let difference = PixelDifference(baseline: image(4, 3), current: image(4, 3), tolerance: 0)
        XCTAssertEqual(difference.differingPixels, 0)
        XCTAssertEqual(difference.maxChannelDelta, 0)
        XCTAssertEqual(difference.comparedPixels, 12)
        XCTAssertFalse(difference.sizesDiffer)
        XCTAssertTrue(difference.isWithin(maxRatio: 0))
    }

    /// The tolerance is the largest per-channel difference that still counts as equal.
    func testToleranceIsInclusive() {
        let base = image(2, 2)
        let within = setting(base, 1, 1, [12, 18, 30, 255])
        let beyond = setting(base, 1, 1, [13, 20, 30, 255])
        let inside = PixelDifference(baseline: base, current: within, tolerance: 2)
        XCTAssertEqual(inside.differingPixels, 0)
        XCTAssertEqual(inside.maxChannelDelta, 2, "the largest delta is reported even when it counts as equal")
        let outside = PixelDifference(baseline: base, current: beyond, tolerance: 2)
        XCTAssertEqual(outside.differingPixels, 1)
        XCTAssertEqual(outside.maxChannelDelta, 3)
        XCTAssertEqual(PixelDifference(baseline: base, current: within, tolerance: 1).differingPixels, 1)
    }

    func testAlphaCountsAsAChannel() {
        let base = image(1, 1)
        let difference = PixelDifference(baseline: base, current: setting(base, 0, 0, [10, 20, 30, 0]), tolerance: 2)
        XCTAssertEqual(difference.differingPixels, 1)
        XCTAssertEqual(difference.maxChannelDelta, 255)
    }

    /// A pixel counts once however many of its channels differ.
    func testCountsPixelsNotChannels() {
        let base = image(3, 1)
        let current = setting(setting(base, 0, 0, [200, 200, 200, 255]), 2, 0, [10, 20, 90, 255])
        let difference = PixelDifference(baseline: base, current: current, tolerance: 2)
        XCTAssertEqual(difference.differingPixels, 2)
        XCTAssertEqual(difference.maxChannelDelta, 190)
        XCTAssertEqual(difference.ratio, 2.0 / 3.0, accuracy: 1e-12)
    }

    /// The allowed share of differing pixels is inclusive too: 1 of 1000 is within 0.001.
    func testMaxRatioIsInclusive() {
        let base = image(100, 10)
        let one = PixelDifference(baseline: base, current: setting(base, 5, 5, [255, 0, 0, 255]), tolerance: 2)
        XCTAssertEqual(one.differingPixels, 1)
        XCTAssertTrue(one.isWithin(maxRatio: 0.001))
        XCTAssertFalse(one.isWithin(maxRatio: 0.0009))
        let two = PixelDifference(
            baseline: base, current: setting(setting(base, 5, 5, [255, 0, 0, 255]), 6, 5, [255, 0, 0, 255]),
            tolerance: 2)
        XCTAssertFalse(two.isWithin(maxRatio: 0.001))
    }

    /// Images of different sizes are laid on the larger canvas; a pixel that is not in both differs fully.
    func testDifferentSizesAlwaysDiffer() {
        let difference = PixelDifference(baseline: image(4, 2), current: image(2, 4), tolerance: 255)
        XCTAssertTrue(difference.sizesDiffer)
        XCTAssertEqual(difference.comparedPixels, 16)
        XCTAssertEqual(difference.differingPixels, 16 - 4, "only the 2x2 both cover can match")
        XCTAssertEqual(difference.maxChannelDelta, 255)
        XCTAssertFalse(difference.isWithin(maxRatio: 1), "a size change is never within the ratio")
    }

    func testHighlightPaintsDifferingPixelsRedOverAFadedCopy() {
        let base = image(3, 2, [0, 0, 0, 255])
        let current = setting(base, 1, 0, [0, 0, 200, 255])
        let diff = PixelDifference.highlight(baseline: base, current: current, tolerance: 2)
        XCTAssertEqual([diff.width, diff.height], [3, 2])
        XCTAssertEqual(diff.pixel(1, 0), [255, 0, 0, 255])
        let faded = diff.pixel(0, 0)
        XCTAssertEqual(faded[0], faded[1], "faded to grey")
        XCTAssertEqual(faded[1], faded[2])
        XCTAssertGreaterThan(faded[0], 150, "black fades towards white, so red stands out")
        XCTAssertEqual(faded[3], 255)
        XCTAssertNotEqual(faded, [255, 0, 0, 255])
    }

    func testHighlightOfDifferentSizesCoversTheLargerCanvas() {
        let diff = PixelDifference.highlight(
            baseline: image(2, 1, [255, 255, 255, 255]), current: image(1, 2, [255, 255, 255, 255]),
            tolerance: 0)
        XCTAssertEqual([diff.width, diff.height], [2, 2])
        XCTAssertEqual(diff.pixel(1, 0), [255, 0, 0, 255], "only in the baseline")
        XCTAssertEqual(diff.pixel(0, 1), [255, 0, 0, 255], "only in the current image")
        XCTAssertEqual(diff.pixel(1, 1), [255, 0, 0, 255], "in neither")
        XCTAssertEqual(diff.pixel(0, 0), [255, 255, 255, 255], "white stays white")
    }

    /// A bounded fuzz: the count never exceeds the canvas and equals a direct per-pixel count.
    func testRandomImagesMatchAPlainCount() {
        var generator = SplitMix64(seed: 15)
        for _ in 0..<50 {
            let width = Int.random(in: 1...6, using: &generator)
            let height = Int.random(in: 1...6, using: &generator)
            let a = RGBAImage(
                width: width, height: height,
                pixels: (0..<width * height * 4).map { _ in UInt8.random(in: 0...255, using: &generator) })
            var b = a
            for index in b.pixels.indices where Bool.random(using: &generator) {
                b.pixels[index] = UInt8(clamping: Int(b.pixels[index]) + Int.random(in: -4...4, using: &generator))
            }
            let tolerance = Int.random(in: 0...4, using: &generator)
            var expected = 0
            var largest = 0
            for pixel in 0..<width * height {
                let deltas = (0..<4).map { abs(Int(a.pixels[pixel * 4 + $0]) - Int(b.pixels[pixel * 4 + $0])) }
                if deltas.contains(where: { $0 > tolerance }) { expected += 1 }
                largest = max(largest, deltas.max()!)
            }
            let difference = PixelDifference(baseline: a, current: b, tolerance: tolerance)
            XCTAssertEqual(difference.differingPixels, expected)
            XCTAssertEqual(difference.maxChannelDelta, largest)
        }
    }
}
