/// An image as 8-bit red, green, blue and alpha values, row after row without padding: what
/// snapshots are compared as (the host decodes and encodes PNG files).
package struct RGBAImage: Equatable, Sendable {
    package let width: Int
    package let height: Int
    /// `width * height * 4` bytes.
    package var pixels: [UInt8]

    package init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(
            width >= 0 && height >= 0 && pixels.count == width * height * 4, "RGBA pixels must be width x height x 4 bytes")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The four channels of the pixel at (x, y).
    package func pixel(_ x: Int, _ y: Int) -> [UInt8] {
        let offset = (y * width + x) * 4
        return Array(pixels[offset..<offset + 4])
    }
}
