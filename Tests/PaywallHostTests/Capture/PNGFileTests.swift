import CGtk
import Foundation
import PaywallCore
import XCTest

@testable import PaywallHost

final class PNGFileTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = try makeTemporaryDirectory("png")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    /// An odd width: GdkPixbuf pads rows of 3-channel images, which must not shift pixels.
    func testWritesAndReadsBackEveryChannel() throws {
        let pixels: [UInt8] = (0..<60).map { (index: Int) -> UInt8 in UInt8((index * 37) % 256) }
        let image = RGBAImage(width: 5, height: 3, pixels: pixels)
        let path = directory.appendingPathComponent("a.png").path
        try PNGFile.write(image, to: path)
        XCTAssertEqual(try PNGFile.read(path), image)
    }

    /// A write stopped halfway leaves the old image (or none), never a truncated one.
    func testAWriteReplacesTheFileWholeOrNotAtAll() throws {
        let path = directory.appendingPathComponent("baseline.png").path
        try PNGFile.write(RGBAImage(width: 1, height: 1, pixels: [1, 2, 3, 255]), to: path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let failed = PNGFile.replacing(path) { partial in
            _ = FileManager.default.createFile(atPath: partial, contents: Data([0x89, 0x50]))  // half an image
            return false
        }
        XCTAssertFalse(failed)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before, "the old image is untouched")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: directory.path), ["baseline.png"], "no partial file left")
    }

    func testReadsAnImageWithoutAlphaAsOpaque() throws {
        let path = directory.appendingPathComponent("rgb.png").path
        let pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, 3, 2)!
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        gdk_pixbuf_fill(pixbuf, 0x1122_33FF)
        XCTAssertNotEqual(gdk_pixbuf_savev(pixbuf, path, "png", nil, nil, nil), 0)
        let image = try PNGFile.read(path)
        XCTAssertEqual([image.width, image.height], [3, 2])
        XCTAssertEqual(image.pixel(2, 1), [0x11, 0x22, 0x33, 255])
    }

    func testErrorsNameTheFile() throws {
        let text = directory.appendingPathComponent("not.png").path
        try "hello".write(toFile: text, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try PNGFile.read(text)) { XCTAssertTrue("\($0)".contains(text), "\($0)") }
        let unwritable = directory.appendingPathComponent("no/such/dir/x.png").path
        XCTAssertThrowsError(try PNGFile.write(RGBAImage(width: 1, height: 1, pixels: [0, 0, 0, 255]), to: unwritable)) {
            XCTAssertTrue("\($0)".contains(unwritable), "\($0)")
        }
    }
}
