import Foundation

/// What the runtime remembers about this installation, beside entitlements: when it was
/// installed, how many paywalls were shown, and each user's attributes (set by the app or by
/// a page's `user_attribute_updated`). In `runtime.sqlite` in the data directory.
public final class RuntimeState {
    let database: SQLiteDatabase
    public let recovery: RecoveringDatabase.Recovery?

    /// "PWRS": marks the file as runtime state.
    static let applicationId: Int32 = 0x5057_5253

    static let migrations = [
        """
        CREATE TABLE counters (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
        CREATE TABLE facts (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE user_attributes (
            user_id TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (user_id, key)
        );
        """
    ]

    public init(path: String, now: Date = Date()) throws(SQLiteError) {
        (database, recovery) = try RecoveringDatabase.open(
            path: path, applicationId: Self.applicationId, migrations: Self.migrations)
        try database.query("INSERT OR IGNORE INTO facts (key, value) VALUES ('installed_at', ?)",
                           [.text(String(now.timeIntervalSince1970))])
    }

    /// When the runtime first ran with this data directory.
    public var installedAt: Date {
        let text = (try? database.query("SELECT value FROM facts WHERE key = 'installed_at'").first?["value"]?.string) ?? nil
        return text.flatMap(Double.init).map(Date.init(timeIntervalSince1970:)) ?? Date()
    }

    /// Counts one more paywall view (in total and for `paywallId`) and returns the new total.
    @discardableResult
    public func countPaywallView(_ paywallId: String) throws -> Int {
        try database.transaction {
            for key in ["paywall_views", "paywall_views:\(paywallId)"] {
                try database.query("INSERT INTO counters (key, value) VALUES (?, 1) ON CONFLICT(key) DO UPDATE SET value = value + 1",
                                   [.text(key)])
            }
        }
        return totalPaywallViews
    }

    public var totalPaywallViews: Int {
        Int((try? database.query("SELECT value FROM counters WHERE key = 'paywall_views'").first?["value"]?.int ?? 0) ?? 0)
    }

    /// Stores attributes for `user`; a null value removes the attribute.
    public func setUserAttributes(_ attributes: [String: JSONValue], user: String) throws {
        try database.transaction {
            for (key, value) in attributes {
                if value == .null {
                    try database.query("DELETE FROM user_attributes WHERE user_id = ? AND key = ?", [.text(user), .text(key)])
                } else {
                    try database.query("INSERT OR REPLACE INTO user_attributes (user_id, key, value) VALUES (?, ?, ?)",
                                       [.text(user), .text(key), .text(value.jsonText)])
                }
            }
        }
    }

    public func userAttributes(user: String) throws -> [String: JSONValue] {
        var result: [String: JSONValue] = [:]
        for row in try database.query("SELECT key, value FROM user_attributes WHERE user_id = ?", [.text(user)]) {
            if let key = row["key"]?.string, let text = row["value"]?.string, let value = try? JSONValue(parsing: text) {
                result[key] = value
            }
        }
        return result
    }
}
