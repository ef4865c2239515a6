import CSQLite
import Foundation
import Synchronization

/// Opens a database file that belongs to one kind of owner (marked by `PRAGMA application_id`),
/// and never crashes on a bad file: a corrupt file, garbage, or another program's database is
/// moved aside (`NAME.corrupt-<timestamp>`) and a fresh one is created in its place.
package enum RecoveringDatabase {
    /// What happened to a file that could not be used.
    package struct Recovery: Equatable, Sendable, CustomStringConvertible {
        package let path: String
        package let movedTo: String
        package let reason: String
        package var description: String {
            "\(path) was unusable (\(reason)); moved it to \(movedTo) and started a new one"
        }
    }

    /// - Parameters:
    ///   - applicationId: this kind of file's mark; a file with another mark is foreign.
    ///   - migrations: the schema, see `SQLiteDatabase.migrate`.
    ///   - readOnly: only read (a read-only data directory): nothing is created, migrated or
    ///     moved. A missing file reads as an empty database; one that would need any of that
    ///     is an error saying so. A file that cannot be opened for writing for want of room
    ///     (a full disk) is opened this way too, with `writeRefused` saying why.
    /// - Returns: the database and, when the old file was moved aside, what happened.
    package static func open(path: String, applicationId: Int32, migrations: [String], readOnly: Bool = false)
        throws(SQLiteError) -> (SQLiteDatabase, Recovery?)
    {
        if readOnly { return (try openReadOnly(path: path, applicationId: applicationId, migrations: migrations), nil) }
        do {
            return try openWritable(path: path, applicationId: applicationId, migrations: migrations)
        } catch  where error.isNoSpace {
            // Reading needs no room: a full disk must not lock a paying user out. The database
            // says why it is read-only, for the caller to report; every write then fails.
            guard let database = try? openReadOnly(path: path, applicationId: applicationId, migrations: migrations) else {
                throw error
            }
            database.writeRefused = error
            return (database, nil)
        }
    }

    private static func openWritable(path: String, applicationId: Int32, migrations: [String])
        throws(SQLiteError) -> (SQLiteDatabase, Recovery?)
    {
        do {
            return (try openChecked(path: path, applicationId: applicationId, migrations: migrations), nil)
        } catch let problem as Unusable {
            let aside = "\(path).corrupt-\(Int(Date().timeIntervalSince1970))"
            let fm = FileManager.default
            do {
                try fm.moveItem(atPath: path, toPath: aside)
            } catch {
                throw SQLiteError(
                    code: 1,
                    message: "\(path) is unusable (\(problem.reason)) and cannot be moved aside: \(error.localizedDescription)")
            }
            // The journal files belong to the old file; a new database must not replay them.
            for suffix in ["-wal", "-shm"] where fm.fileExists(atPath: path + suffix) {
                try? fm.moveItem(atPath: path + suffix, toPath: aside + suffix)
            }
            do {
                let database = try openChecked(path: path, applicationId: applicationId, migrations: migrations)
                return (database, Recovery(path: path, movedTo: aside, reason: problem.reason))
            } catch {
                throw SQLiteError(code: 1, message: "\(path): cannot create a new database: \(error)")
            }
        } catch let error as SQLiteError {
            throw error
        } catch {
            throw SQLiteError(code: 1, message: "\(path): \(error)")
        }
    }

    private struct Unusable: Error {
        let reason: String
    }

    private static func openChecked(path: String, applicationId: Int32, migrations: [String]) throws -> SQLiteDatabase {
        let database: SQLiteDatabase
        do {
            database = try SQLiteDatabase(path: path)
            let check = try database.query("PRAGMA quick_check").first?.values.first?.string ?? "ok"
            guard check == "ok" else { throw Unusable(reason: "integrity check failed: \(check)") }
            // Nothing to write: a file already marked and migrated takes no write lock.
            if try mark(of: database) != applicationId || database.schemaVersion() != migrations.count {
                // One process at a time marks and migrates: the mark, table count and version
                // are read under the write lock, so a file another process is setting up is
                // neither migrated twice nor taken for a foreign one (marked, no tables yet).
                try database.transaction {
                    let mark = try mark(of: database)
                    if mark != applicationId {
                        let tables = try database.query("SELECT count(*) AS n FROM sqlite_master").first?["n"]?.int ?? 0
                        guard mark == 0, tables == 0 else { throw Unusable(reason: "it is not this runtime's file") }
                        try database.execute("PRAGMA application_id = \(applicationId)")
                    }
                    try database.migrateInTransaction(migrations)
                }
            }
            if let missing = try missingSchema(database, migrations) { throw Unusable(reason: missing) }
        } catch let error as SQLiteError where error.isCorruption {
            throw Unusable(reason: "not a database or damaged: \(error.message)")
        }
        return database
    }

    private static func openReadOnly(path: String, applicationId: Int32, migrations: [String])
        throws(SQLiteError) -> SQLiteDatabase
    {
        guard FileManager.default.fileExists(atPath: path) else {
            let empty = try SQLiteDatabase(path: ":memory:")
            try empty.migrate(migrations)
            return empty
        }
        let database = try SQLiteDatabase(path: path, readOnly: true)
        let needsWriting: String?
        do throws(SQLiteError) {
            let check = try database.query("PRAGMA quick_check").first?.values.first?.string ?? "ok"
            let version = try database.schemaVersion()
            if version > migrations.count { throw database.newerSchema(version, migrations) }
            needsWriting =
                if check != "ok" {
                    "it is damaged (\(check)) and would be moved aside"
                } else if try mark(of: database) != applicationId {
                    "it is not marked as this runtime's file"
                } else if version < migrations.count {
                    "its schema (version \(version)) needs upgrading to version \(migrations.count)"
                } else {
                    try missingSchema(database, migrations).map { "\($0), so it would be rebuilt" }
                }
        } catch  where error.isCorruption {
            needsWriting = "it is not a database or damaged (\(error.message)) and would be moved aside"
        }
        if let needsWriting {
            throw SQLiteError(
                code: SQLITE_READONLY,
                message:
                    "\(path) is opened read-only, but \(needsWriting); open it once with write access to its directory")
        }
        return database
    }

    private static func mark(of database: SQLiteDatabase) throws(SQLiteError) -> Int32 {
        Int32(truncatingIfNeeded: try database.query("PRAGMA application_id").first?["application_id"]?.int ?? 0)
    }

    /// What the file lacks of the schema its migrations make (a table, or a column of one),
    /// e.g. after a table was dropped by hand; nil when it has it all. The schema to expect is
    /// built once a process by running the migrations on an empty in-memory database (doing
    /// that at every open cost about a fifth of a millisecond of an app's cached-status read).
    private static func missingSchema(_ database: SQLiteDatabase, _ migrations: [String]) throws(SQLiteError) -> String? {
        let present = try columns(database)
        for (table, wanted) in try expectedColumns(migrations).sorted(by: { $0.key < $1.key }) {
            guard let have = present[table] else { return "incomplete schema: table \(table) is missing" }
            if let column = wanted.subtracting(have).sorted().first {
                return "incomplete schema: table \(table) has no column \(column)"
            }
        }
        return nil
    }

    /// The columns each list of migrations makes, worked out once a process.
    private static let expected = Mutex<[[String]: [String: Set<String>]]>([:])

    private static func expectedColumns(_ migrations: [String]) throws(SQLiteError) -> [String: Set<String>] {
        if let known = expected.withLock({ $0[migrations] }) { return known }
        let empty = try SQLiteDatabase(path: ":memory:")
        try empty.migrate(migrations)
        let made = try columns(empty)
        expected.withLock { $0[migrations] = made }
        return made
    }

    /// Each table's column names, in one query.
    private static func columns(_ database: SQLiteDatabase) throws(SQLiteError) -> [String: Set<String>] {
        var result: [String: Set<String>] = [:]
        let rows = try database.query(
            """
            SELECT m.name AS t, p.name AS c FROM sqlite_master AS m, pragma_table_info(m.name) AS p
            WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'
            """)
        for row in rows {
            guard let table = row["t"]?.string, let column = row["c"]?.string else { continue }
            result[table, default: []].insert(column)
        }
        return result
    }
}
