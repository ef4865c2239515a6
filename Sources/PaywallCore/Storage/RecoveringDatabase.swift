import Foundation

/// Opens a database file that belongs to one kind of owner (marked by `PRAGMA application_id`),
/// and never crashes on a bad file: a corrupt file, garbage, or another program's database is
/// moved aside (`NAME.corrupt-<timestamp>`) and a fresh one is created in its place.
public enum RecoveringDatabase {
    /// What happened to a file that could not be used.
    public struct Recovery: Equatable, Sendable, CustomStringConvertible {
        public let path: String
        public let movedTo: String
        public let reason: String
        public var description: String {
            "\(path) was unusable (\(reason)); moved it to \(movedTo) and started a new one"
        }
    }

    /// - Parameters:
    ///   - applicationId: this kind of file's mark; a file with another mark is foreign.
    ///   - migrations: the schema, see `SQLiteDatabase.migrate`.
    /// - Returns: the database and, when the old file was moved aside, what happened.
    public static func open(path: String, applicationId: Int32, migrations: [String])
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
                throw SQLiteError(code: 1, message: "\(path) is unusable (\(problem.reason)) and cannot be moved aside: \(error.localizedDescription)")
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
            // Nothing to write: a file already marked and migrated is not locked at all.
            if try mark(of: database) == applicationId, try database.schemaVersion() == migrations.count {
                return database
            }
            // One process at a time marks and migrates: the mark, table count and version are
            // read under the write lock, so a file another process is setting up is neither
            // migrated twice nor taken for a foreign one (its mark written, its tables not yet).
            try database.transaction {
                let mark = try mark(of: database)
                if mark != applicationId {
                    let tables = try database.query("SELECT count(*) AS n FROM sqlite_master").first?["n"]?.int ?? 0
                    guard mark == 0, tables == 0 else { throw Unusable(reason: "it is not this runtime's file") }
                    try database.execute("PRAGMA application_id = \(applicationId)")
                }
                try database.migrateInTransaction(migrations)
            }
        } catch let error as SQLiteError where error.isCorruption {
            throw Unusable(reason: "not a database or damaged: \(error.message)")
        }
        return database
    }

    private static func mark(of database: SQLiteDatabase) throws(SQLiteError) -> Int32 {
        Int32(truncatingIfNeeded: try database.query("PRAGMA application_id").first?["application_id"]?.int ?? 0)
    }
}
