import Foundation
import XCTest

@testable import PaywallCore

final class EntitlementCacheTests: XCTestCase {
    private var dir: URL!
    private var path: String { dir.appendingPathComponent("entitlements.sqlite").path }
    private let start = Date(timeIntervalSince1970: 1_800_000_000)

    override func setUpWithError() throws { dir = try makeTemporaryDirectory("EntitlementCacheTests") }
    override func tearDown() { removeTemporaryDirectory(dir) }

    private func monthly(_ id: String, expires: Date) -> StoreTransaction {
        StoreTransaction(
            id: id, productId: "pro.monthly", kind: .autoRenewable, store: .fakeStore,
            purchaseDate: start, expirationDate: expires, willRenew: true, subscriptionGroupId: "pro",
            entitlementIds: ["pro"], price: Decimal(string: "7.99")!)
    }

    func testNothingCachedIsUnknown() throws {
        let cache = try EntitlementCache(path: path)
        XCTAssertEqual(try cache.coldStartStatus(user: "u").0, .unknown)
    }

    func testStoreStatusIsRecomputedFromTransactionsAtColdStart() throws {
        let expiry = start.addingTimeInterval(3600)
        try EntitlementCache(path: path).storeSynced(user: "u", transactions: [monthly("t1", expires: expiry)], now: start)
        let reopened = try EntitlementCache(path: path)
        XCTAssertEqual(try reopened.transactions(user: "u"), [monthly("t1", expires: expiry)], "every field survives")
        // The clock offset recorded at sync time (store clock minus real clock) is applied again.
        let offset = try XCTUnwrap(try reopened.cachedStatus(user: "u")).clockOffset
        let beforeExpiry = start.addingTimeInterval(60).addingTimeInterval(-offset)
        XCTAssertEqual(try reopened.coldStartStatus(user: "u", realNow: beforeExpiry).0, .active(["pro"]))
        let afterExpiry = expiry.addingTimeInterval(1).addingTimeInterval(-offset)
        XCTAssertEqual(
            try reopened.coldStartStatus(user: "u", realNow: afterExpiry).0, .inactive,
            "an expiry since the last sync counts with no network")
    }

    func testAppSetStatusIsUsedAsSet() throws {
        try EntitlementCache(path: path).appSetStatus(user: "u", .active(["gold"]))
        let cached = try XCTUnwrap(try EntitlementCache(path: path).cachedStatus(user: "u"))
        XCTAssertEqual(cached.status, .active(["gold"]))
        XCTAssertEqual(cached.source, .app)
        XCTAssertEqual(try EntitlementCache(path: path).coldStartStatus(user: "u").0, .active(["gold"]))
    }

    func testUsersAreKeptApart() throws {
        let cache = try EntitlementCache(path: path)
        try cache.storeSynced(user: "alice", transactions: [monthly("t1", expires: start.addingTimeInterval(3600))], now: start)
        try cache.appSetStatus(user: "bob", .inactive)
        XCTAssertEqual(try cache.transactions(user: "bob"), [])
        XCTAssertEqual(try cache.cachedStatus(user: "bob")?.status, .inactive)
        XCTAssertEqual(try cache.transactions(user: "alice").map(\.id), ["t1"])
        XCTAssertNil(try cache.cachedStatus(user: "carol"))
    }

    func testGarbageFileIsMovedAsideAndRebuilt() throws {
        try Data("this is not a database, just text that happens to be here".utf8).write(to: URL(fileURLWithPath: path))
        let cache = try EntitlementCache(path: path)
        let recovery = try XCTUnwrap(cache.recovery)
        XCTAssertEqual(recovery.path, path)
        XCTAssertTrue(recovery.movedTo.hasPrefix(path + ".corrupt-"))
        XCTAssertEqual(try String(contentsOfFile: recovery.movedTo, encoding: .utf8).prefix(12), "this is not ", "nothing lost")
        XCTAssertEqual(try cache.coldStartStatus(user: "u").0, .unknown)
        try cache.appSetStatus(user: "u", .inactive)
        XCTAssertNil(try EntitlementCache(path: path).recovery, "the rebuilt file is fine next time")
    }

    func testAnotherProgramsDatabaseIsMovedAside() throws {
        let foreign = try SQLiteDatabase(path: path)
        try foreign.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('keep me')")
        let cache = try EntitlementCache(path: path)
        XCTAssertEqual(cache.recovery?.reason, "it is not this runtime's file")
        let moved = try SQLiteDatabase(path: try XCTUnwrap(cache.recovery?.movedTo))
        XCTAssertEqual(try moved.query("SELECT body FROM notes").first?["body"], .text("keep me"))
    }

    func testFakeStoreFileIsNotTakenForACache() throws {
        _ = try FakeStoreDatabase(path: path)
        XCTAssertNotNil(try EntitlementCache(path: path).recovery)
    }

    func testNewerSchemaIsRefusedWithAClearError() throws {
        let db = try SQLiteDatabase(path: path)
        try db.execute("PRAGMA application_id = \(EntitlementCache.applicationId); PRAGMA user_version = 99")
        XCTAssertThrowsError(try EntitlementCache(path: path)) { error in
            XCTAssertTrue("\(error)".contains("newer than this runtime"), "\(error)")
        }
    }

    func testMigrationsAreRecordedInUserVersion() throws {
        _ = try EntitlementCache(path: path)
        let version = try SQLiteDatabase(path: path).query("PRAGMA user_version").first?["user_version"]
        XCTAssertEqual(version, .integer(Int64(EntitlementCache.migrations.count)))
        let mode = try SQLiteDatabase(path: path).query("PRAGMA journal_mode").first?["journal_mode"]
        XCTAssertEqual(mode, .text("wal"))
    }

    /// A cache whose schema lost a table (its version says it is complete) would fail every
    /// status write forever: it is moved aside and rebuilt like a corrupt file, naming what is missing.
    func testCacheMissingATableIsMovedAsideAndRebuilt() throws {
        try EntitlementCache(path: path).appSetStatus(user: "u", .inactive)
        try SQLiteDatabase(path: path).execute("DROP TABLE status")
        let cache = try EntitlementCache(path: path)
        let recovery = try XCTUnwrap(cache.recovery, "a cache without its status table was used as it was")
        XCTAssertTrue(recovery.reason.contains("status"), recovery.reason)
        XCTAssertTrue(recovery.description.hasPrefix(path), recovery.description)
        let moved = try SQLiteDatabase(path: recovery.movedTo)
        XCTAssertEqual(try moved.query("SELECT name FROM sqlite_master WHERE name = 'transactions'").count, 1, "nothing lost")
        try cache.appSetStatus(user: "u", .active(["pro"]))
        XCTAssertEqual(try EntitlementCache(path: path).coldStartStatus(user: "u").0, .active(["pro"]))
    }

    func testCacheMissingAColumnIsMovedAsideAndRebuilt() throws {
        _ = try EntitlementCache(path: path)
        try SQLiteDatabase(path: path).execute("ALTER TABLE status DROP COLUMN clock_offset")
        let recovery = try XCTUnwrap(try EntitlementCache(path: path).recovery)
        XCTAssertTrue(recovery.reason.contains("clock_offset"), recovery.reason)
    }

    // MARK: Read-only

    /// Reading needs no write access: a read-only open sees what the file holds.
    func testReadOnlyOpenReadsTheCache() throws {
        try EntitlementCache(path: path).appSetStatus(user: "u", .active(["pro"]))
        let cache = try EntitlementCache(path: path, readOnly: true)
        XCTAssertEqual(try cache.coldStartStatus(user: "u").0, .active(["pro"]))
        XCTAssertThrowsError(try cache.appSetStatus(user: "u", .inactive), "read-only means read-only")
    }

    /// With no file yet, there is nothing to know: an empty cache, and no file is created.
    func testReadOnlyOpenOfAMissingFileIsEmpty() throws {
        let cache = try EntitlementCache(path: path, readOnly: true)
        XCTAssertEqual(try cache.coldStartStatus(user: "u").0, .unknown)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
    }

    /// A file that would need writing (an older schema) is refused with the reason, not changed.
    func testReadOnlyOpenOfAFileThatNeedsMigratingSaysSo() throws {
        let db = try SQLiteDatabase(path: path)
        try db.execute("PRAGMA application_id = \(EntitlementCache.applicationId)")
        XCTAssertThrowsError(try EntitlementCache(path: path, readOnly: true)) { error in
            XCTAssertTrue("\(error)".contains("read-only"), "\(error)")
            XCTAssertTrue("\(error)".contains(path), "\(error)")
        }
        XCTAssertEqual(try db.query("PRAGMA user_version").first?["user_version"], .integer(0), "nothing was written")
    }
}
