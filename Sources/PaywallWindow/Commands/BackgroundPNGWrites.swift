import Foundation
import PaywallCLI
import PaywallHost

/// PNG encoding off the main thread, one file after another, so a matrix's next page loads
/// while the last image is written (about 20 ms of each shot's 120).
final class BackgroundPNGWrites: @unchecked Sendable {
    private let queue = DispatchQueue(label: "paywall.snapshot-writes")
    private let lock = NSLock()
    private var failures: [String] = []  // guarded by `lock`

    func write(_ image: PageCapture.CapturedImage, to path: String) {
        queue.async { [self] in
            do throws(PageCapture.CaptureError) { try image.writePNG(to: path) } catch {
                lock.withLock { failures.append(error.description) }
            }
        }
    }

    /// Waits until every image is written; returns what could not be.
    func finish() -> [String] {
        queue.sync {}
        return lock.withLock { failures }
    }
}
