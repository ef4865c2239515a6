import Foundation
import XCTest

@testable import PaywallCore

final class RecoveringDatabaseTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = try makeTemporaryDirectory("RecoveringDatabaseTests")
    }

    override func tearDown() {
        removeTemporaryDirectory(directory)
        directory = nil
    }

    /// Several steps, one of them an ALTER: a second migrator running a step again fails
    /// with "table already exists" or "duplicate column name".
    private static let migrations = [
        "CREATE TABLE a (x INTEGER);",
        "ALTER TABLE a ADD COLUMN y INTEGER;",
        "CREATE TABLE b (z TEXT);",
    ]

    /// What each thread saw, collected under a lock.
    private final class Outcomes: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var errors: [String] = []
        private(set) var recoveries: [String] = []
        func add(error: String? = nil, recovery: String? = nil) {
            lock.lock()
            defer { lock.unlock() }
            if let error { errors.append(error) }
            if let recovery { recoveries.append(recovery) }
        }
    }

    /// Connections in several threads open and migrate one fresh file at the same moment
    /// (as processes starting together do): every one succeeds, nothing is taken for a
    /// foreign file, and the schema is complete once.
    func testManyConnectionsMigratingOneFreshFileAllSucceed() throws {
        for round in 0..<4 {
            let path = directory.appendingPathComponent("race-\(round).sqlite").path
            let outcomes = Outcomes()
            let start = DispatchSemaphore(value: 0)
            let group = DispatchGroup()
            let threads = 8
            for _ in 0..<threads {
                group.enter()
                Thread.detachNewThread {
                    start.wait()
                    do {
                        let (_, recovery) = try RecoveringDatabase.open(
                            path: path, applicationId: 0x5445_5354, migrations: Self.migrations)
                        outcomes.add(recovery: recovery?.description)
                    } catch {
                        outcomes.add(error: "\(error)")
                    }
                    group.leave()
                }
            }
            for _ in 0..<threads { start.signal() }
            group.wait()
            XCTAssertEqual(outcomes.errors, [], "round \(round)")
            XCTAssertEqual(outcomes.recoveries, [], "round \(round): a fresh file was taken for a foreign one")
            let database = try SQLiteDatabase(path: path)
            XCTAssertEqual(try database.query("PRAGMA user_version").first?["user_version"], .integer(3))
            XCTAssertEqual(
                try database.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
                    .compactMap { $0["name"]?.string }, ["a", "b"])
        }
    }

    /// A migration that fails leaves the file as it was: no half-applied step, the version unchanged.
    func testFailedMigrationChangesNothing() throws {
        let path = directory.appendingPathComponent("bad.sqlite").path
        _ = try RecoveringDatabase.open(path: path, applicationId: 0x5445_5354, migrations: Array(Self.migrations.prefix(1)))
        XCTAssertThrowsError(
            try RecoveringDatabase.open(
                path: path, applicationId: 0x5445_5354,
                migrations: Array(Self.migrations.prefix(1)) + ["CREATE TABLE c (x); CREATE TABLE c (x);"]))
        let database = try SQLiteDatabase(path: path)
        XCTAssertEqual(try database.query("PRAGMA user_version").first?["user_version"], .integer(1))
        XCTAssertEqual(try database.query("SELECT count(*) AS n FROM sqlite_master WHERE name = 'c'").first?["n"], .integer(0))
    }
}
