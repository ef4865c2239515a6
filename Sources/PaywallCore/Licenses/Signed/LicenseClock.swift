import Foundation

/// The clock licenses are judged by: the real time, but never earlier than the latest time
/// this data directory has seen, so setting the clock back neither revives an expired
/// license nor stretches the offline grace. The latest time is kept in the license database's
/// `state` table (`latest_seen`) and only moves forward; each clock writes it on its first
/// reading, then at most once a minute (a read of the licenses is no disk write), so a clock
/// set back counts as at most a minute before the latest time seen.
package final class LicenseClock: @unchecked Sendable {
    private let db: LicenseDatabase
    private let real: @Sendable () -> Date
    private let lock = NSLock()
    private var latest: Date?
    private var written: Date?

    static let stateKey = "latest_seen"
    /// Seconds between writes of the latest time.
    static let writeInterval = 60.0

    init(database: LicenseDatabase, real: @escaping @Sendable () -> Date = { Date() }) {
        db = database
        self.real = real
        latest = Self.stored(in: database)
    }

    /// Opens the license database at `databasePath` (creating it, 0600) for its clock.
    package convenience init(databasePath: String, real: @escaping @Sendable () -> Date = { Date() }) throws(SQLiteError) {
        self.init(database: try LicenseDatabase(path: databasePath), real: real)
    }

    /// The latest time `database` has seen, read only (`paywall status`).
    static func stored(in database: LicenseDatabase) -> Date? {
        ((try? database.value(stateKey)) ?? nil).flatMap(Double.init).map(Date.init(timeIntervalSince1970:))
    }

    /// max(the real time, the latest seen); a later real time becomes the latest seen. When the
    /// database cannot be written, the time is still guarded by what was read.
    @Sendable package func now() -> Date {
        lock.lock()
        defer { lock.unlock() }
        let now = real()
        if let latest, latest >= now { return latest }
        latest = now
        if written.map({ now.timeIntervalSince($0) >= Self.writeInterval }) ?? true {
            try? db.setValue(Self.stateKey, String(now.timeIntervalSince1970))
            written = now
        }
        return now
    }
}
