import Foundation

/// The fake store's persistent state: its transactions (with the store-only columns for
/// approval, plan changes and billing failures), its clock offset and the next outcome.
/// Every change is one SQLite transaction, so a killed process never leaves half a purchase.
final class FakeStoreDatabase {
    let database: SQLiteDatabase
    let recovery: RecoveringDatabase.Recovery?

    /// "PWFS": marks the file as a fake-store database.
    static let applicationId: Int32 = 0x5057_4653

    static let migrations = [
        """
        CREATE TABLE transactions (
            \(TransactionRow.columns),
            approval TEXT NOT NULL DEFAULT 'approved',
            renewal_product_id TEXT,
            billing_failing INTEGER NOT NULL DEFAULT 0,
            intro_periods_left INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (id)
        );
        CREATE INDEX transactions_original ON transactions (original_id);
        CREATE TABLE state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        """,
        // Each app user buys for themselves, so users' entitlements stay apart.
        "ALTER TABLE transactions ADD COLUMN user_id TEXT NOT NULL DEFAULT '$anonymous';",
    ]

    init(path: String) throws(SQLiteError) {
        (database, recovery) = try RecoveringDatabase.open(
            path: path, applicationId: Self.applicationId, migrations: Self.migrations)
    }

    /// A transaction row with the store-only columns.
    struct Record: Equatable {
        var transaction: StoreTransaction
        var approval = "approved"
        var renewalProductId: String?
        var billingFailing = false
        var introPeriodsLeft = 0
        var userId = "$anonymous"
    }

    func records(where condition: String = "1", _ values: [SQLiteValue] = []) throws -> [Record] {
        try database.query("SELECT * FROM transactions WHERE \(condition) ORDER BY purchase_date, id", values)
            .compactMap { row in
                guard let t = TransactionRow.transaction(row) else { return nil }
                return Record(
                    transaction: t, approval: row["approval"]?.string ?? "approved",
                    renewalProductId: row["renewal_product_id"]?.string, billingFailing: row["billing_failing"]?.bool ?? false,
                    introPeriodsLeft: Int(row["intro_periods_left"]?.int ?? 0), userId: row["user_id"]?.string ?? "$anonymous")
            }
    }

    func save(_ record: Record) throws {
        try database.query(
            TransactionRow.upsert(
                into: "transactions",
                extraColumns: ["approval", "renewal_product_id", "billing_failing", "intro_periods_left", "user_id"]),
            [
                .text(record.approval), .optional(record.renewalProductId), .bool(record.billingFailing),
                .integer(Int64(record.introPeriodsLeft)), .text(record.userId),
            ] + TransactionRow.values(record.transaction))
    }

    func value(_ key: String) throws -> String? {
        try database.stateValue(key)
    }

    func setValue(_ key: String, _ value: String?) throws {
        try database.setStateValue(key, value)
    }

    /// A new transaction id; ids only ever go up, so none is reused, even after `reset`.
    func nextTransactionId() throws -> String {
        let next = (Int(try value("last_id") ?? "0") ?? 0) + 1
        try setValue("last_id", String(next))
        return String(format: "fake_%06d", next)
    }
}
