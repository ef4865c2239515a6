import CGtk
import Foundation
import PaywallCore

/// Reads and writes PNG files as RGBA pixels through GdkPixbuf (no display needed), for
/// comparing snapshots with their baselines.
package enum PNGFile {
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    package static func read(_ path: String) throws(Failure) -> RGBAImage {
        var error: UnsafeMutablePointer<GError>?
        guard let loaded = gdk_pixbuf_new_from_file(path, &error) else {
            throw Failure(description: "cannot read \(path) as a PNG image: \(consumeError(error))")
        }
        // Images without alpha (3 channels) get an opaque one, so every image compares as RGBA.
        let pixbuf = gdk_pixbuf_get_has_alpha(loaded) != 0 ? loaded : gdk_pixbuf_add_alpha(loaded, 0, 0, 0, 0)!
        defer {
            if pixbuf != loaded { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
            g_object_unref(UnsafeMutableRawPointer(loaded))
        }
        let width = Int(gdk_pixbuf_get_width(pixbuf))
        let height = Int(gdk_pixbuf_get_height(pixbuf))
        let rowstride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        guard gdk_pixbuf_get_bits_per_sample(pixbuf) == 8, gdk_pixbuf_get_n_channels(pixbuf) == 4 else {
            throw Failure(description: "cannot read \(path): not an 8-bit RGB or RGBA image")
        }
        var length: guint = 0
        let bytes = gdk_pixbuf_get_pixels_with_length(pixbuf, &length)!
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        // Rows may be padded to `rowstride`; the last row need not be.
        for row in 0..<height {
            let source = UnsafeBufferPointer(start: bytes + row * rowstride, count: width * 4)
            pixels.replaceSubrange(row * width * 4..<(row + 1) * width * 4, with: source)
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    package static func write(_ image: RGBAImage, to path: String) throws(Failure) {
        var error: UnsafeMutablePointer<GError>?
        let saved = replacing(path) { partial in
            image.pixels.withUnsafeBufferPointer { buffer -> Bool in
                // The pixbuf borrows the buffer only while it is saved here.
                let pixbuf = gdk_pixbuf_new_from_data(
                    buffer.baseAddress, GDK_COLORSPACE_RGB, 1, 8, gint(image.width),
                    gint(image.height), gint(image.width * 4), nil, nil)
                defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
                return gdk_pixbuf_savev(pixbuf, partial, "png", nil, nil, &error) != 0
            }
        }
        guard saved else { throw Failure(description: "cannot write \(path): \(consumeError(error))") }
    }

    /// Writes `path` through a partial file renamed into place once `write` succeeded, so a run
    /// stopped halfway (a signal, a full disk) never leaves a truncated image that a later
    /// `--compare` would read as a baseline.
    package static func replacing(_ path: String, _ write: (String) -> Bool) -> Bool {
        let partial = "\(path).partial-\(getpid())"
        guard write(partial), rename(partial, path) == 0 else {
            unlink(partial)
            return false
        }
        return true
    }
}
