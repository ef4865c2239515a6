import CGtk
import XCTest

/// Reads pixels of a PNG through GdkPixbuf (no display needed), for checking snapshots.
struct PNGImage {
    let width: Int
    let height: Int
    private let pixels: [UInt8]
    private let rowstride: Int
    private let channels: Int

    init(path: String) throws {
        var error: UnsafeMutablePointer<GError>?
        guard let pixbuf = gdk_pixbuf_new_from_file(path, &error) else {
            let message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            if let error { g_error_free(error) }
            throw NSError(domain: "PNGImage", code: 1, userInfo: [NSLocalizedDescriptionKey: "\(path): \(message)"])
        }
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        width = Int(gdk_pixbuf_get_width(pixbuf))
        height = Int(gdk_pixbuf_get_height(pixbuf))
        rowstride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        channels = Int(gdk_pixbuf_get_n_channels(pixbuf))
        var length: guint = 0
        let bytes = gdk_pixbuf_get_pixels_with_length(pixbuf, &length)!
        pixels = Array(UnsafeBufferPointer(start: bytes, count: Int(length)))
    }

    /// The RGB colour at (x, y).
    func rgb(_ x: Int, _ y: Int) -> [Int] {
        let offset = y * rowstride + x * channels
        return [Int(pixels[offset]), Int(pixels[offset + 1]), Int(pixels[offset + 2])]
    }

    /// Asserts the pixel at (x, y) is `expected`, within a small tolerance for colour management.
    func assertColor(_ x: Int, _ y: Int, _ expected: [Int], _ what: String,
                     file: StaticString = #filePath, line: UInt = #line) {
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
