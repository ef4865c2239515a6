import Foundation
import XCTest

@testable import PaywallCore

/// The outbox on a real SQLite file: what is committed stays until delivered, the bounds drop
/// the oldest (counted), a full disk holds events in memory, and withdrawn consent empties it.
final class AnalyticsOutboxTests: XCTestCase {
    private var dir: URL!
    override func setUpWithError() throws { dir = try makeTemporaryDirectory("AnalyticsOutboxTests") }
    override func tearDown() { removeTemporaryDirectory(dir) }

    private var path: String { dir.appendingPathComponent("analytics.sqlite").path }

    private func enqueue(
        _ outbox: AnalyticsOutbox, _ n: Int, at: Date = Date(), sinks: [String] = ["posthog"], now: Date = Date()
    ) {
        outbox.enqueue(line: "{\"n\":\(n)}", uuid: "uuid-\(n)", at: at, context: "{}", sinks: sinks, now: now)
    }

    func testCommittedEventsSurviveAReopenAndLeaveOnlyWhenDelivered() throws {
        let outbox = try AnalyticsOutbox(path: path)
        for n in 0..<5 { enqueue(outbox, n, sinks: ["posthog", "webhook"]) }
        // Another process (or the next run) sees them at once: committed, not buffered.
        let reopened = try AnalyticsOutbox(path: path)
        XCTAssertEqual(reopened.batch(sink: "posthog", limit: 3).map(\.uuid), ["uuid-0", "uuid-1", "uuid-2"])
        try reopened.delivered(reopened.batch(sink: "posthog", limit: 3), sink: "posthog")
        XCTAssertEqual(reopened.batch(sink: "posthog", limit: 100).map(\.uuid), ["uuid-3", "uuid-4"])
        XCTAssertEqual(reopened.batch(sink: "webhook", limit: 100).count, 5, "each sink has its own queue")
        let status = try reopened.status()
        XCTAssertEqual(status.map(\.sink), ["posthog", "webhook"])
        XCTAssertEqual(status.map(\.queued), [2, 5])
        XCTAssertNotNil(status[0].lastSuccess)
        XCTAssertNil(status[1].lastSuccess)
    }

    func testTheQueueHoldsTenThousandEventsDroppingTheOldestCounted() throws {
        let outbox = try AnalyticsOutbox(path: path)
        for n in 0..<(AnalyticsOutbox.maxEvents + 3) { enqueue(outbox, n) }
        let status = try XCTUnwrap(try outbox.status().first)
        XCTAssertEqual(status.queued, 10_000)
        XCTAssertEqual(status.dropped, 3)
        XCTAssertEqual(outbox.batch(sink: "posthog", limit: 1).first?.uuid, "uuid-3", "the oldest went first")
        XCTAssertEqual(outbox.takeDrops(), [.init(sink: "posthog", reason: "queue_full", count: 3)])
        XCTAssertEqual(outbox.takeDrops(), [], "reported once")
    }

    func testEventsOlderThanThirtyDaysAreDroppedCounted() throws {
        let outbox = try AnalyticsOutbox(path: path)
        let now = Date()
        enqueue(outbox, 0, at: now.addingTimeInterval(-31 * 86_400), now: now.addingTimeInterval(-31 * 86_400))
        enqueue(outbox, 1, at: now.addingTimeInterval(-29 * 86_400), now: now.addingTimeInterval(-29 * 86_400))
        enqueue(outbox, 2, at: now, now: now)
        XCTAssertEqual(outbox.batch(sink: "posthog", limit: 100).map(\.uuid), ["uuid-1", "uuid-2"])
        XCTAssertEqual(outbox.takeDrops(), [.init(sink: "posthog", reason: "too_old", count: 1)])
    }

    func testAFullDiskKeepsEventsInMemoryUpToTheBoundAndCountsTheRest() throws {
        let outbox = try AnalyticsOutbox(path: path, memoryBound: 5)
        enqueue(outbox, 0)
        let database = outbox.databaseForTesting
        // The file may not grow: once its free pages are used, inserts fail as on a full disk.
        let pages = try XCTUnwrap(try database.query("PRAGMA page_count").first?["page_count"]?.int)
        _ = try database.query("PRAGMA max_page_count = \(pages)")
        var n = 1
        while outbox.heldInMemory == 0, n < 100_000 {
            enqueue(outbox, n)
            n += 1
        }
        XCTAssertEqual(outbox.heldInMemory, 1, "the first event the disk refused waits in memory")
        let onDisk = n - 1
        for k in 0..<14 { enqueue(outbox, n + k) }
        XCTAssertEqual(outbox.heldInMemory, 5, "held up to the bound")
        XCTAssertEqual(try outbox.status().first?.queued, onDisk + 5)
        _ = try database.query("PRAGMA max_page_count = 1073741823")
        let written = outbox.batch(sink: "posthog", limit: 100_000)
        XCTAssertEqual(outbox.heldInMemory, 0)
        XCTAssertEqual(written.count, onDisk + 5, "once there is room the held events are written")
        XCTAssertEqual(
            written.suffix(5).map(\.uuid), (n + 9..<n + 14).map { "uuid-\($0)" }, "the oldest held were dropped first")
        XCTAssertEqual(outbox.takeDrops(), [.init(sink: "posthog", reason: "disk_full", count: 10)])
    }

    func testWithdrawnConsentEmptiesTheQueueAndIsKept() throws {
        let outbox = try AnalyticsOutbox(path: path)
        XCTAssertNil(outbox.consent())
        for n in 0..<3 { enqueue(outbox, n) }
        try outbox.setConsent(false)
        XCTAssertEqual(outbox.queuedCount(), 0)
        XCTAssertEqual(try AnalyticsOutbox(path: path).consent(), false, "kept for the data directory")
        try outbox.setConsent(true)
        XCTAssertEqual(outbox.consent(), true)
    }
}
