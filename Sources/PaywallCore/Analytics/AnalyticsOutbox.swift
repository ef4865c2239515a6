import Foundation

/// The events waiting for each sink, in `analytics.sqlite` in the data directory: an event is
/// committed here before any send, so being offline or killed loses nothing already emitted.
/// Rows leave only when their sink took them (or refused them for good, counted). Also kept:
/// each sink's last success and error, what was dropped and not yet reported, and the
/// data directory's analytics consent. Safe from any thread (one lock around the database).
package final class AnalyticsOutbox: @unchecked Sendable {
    /// "PWAN": marks the file as the analytics outbox.
    static let applicationId: Int32 = 0x5057_414E

    static let migrations = [
        """
        CREATE TABLE events (
            id INTEGER PRIMARY KEY AUTOINCREMENT, sink TEXT NOT NULL, uuid TEXT NOT NULL, at REAL NOT NULL,
            line TEXT NOT NULL, context TEXT NOT NULL
        );
        CREATE INDEX events_by_sink ON events (sink, id);
        CREATE TABLE sinks (
            sink TEXT PRIMARY KEY, last_success REAL, last_error TEXT, last_error_at REAL,
            dropped INTEGER NOT NULL DEFAULT 0
        );
        CREATE TABLE drops (sink TEXT NOT NULL, reason TEXT NOT NULL, count INTEGER NOT NULL, PRIMARY KEY (sink, reason));
        CREATE TABLE facts (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        """
    ]

    /// How many events a sink's queue holds at most; the oldest go first (counted).
    package static let maxEvents = 10_000
    /// How old a queued event may get (30 days); older ones are dropped (counted).
    package static let maxAge: TimeInterval = 30 * 24 * 3600
    /// Events kept in memory while the disk is full; past it they are counted as dropped.
    package static let memoryBound = 1_000

    /// One queued event of a sink.
    package struct Row: Equatable, Sendable {
        package let id: Int64
        package let uuid: String
        package let line: String
        /// Where it was emitted (`AnalyticsSink.Context`, as JSON), for the sinks that send it.
        package let context: String
    }

    /// What `paywall analytics status` shows of a sink.
    package struct SinkStatus: Equatable, Sendable {
        package let sink: String
        package let queued: Int
        package let oldest: Date?
        package let lastSuccess: Date?
        package let lastError: String?
        package let lastErrorAt: Date?
        package let dropped: Int
    }

    /// Events dropped and not yet reported as `analytics_dropped`.
    package struct Drop: Equatable, Sendable {
        package let sink: String
        package let reason: String
        package let count: Int

        package init(sink: String, reason: String, count: Int) {
            self.sink = sink
            self.reason = reason
            self.count = count
        }
    }

    private let lock = NSLock()
    private let database: SQLiteDatabase
    package let recovery: RecoveringDatabase.Recovery?
    /// Events that met a full disk, in order, waiting for room.
    private var inMemory: [(sinks: [String], uuid: String, at: Date, line: String, context: String)] = []
    /// Events lost past `memoryBound` while the disk was full, per sink.
    private var lostInMemory: [String: Int] = [:]
    private let memoryBound: Int

    package init(path: String, readOnly: Bool = false, memoryBound: Int = AnalyticsOutbox.memoryBound) throws(SQLiteError) {
        (database, recovery) = try RecoveringDatabase.open(
            path: path, applicationId: Self.applicationId, migrations: Self.migrations, readOnly: readOnly)
        self.memoryBound = memoryBound
    }

    /// The underlying database, for tests that fill it (`PRAGMA max_page_count`).
    package var databaseForTesting: SQLiteDatabase { database }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    // MARK: Queueing

    /// Commits `line` (an event-log line) for each of `sinks`, then applies the bounds. On a
    /// full disk the event waits in memory (up to the bound) and is written once there is room.
    package func enqueue(line: String, uuid: String, at: Date, context: String, sinks: [String], now: Date = Date()) {
        guard !sinks.isEmpty else { return }
        locked {
            inMemory.append((sinks, uuid, at, line, context))
            writeInMemory(now: now)
        }
    }

    /// Writes the events kept in memory, oldest first; keeps them on a full disk. Called with the lock held.
    private func writeInMemory(now: Date) {
        while let first = inMemory.first {
            do {
                try database.transaction {
                    for sink in first.sinks {
                        try database.query(
                            "INSERT INTO events (sink, uuid, at, line, context) VALUES (?, ?, ?, ?, ?)",
                            [
                                .text(sink), .text(first.uuid), .real(first.at.timeIntervalSince1970), .text(first.line),
                                .text(first.context),
                            ])
                    }
                    try applyBounds(sinks: first.sinks, now: now)
                }
                inMemory.removeFirst()
            } catch {
                // A full disk (or a file opened read-only for want of room): keep it, bounded.
                if inMemory.count > memoryBound {
                    for sink in inMemory.removeFirst().sinks { lostInMemory[sink, default: 0] += 1 }
                }
                return
            }
        }
        guard !lostInMemory.isEmpty else { return }
        let lost = lostInMemory
        do {
            try database.transaction {
                for (sink, count) in lost { try recordDrop(sink: sink, reason: "disk_full", count: count) }
            }
            lostInMemory = [:]
        } catch {
            return
        }
    }

    /// Drops what is older than `maxAge` and the oldest past `maxEvents`, counted. In a transaction.
    private func applyBounds(sinks: [String], now: Date) throws {
        for sink in sinks {
            let old = try count(
                "SELECT COUNT(*) AS n FROM events WHERE sink = ? AND at < ?",
                [
                    .text(sink), .real(now.timeIntervalSince1970 - Self.maxAge),
                ])
            if old > 0 {
                try database.query(
                    "DELETE FROM events WHERE sink = ? AND at < ?", [.text(sink), .real(now.timeIntervalSince1970 - Self.maxAge)])
                try recordDrop(sink: sink, reason: "too_old", count: old)
            }
            let over = try count("SELECT COUNT(*) AS n FROM events WHERE sink = ?", [.text(sink)]) - Self.maxEvents
            if over > 0 {
                try database.query(
                    "DELETE FROM events WHERE id IN (SELECT id FROM events WHERE sink = ? ORDER BY id LIMIT ?)",
                    [.text(sink), .integer(Int64(over))])
                try recordDrop(sink: sink, reason: "queue_full", count: over)
            }
        }
    }

    private func count(_ sql: String, _ values: [SQLiteValue]) throws -> Int {
        Int(try database.query(sql, values).first?["n"]?.int ?? 0)
    }

    private func recordDrop(sink: String, reason: String, count: Int) throws {
        try database.query("INSERT OR IGNORE INTO sinks (sink) VALUES (?)", [.text(sink)])
        try database.query("UPDATE sinks SET dropped = dropped + ? WHERE sink = ?", [.integer(Int64(count)), .text(sink)])
        try database.query(
            "INSERT INTO drops (sink, reason, count) VALUES (?, ?, ?) ON CONFLICT (sink, reason) DO UPDATE SET count = count + excluded.count",
            [.text(sink), .text(reason), .integer(Int64(count))])
    }

    // MARK: Sending

    /// Up to `limit` of `sink`'s oldest events (after writing any kept in memory).
    package func batch(sink: String, limit: Int, now: Date = Date()) -> [Row] {
        locked {
            writeInMemory(now: now)
            let rows =
                (try? database.query(
                    "SELECT id, uuid, line, context FROM events WHERE sink = ? ORDER BY id LIMIT ?",
                    [.text(sink), .integer(Int64(limit))]))
                ?? []
            return rows.compactMap { row in
                guard let id = row["id"]?.int, let uuid = row["uuid"]?.string, let line = row["line"]?.string,
                    let context = row["context"]?.string
                else { return nil }
                return Row(id: id, uuid: uuid, line: line, context: context)
            }
        }
    }

    /// The sink took `rows`: they leave the queue, and its last success is now.
    package func delivered(_ rows: [Row], sink: String, now: Date = Date()) throws {
        try locked {
            try database.transaction {
                try delete(rows)
                try database.query("INSERT OR IGNORE INTO sinks (sink) VALUES (?)", [.text(sink)])
                try database.query(
                    "UPDATE sinks SET last_success = ? WHERE sink = ?", [.real(now.timeIntervalSince1970), .text(sink)])
            }
        }
    }

    /// The sink refused `rows` for good (400, 422): they leave the queue, counted as `reason`.
    package func rejected(_ rows: [Row], sink: String, reason: String, error: String, now: Date = Date()) throws {
        try locked {
            try database.transaction {
                try delete(rows)
                try recordDrop(sink: sink, reason: reason, count: rows.count)
                try setError(error, sink: sink, now: now)
            }
        }
    }

    /// A send failed and the queue stays: keeps why.
    package func failed(sink: String, error: String, now: Date = Date()) {
        locked { try? setError(error, sink: sink, now: now) }
    }

    private func setError(_ error: String, sink: String, now: Date) throws {
        try database.query("INSERT OR IGNORE INTO sinks (sink) VALUES (?)", [.text(sink)])
        try database.query(
            "UPDATE sinks SET last_error = ?, last_error_at = ? WHERE sink = ?",
            [.text(error), .real(now.timeIntervalSince1970), .text(sink)])
    }

    private func delete(_ rows: [Row]) throws {
        for row in rows { try database.query("DELETE FROM events WHERE id = ?", [.integer(row.id)]) }
    }

    /// The drops not yet reported, which are then forgotten (their totals stay in `status`).
    package func takeDrops() -> [Drop] {
        locked {
            guard let rows = try? database.query("SELECT sink, reason, count FROM drops ORDER BY sink, reason"), !rows.isEmpty
            else { return [] }
            guard (try? database.query("DELETE FROM drops")) != nil else { return [] }
            return rows.compactMap { row in
                guard let sink = row["sink"]?.string, let reason = row["reason"]?.string, let count = row["count"]?.int else {
                    return nil
                }
                return Drop(sink: sink, reason: reason, count: Int(count))
            }
        }
    }

    // MARK: Status and consent

    /// Every sink that has queued, sent or failed anything, by name.
    package func status() throws -> [SinkStatus] {
        try locked {
            let names = try database.query("SELECT sink FROM sinks UNION SELECT sink FROM events ORDER BY sink")
            return try names.compactMap { name in
                guard let sink = name["sink"]?.string else { return nil }
                let kept = try database.query("SELECT * FROM sinks WHERE sink = ?", [.text(sink)]).first
                let queue = try database.query(
                    "SELECT COUNT(*) AS n, MIN(at) AS oldest FROM events WHERE sink = ?", [.text(sink)]
                ).first
                return SinkStatus(
                    sink: sink, queued: Int(queue?["n"]?.int ?? 0) + inMemory.filter { $0.sinks.contains(sink) }.count,
                    oldest: queue?["oldest"]?.date, lastSuccess: kept?["last_success"]?.date,
                    lastError: kept?["last_error"]?.string, lastErrorAt: kept?["last_error_at"]?.date,
                    dropped: Int(kept?["dropped"]?.int ?? 0))
            }
        }
    }

    /// How many events wait in memory for room on the disk.
    package var heldInMemory: Int { locked { inMemory.count } }

    /// How many events wait for any sink (on disk and in memory).
    package func queuedCount() -> Int {
        locked { ((try? count("SELECT COUNT(*) AS n FROM events", [])) ?? 0) + inMemory.count }
    }

    /// The consent kept for this data directory; nil when none was set.
    package func consent() -> Bool? {
        locked {
            guard let value = try? database.query("SELECT value FROM facts WHERE key = 'consent'").first?["value"]?.string
            else { return nil }
            return value == "1"
        }
    }

    /// Keeps `consent`; without it the queue is emptied (nothing waits to be sent).
    package func setConsent(_ consent: Bool) throws {
        try locked {
            try database.transaction {
                try database.query(
                    "INSERT OR REPLACE INTO facts (key, value) VALUES ('consent', ?)", [.text(consent ? "1" : "0")])
                if !consent {
                    try database.query("DELETE FROM events")
                    try database.query("DELETE FROM drops")
                }
            }
            if !consent { inMemory = [] }
        }
    }
}
