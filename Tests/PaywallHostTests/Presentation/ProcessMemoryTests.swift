import CGtk
import Foundation
import XCTest

@testable import PaywallHost

/// Reading the process tree's memory keeps nothing: a preload reads it twice, and a process
/// that preloads for hours must not grow by it.
final class ProcessMemoryTests: XCTestCase {
    func testReadingTheTreeKeepsNoHeap() {
        XCTAssertGreaterThan(ProcessMemory.treeRSS(), 0)
        // Every thread's `/proc/PID/task/TID/children` reports size 0 and is empty: Foundation's
        // readers kept a 4 kB buffer for each (4.9 MB over these 200 readings before this reader).
        let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0
        XCTAssertGreaterThan(threads, 0)
        let before = mallinfo2().uordblks
        for _ in 0..<200 { _ = ProcessMemory.tree() }
        let kept = Int(mallinfo2().uordblks) - Int(before)
        // Live heap bytes return to where they were: less than one kept buffer of difference,
        // against 200 x threads x 4 kB if each read kept one.
        XCTAssertLessThan(kept, 4096, "\(kept) bytes kept over 200 readings of \(threads) threads")
    }
}
