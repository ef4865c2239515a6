import CGtk
import CWebKit
import Foundation

/// Writes a PNG of what a paywall view shows, once its images and web fonts have loaded, its
/// animations are frozen and two more frames have been painted.
@MainActor
package enum PageCapture {
    /// Resolves when fonts and `<img>` elements are loaded (or failed), CSS animations and
    /// transitions are frozen (those that end at their end, endless ones at their start: two
    /// snapshots of the same page then match) and two frames were drawn.
    static let settleScript = """
        await document.fonts.ready;
        await Promise.all(Array.from(document.images, img =>
            img.complete ? null : new Promise(done => { img.onload = img.onerror = done; })));
        for (const animation of document.getAnimations()) {
            const end = animation.effect ? animation.effect.getComputedTiming().endTime : 0;
            if (Number.isFinite(end)) { animation.finish(); } else { animation.pause(); animation.currentTime = 0; }
        }
        await new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)));
        return true;
        """

    package static func writePNG(
        of webView: PaywallWebView, to path: String,
        completion: @escaping @MainActor (Result<Void, CaptureError>) -> Void
    ) {
        capture(of: webView) { captured in
            completion(captured.flatMap { image in Result { () throws(CaptureError) in try image.writePNG(to: path) } })
        }
    }

    /// What the view shows once it has settled, not yet written anywhere.
    package static func capture(
        of webView: PaywallWebView,
        completion: @escaping @MainActor (Result<CapturedImage, CaptureError>) -> Void
    ) {
        webView.callAsync(settleScript) { settled in
            if case .failure(let error) = settled {
                completion(.failure(CaptureError(message: "page did not settle: \(error.message)")))
                return
            }
            let view = webView.view
            webkit_web_view_get_snapshot(
                view, WEBKIT_SNAPSHOT_REGION_VISIBLE, WEBKIT_SNAPSHOT_OPTIONS_NONE, nil,
                AsyncCallback.function,
                AsyncCallback.userData { result in
                    var error: UnsafeMutablePointer<GError>?
                    guard let surface = webkit_web_view_get_snapshot_finish(view, result, &error) else {
                        completion(.failure(CaptureError(message: "snapshot failed: \(consumeError(error))")))
                        return
                    }
                    completion(.success(CapturedImage(surface: surface)))
                })
        }
    }

    /// A snapshot's pixels (a cairo image surface of its own), which any one thread may write
    /// as a PNG: a snapshot matrix encodes the last image while the next page loads.
    package final class CapturedImage: @unchecked Sendable {
        private let surface: OpaquePointer

        init(surface: OpaquePointer) {
            self.surface = surface
        }

        deinit { cairo_surface_destroy(surface) }

        package func writePNG(to path: String) throws(CaptureError) {
            var status = CAIRO_STATUS_SUCCESS
            let written = PNGFile.replacing(path) { partial in
                status = cairo_surface_write_to_png(surface, partial)
                return status == CAIRO_STATUS_SUCCESS
            }
            guard written else {
                // Encoded but not renamed into place: the file system's reason.
                let reason =
                    status == CAIRO_STATUS_SUCCESS
                    ? String(cString: strerror(errno)) : String(cString: cairo_status_to_string(status))
                throw CaptureError(message: "cannot write \(path): \(reason)")
            }
        }
    }

    package struct CaptureError: Error, CustomStringConvertible {
        package let message: String
        package var description: String { message }
    }
}
