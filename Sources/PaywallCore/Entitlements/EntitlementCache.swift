import Foundation

/// The local record of each user's purchases and last known subscription status, in SQLite
/// (WAL, versioned schema). It makes the status right on a cold start with no network: a
/// status derived from a store is recomputed from the cached transactions and the clock; a
/// status the app set is used as the app last set it.
package final class EntitlementCache {
    let database: SQLiteDatabase
    /// Set when the file was unusable and a new, empty cache was started (fill it by restoring).
    package let recovery: RecoveringDatabase.Recovery?

    /// Why the cache was opened read-only though writes were wanted (a full disk): every write
    /// then fails until it is opened again with room.
    package var writeRefused: SQLiteError? { database.writeRefused }

    /// "PWEC": marks the file as an entitlement cache.
    static let applicationId: Int32 = 0x5057_4543

    static let migrations = [
        """
        CREATE TABLE transactions (
            user_id TEXT NOT NULL,
            \(TransactionRow.columns),
            PRIMARY KEY (user_id, id)
        );
        CREATE TABLE status (
            user_id TEXT PRIMARY KEY,
            status TEXT NOT NULL,
            entitlements TEXT NOT NULL,
            source TEXT NOT NULL,
            clock_offset REAL NOT NULL DEFAULT 0,
            updated_at REAL NOT NULL
        );
        """,
        // Purchases waiting for approval, which `paywall status` and the customer center name.
        """
        CREATE TABLE pending (
            user_id TEXT NOT NULL,
            \(TransactionRow.columns),
            PRIMARY KEY (user_id, id)
        );
        """,
    ]

    /// Who decided a cached status.
    package enum Source: String, Sendable {
        /// Derived by the runtime from a store's transactions.
        case store
        /// Set by the app from its own backend.
        case app
    }

    /// A status as it was cached.
    package struct CachedStatus: Equatable, Sendable {
        package var status: SubscriptionStatus
        package var source: Source
        /// The source's clock minus the real clock (non-zero for the fake store's moved clock).
        package var clockOffset: TimeInterval
        package var updatedAt: Date
    }

    /// `readOnly`: only read (see `RecoveringDatabase.open`), for a data directory that
    /// cannot be written; every write then fails.
    package init(path: String, readOnly: Bool = false) throws(SQLiteError) {
        (database, recovery) = try RecoveringDatabase.open(
            path: path, applicationId: Self.applicationId, migrations: Self.migrations, readOnly: readOnly)
    }

    package func transactions(user: String) throws -> [StoreTransaction] {
        try database.query("SELECT * FROM transactions WHERE user_id = ? ORDER BY purchase_date, id", [.text(user)])
            .compactMap(TransactionRow.transaction)
    }

    /// The user's purchases waiting for approval, as the store last reported them.
    public func pendingTransactions(user: String) throws -> [StoreTransaction] {
        try database.query("SELECT * FROM pending WHERE user_id = ? ORDER BY purchase_date, id", [.text(user)])
            .compactMap(TransactionRow.transaction)
    }

    /// Replaces the user's transactions (and purchases waiting for approval) with what the
    /// store reported and caches the status they give at the store's `now`, in one
    /// transaction. Returns the new customer info.
    @discardableResult
    package func storeSynced(
        user: String, transactions: [StoreTransaction], pending: [StoreTransaction] = [], now: Date
    ) throws -> CustomerInfo {
        var info = CustomerInfo(transactions: transactions, now: now)
        info.pendingPurchases = pending
        try database.transaction {
            for (table, rows) in [("transactions", transactions), ("pending", pending)] {
                try database.query("DELETE FROM \(table) WHERE user_id = ?", [.text(user)])
                for t in rows {
                    try database.query(
                        TransactionRow.upsert(into: table, extraColumns: ["user_id"]), [.text(user)] + TransactionRow.values(t))
                }
            }
            try write(user: user, status: info.subscriptionStatus, source: .store, clockOffset: now.timeIntervalSinceNow)
        }
        return info
    }

    /// Caches a status the app set from its backend.
    package func appSetStatus(user: String, _ status: SubscriptionStatus) throws {
        try write(user: user, status: status, source: .app, clockOffset: 0)
    }

    /// The users whose cached status `source` decided.
    package func userIds(source: Source) throws -> [String] {
        try database.query("SELECT user_id FROM status WHERE source = ? ORDER BY user_id", [.text(source.rawValue)])
            .compactMap { $0["user_id"]?.string }
    }

    package func cachedStatus(user: String) throws -> CachedStatus? {
        guard let row = try database.query("SELECT * FROM status WHERE user_id = ?", [.text(user)]).first,
            let source = row["source"]?.string.flatMap(Source.init(rawValue:))
        else { return nil }
        let ids = row["entitlements"]?.string.flatMap { try? JSONDecoder().decode([String].self, from: Data($0.utf8)) } ?? []
        let status: SubscriptionStatus =
            switch row["status"]?.string {
            case "active": .active(Set(ids))
            case "inactive": .inactive
            default: .unknown
            }
        return CachedStatus(
            status: status, source: source, clockOffset: row["clock_offset"]?.double ?? 0,
            updatedAt: row["updated_at"]?.date ?? .distantPast)
    }

    /// The user's status at a cold start: recomputed from cached transactions when a store
    /// decided it (so an expiry since then counts), the app's last word otherwise, else unknown.
    package func coldStartStatus(user: String, realNow: Date = Date()) throws -> (SubscriptionStatus, CustomerInfo) {
        guard let cached = try cachedStatus(user: user) else {
            return (.unknown, CustomerInfo(transactions: [], now: realNow))
        }
        let now = realNow.addingTimeInterval(cached.clockOffset)
        var info = CustomerInfo(transactions: try transactions(user: user), now: now)
        info.pendingPurchases = try pendingTransactions(user: user)
        return (cached.source == .store ? info.subscriptionStatus : cached.status, info)
    }

    private func write(user: String, status: SubscriptionStatus, source: Source, clockOffset: TimeInterval) throws {
        let ids = String(decoding: try JSONEncoder().encode(status.activeEntitlements.sorted()), as: UTF8.self)
        try database.query(
            "INSERT OR REPLACE INTO status (user_id, status, entitlements, source, clock_offset, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
            [.text(user), .text(status.name), .text(ids), .text(source.rawValue), .real(clockOffset), .date(Date())])
    }
}
