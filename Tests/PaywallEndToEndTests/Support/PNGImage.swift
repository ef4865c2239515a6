import PaywallCore
import PaywallHost
import XCTest

/// Reads pixels of a PNG (through the host's `PNGFile`, no display needed), for checking snapshots.
struct PNGImage {
    let image: RGBAImage
    var width: Int { image.width }
    var height: Int { image.height }

    init(path: String) throws {
        image = try PNGFile.read(path)
    }

    /// The RGB colour at (x, y).
    func rgb(_ x: Int, _ y: Int) -> [Int] {
        image.pixel(x, y).prefix(3).map(Int.init)
    }

    /// Asserts the pixel at (x, y) is `expected`, within a small tolerance for colour management.
    func assertColor(
        _ x: Int, _ y: Int, _ expected: [Int], _ what: String,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        let actual = rgb(x, y)
        let close = zip(actual, expected).allSatisfy { abs($0 - $1) <= 3 }
        XCTAssertTrue(close, "\(what): pixel (\(x),\(y)) is \(actual), expected \(expected)", file: file, line: line)
    }

    /// How many distinct colours appear on a coarse grid: a blank page has one.
    func distinctColors(step: Int = 8) -> Int {
        var seen = Set<[Int]>()
        for y in stride(from: 0, to: height, by: step) {
            for x in stride(from: 0, to: width, by: step) { seen.insert(rgb(x, y)) }
        }
        return seen.count
    }
}
