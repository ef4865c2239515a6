import CSQLite
import Foundation

/// A value stored in or read from SQLite.
package enum SQLiteValue: Equatable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    package var int: Int64? { if case .integer(let v) = self { v } else { nil } }
    package var double: Double? {
        switch self {
        case .real(let v): v
        case .integer(let v): Double(v)
        default: nil
        }
    }
    package var string: String? { if case .text(let v) = self { v } else { nil } }
    package var date: Date? { double.map(Date.init(timeIntervalSince1970:)) }
    package var bool: Bool { int.map { $0 != 0 } ?? false }

    package static func date(_ date: Date?) -> SQLiteValue { date.map { .real($0.timeIntervalSince1970) } ?? .null }
    package static func optional(_ text: String?) -> SQLiteValue { text.map(SQLiteValue.text) ?? .null }
    package static func bool(_ value: Bool) -> SQLiteValue { .integer(value ? 1 : 0) }
}

/// One result row, by column name.
package typealias SQLiteRow = [String: SQLiteValue]

package struct SQLiteError: Error, Equatable, CustomStringConvertible {
    package let code: Int32
    package let message: String
    package var description: String { message }

    /// The file is not a database, or is damaged.
    package var isCorruption: Bool { code == SQLITE_NOTADB || code == SQLITE_CORRUPT }

    /// The file, or its directory, cannot be opened or written.
    package var isUnwritable: Bool { code == SQLITE_CANTOPEN || code == SQLITE_READONLY }

    /// A write failed for want of room: the disk is full, or an I/O error (what a full disk
    /// gives when SQLite maps its WAL index).
    package var isNoSpace: Bool { [SQLITE_FULL, SQLITE_IOERR].contains(code & 0xFF) }
}

/// A small, synchronous SQLite connection: prepared statements with bound values,
/// transactions, and schema migrations keyed by `PRAGMA user_version`.
package final class SQLiteDatabase {
    private var handle: OpaquePointer
    package let path: String
    /// Why a file meant for writing was opened read-only instead (a full disk); nil otherwise.
    package internal(set) var writeRefused: SQLiteError?

    /// Opens (creating) the file in WAL mode, waiting up to 5 s for other processes' locks.
    /// `readOnly` opens an existing file for reading only: nothing is created or written, so
    /// it works in a directory that cannot be written.
    package init(path: String, readOnly: Bool = false) throws(SQLiteError) {
        handle = try Self.open(path, readOnly ? .readOnly : .readWrite)
        self.path = path
        sqlite3_busy_timeout(handle, Self.busyTimeoutMilliseconds)
        // On failure deinit closes the handle (every property is set by now): no close here.
        do {
            if readOnly {
                try readOnlyCheck()
            } else {
                // Switching a fresh file to WAL while another process does the same can answer
                // BUSY without calling the busy handler: wait and try again, as it would.
                try executeWhileBusy("PRAGMA journal_mode = WAL")
                try execute("PRAGMA synchronous = NORMAL")
                try execute("PRAGMA foreign_keys = ON")
            }
        } catch {
            throw Self.explained(error, path: path)
        }
    }

    private enum Mode { case readWrite, readOnly, immutable }

    private static func open(_ path: String, _ mode: Mode) throws(SQLiteError) -> OpaquePointer {
        var db: OpaquePointer?
        let rc: Int32
        switch mode {
        case .readWrite:
            rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        case .readOnly, .immutable:
            let escaped = path.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "?", with: "%3f")
                .replacingOccurrences(of: "#", with: "%23")
            let uri = "file:\(escaped)?\(mode == .readOnly ? "mode=ro" : "immutable=1")"
            rc = sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nil)
        }
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(db)
            throw explained(SQLiteError(code: rc, message: "cannot open \(path): \(message)"), path: path)
        }
        return db
    }

    /// A WAL file read without its `-shm` index needs to create one next to it, which a
    /// read-only directory forbids (CANTOPEN as root on a read-only mount, READONLY for a user
    /// without write permission) and a full disk fails (IOERR, FULL); nobody can write there
    /// either, so the file is then read as immutable (no locks, no index).
    private func readOnlyCheck() throws(SQLiteError) {
        do {
            try execute("PRAGMA schema_version")
        } catch  where [SQLITE_CANTOPEN, SQLITE_READONLY].contains(error.code & 0xFF) || error.isNoSpace {
            let immutable = try Self.open(path, .immutable)
            sqlite3_close_v2(handle)
            handle = immutable
            try execute("PRAGMA schema_version")
        }
    }

    /// A file that cannot be opened or written because its directory is read-only says so.
    private static func explained(_ error: SQLiteError, path: String) -> SQLiteError {
        guard error.code == SQLITE_CANTOPEN || error.code == SQLITE_READONLY else { return error }
        let directory = (path as NSString).deletingLastPathComponent
        guard access(directory.isEmpty ? "." : directory, W_OK) != 0 else { return error }
        return SQLiteError(
            code: error.code,
            message:
                "\(directory) is read-only: \(path) and its -wal and -shm files cannot be written there "
                + "(SQLite: \(String(cString: sqlite3_errstr(error.code)))); "
                + "make it writable or use another data directory")
    }

    static let busyTimeoutMilliseconds: Int32 = 5000

    /// Runs `sql` again while it fails with SQLITE_BUSY, for up to the busy timeout.
    private func executeWhileBusy(_ sql: String) throws(SQLiteError) {
        let pauseMicroseconds: Int32 = 10_000
        var waited: Int32 = 0
        while true {
            do {
                return try execute(sql)
            } catch  where error.code == SQLITE_BUSY && waited < Self.busyTimeoutMilliseconds * 1000 {
                usleep(useconds_t(pauseMicroseconds))
                waited += pauseMicroseconds
            }
        }
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Runs one or more statements without results.
    package func execute(_ sql: String) throws(SQLiteError) {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        guard rc == SQLITE_OK else {
            let message = errorMessage.map { String(cString: $0) } ?? lastError
            sqlite3_free(errorMessage)
            throw SQLiteError(code: rc, message: "\(path): \(message)")
        }
    }

    /// Runs one statement with `?` placeholders bound to `values`, returning its rows.
    @discardableResult
    package func query(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) -> [SQLiteRow] {
        var statement: OpaquePointer?
        var rc = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard rc == SQLITE_OK, let statement else { throw failure(rc) }
        defer { sqlite3_finalize(statement) }
        for (index, value) in values.enumerated() {
            let position = Int32(index + 1)
            switch value {
            case .null: rc = sqlite3_bind_null(statement, position)
            case .integer(let v): rc = sqlite3_bind_int64(statement, position, v)
            case .real(let v): rc = sqlite3_bind_double(statement, position, v)
            case .text(let v): rc = sqlite3_bind_text(statement, position, v, -1, sqliteTransient)
            }
            guard rc == SQLITE_OK else { throw failure(rc) }
        }
        var rows: [SQLiteRow] = []
        while true {
            rc = sqlite3_step(statement)
            if rc == SQLITE_DONE { return rows }
            guard rc == SQLITE_ROW else { throw failure(rc) }
            var row: SQLiteRow = [:]
            for column in 0..<sqlite3_column_count(statement) {
                let name = String(cString: sqlite3_column_name(statement, column))
                switch sqlite3_column_type(statement, column) {
                case SQLITE_INTEGER: row[name] = .integer(sqlite3_column_int64(statement, column))
                case SQLITE_FLOAT: row[name] = .real(sqlite3_column_double(statement, column))
                case SQLITE_TEXT: row[name] = .text(String(cString: sqlite3_column_text(statement, column)))
                default: row[name] = .null
                }
            }
            rows.append(row)
        }
    }

    /// Runs `body` in one write transaction: all of it is committed, or none of it.
    package func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Brings the schema up to date: runs `migrations[n]` for every n from the file's
    /// `user_version` on, in one write transaction. A file from a newer version is refused.
    package func migrate(_ migrations: [String]) throws(SQLiteError) {
        do {
            try transaction { try migrateInTransaction(migrations) }
        } catch let error as SQLiteError {
            throw error
        } catch {
            throw SQLiteError(code: SQLITE_ERROR, message: "\(path): migration failed: \(error)")
        }
    }

    /// `migrate` for a caller that already holds the write lock (`BEGIN IMMEDIATE`). The
    /// version is read under that lock: read before it, another process may migrate in between
    /// and its steps would run twice ("table already exists", "duplicate column name").
    func migrateInTransaction(_ migrations: [String]) throws(SQLiteError) {
        let version = try schemaVersion()
        guard version <= migrations.count else { throw newerSchema(version, migrations) }
        for (index, sql) in migrations.enumerated().dropFirst(version) {
            try execute(sql)
            try execute("PRAGMA user_version = \(index + 1)")
        }
    }

    /// The file's `user_version`: how many migrations it has had.
    func schemaVersion() throws(SQLiteError) -> Int {
        Int(try query("PRAGMA user_version").first?["user_version"]?.int ?? 0)
    }

    func newerSchema(_ version: Int, _ migrations: [String]) -> SQLiteError {
        SQLiteError(
            code: SQLITE_ERROR,
            message:
                "\(path) has schema version \(version), newer than this runtime's \(migrations.count); upgrade paywall")
    }

    private var lastError: String { String(cString: sqlite3_errmsg(handle)) }

    private func failure(_ rc: Int32) -> SQLiteError {
        let code = sqlite3_extended_errcode(handle) & 0xff
        if code == SQLITE_READONLY, let writeRefused {
            return SQLiteError(
                code: SQLITE_FULL,
                message: "\(path) cannot be written: it was opened read-only (\(writeRefused.message)); free some disk space")
        }
        return SQLiteError(code: code, message: "\(path): \(lastError)")
    }
}

/// SQLITE_TRANSIENT: SQLite copies bound text before the Swift string goes away.
private let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

extension SQLiteDatabase {
    /// The value of `key` in a `state (key TEXT PRIMARY KEY, value TEXT NOT NULL)` table.
    package func stateValue(_ key: String) throws(SQLiteError) -> String? {
        try query("SELECT value FROM state WHERE key = ?", [.text(key)]).first?["value"]?.string
    }

    /// Sets `key` in that table; nil removes it.
    package func setStateValue(_ key: String, _ value: String?) throws(SQLiteError) {
        if let value {
            try query("INSERT OR REPLACE INTO state (key, value) VALUES (?, ?)", [.text(key), .text(value)])
        } else {
            try query("DELETE FROM state WHERE key = ?", [.text(key)])
        }
    }
}
