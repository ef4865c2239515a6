import Foundation

/// The clock signed licenses are judged by: the real time, but never earlier than the latest
/// time this data directory has seen, so setting the clock back does not bring an expired
/// license back. The latest time is kept in the license database's `state` table
/// (`latest_seen`), and moves only forward.
package final class LicenseClock: @unchecked Sendable {
    private let db: LicenseDatabase
    private let real: @Sendable () -> Date
    private let lock = NSLock()

    static let stateKey = "latest_seen"

    init(database: LicenseDatabase, real: @escaping @Sendable () -> Date = { Date() }) {
        db = database
        self.real = real
    }

    /// Opens the license database at `databasePath` (creating it, 0600) for its clock.
    package convenience init(databasePath: String, real: @escaping @Sendable () -> Date = { Date() }) throws(SQLiteError) {
        self.init(database: try LicenseDatabase(path: databasePath), real: real)
    }

    /// max(the real time, the latest seen); a later real time becomes the latest seen. When the
    /// database cannot be written, the time is still guarded by what was read.
    package func now() -> Date {
        lock.lock()
        defer { lock.unlock() }
        let now = real()
        let latest = ((try? db.value(Self.stateKey)) ?? nil).flatMap(Double.init).map(Date.init(timeIntervalSince1970:))
        if let latest, latest >= now { return latest }
        try? db.setValue(Self.stateKey, String(now.timeIntervalSince1970))
        return now
    }
}
