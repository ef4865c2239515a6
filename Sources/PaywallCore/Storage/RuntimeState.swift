import Foundation

/// What the runtime remembers about this installation, beside entitlements: when it was
/// installed, how many paywalls were shown, each user's attributes (set by the app or by
/// a page's `user_attribute_updated`) and paywall survey assignments. In `runtime.sqlite` in the data directory.
package final class RuntimeState {
    let database: SQLiteDatabase
    package let recovery: RecoveringDatabase.Recovery?

    /// "PWRS": marks the file as runtime state.
    static let applicationId: Int32 = 0x5057_5253

    static let migrations = [
        """
        CREATE TABLE counters (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
        CREATE TABLE facts (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE user_attributes (
            user_id TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (user_id, key)
        );
        """,
        // Who has been assigned which paywall survey (asked or held out): `SurveyRules`.
        "CREATE TABLE survey_assignments (user_id TEXT NOT NULL, assignment_key TEXT NOT NULL, PRIMARY KEY (user_id, assignment_key));",
    ]

    package init(path: String, now: Date = Date()) throws(SQLiteError) {
        (database, recovery) = try RecoveringDatabase.open(
            path: path, applicationId: Self.applicationId, migrations: Self.migrations)
        // Read-only on a full disk: the date is written at the next start with room.
        guard database.writeRefused == nil else { return }
        try database.query(
            "INSERT OR IGNORE INTO facts (key, value) VALUES ('installed_at', ?)",
            [.text(String(now.timeIntervalSince1970))])
    }

    /// When the runtime first ran with this data directory.
    package var installedAt: Date {
        let text = (try? database.query("SELECT value FROM facts WHERE key = 'installed_at'").first?["value"]?.string) ?? nil
        return text.flatMap(Double.init).map(Date.init(timeIntervalSince1970:)) ?? Date()
    }

    /// Counts one more paywall view (in total and for `paywallId`) and returns the new total.
    @discardableResult
    package func countPaywallView(_ paywallId: String) throws -> Int {
        try database.transaction {
            for key in ["paywall_views", "paywall_views:\(paywallId)"] {
                try database.query(
                    "INSERT INTO counters (key, value) VALUES (?, 1) ON CONFLICT(key) DO UPDATE SET value = value + 1",
                    [.text(key)])
            }
            try database.query(
                "INSERT OR REPLACE INTO facts (key, value) VALUES ('last_paywall_view_at', ?)",
                [.text(String(Date().timeIntervalSince1970))])
        }
        return totalPaywallViews
    }

    /// When a paywall was last shown; nil: never.
    package var lastPaywallViewAt: Date? {
        let text =
            (try? database.query("SELECT value FROM facts WHERE key = 'last_paywall_view_at'").first?["value"]?.string) ?? nil
        return text.flatMap(Double.init).map(Date.init(timeIntervalSince1970:))
    }

    package var totalPaywallViews: Int {
        Int((try? database.query("SELECT value FROM counters WHERE key = 'paywall_views'").first?["value"]?.int ?? 0) ?? 0)
    }

    /// The most one attribute's key and JSON value may take together, in UTF-8 bytes.
    package static let maxAttributeBytes = 64 * 1024
    /// The most one user's attributes may take together, in UTF-8 bytes.
    package static let maxUserAttributeBytes = 1024 * 1024

    /// An update that would store more than the limits allow; nothing of it was stored.
    package enum AttributeLimitError: Error, CustomStringConvertible {
        case attributeTooLarge(key: String, bytes: Int)
        case userTooLarge(bytes: Int)

        package var description: String {
            switch self {
            case .attributeTooLarge(let key, let bytes):
                "user attribute \"\(key.prefix(64))\" takes \(bytes) bytes; one attribute may take at most \(RuntimeState.maxAttributeBytes)"
            case .userTooLarge(let bytes):
                "the user's attributes would take \(bytes) bytes; one user's may take at most \(RuntimeState.maxUserAttributeBytes)"
            }
        }
    }

    /// Stores attributes for `user`; a null value removes the attribute. An update past the
    /// size limits throws `AttributeLimitError` and stores nothing (pages could otherwise grow
    /// the database without end, and every later presentation reads it).
    package func setUserAttributes(_ attributes: [String: JSONValue], user: String) throws {
        var encoded: [(key: String, json: String?)] = []
        for (key, value) in attributes {
            let json = value == .null ? nil : value.jsonText
            let bytes = key.utf8.count + (json?.utf8.count ?? 0)
            if bytes > Self.maxAttributeBytes { throw AttributeLimitError.attributeTooLarge(key: key, bytes: bytes) }
            encoded.append((key, json))
        }
        try database.transaction {
            for (key, json) in encoded {
                if let json {
                    try database.query(
                        "INSERT OR REPLACE INTO user_attributes (user_id, key, value) VALUES (?, ?, ?)",
                        [.text(user), .text(key), .text(json)])
                } else {
                    try database.query("DELETE FROM user_attributes WHERE user_id = ? AND key = ?", [.text(user), .text(key)])
                }
            }
            // Checked inside the transaction, so an update over the limit rolls back whole.
            let total =
                try database.query(
                    "SELECT COALESCE(SUM(length(CAST(key AS BLOB)) + length(CAST(value AS BLOB))), 0) AS bytes FROM user_attributes WHERE user_id = ?",
                    [.text(user)]
                ).first?["bytes"]?.int ?? 0
            if total > Self.maxUserAttributeBytes { throw AttributeLimitError.userTooLarge(bytes: Int(total)) }
        }
    }

    /// Forgets every attribute of `user` (a reset: what was set before sign-out is not shown to whoever comes next).
    package func removeUserAttributes(user: String) throws {
        try database.query("DELETE FROM user_attributes WHERE user_id = ?", [.text(user)])
    }

    package func userAttributes(user: String) throws -> [String: JSONValue] {
        var result: [String: JSONValue] = [:]
        for row in try database.query("SELECT key, value FROM user_attributes WHERE user_id = ?", [.text(user)]) {
            if let key = row["key"]?.string, let text = row["value"]?.string, let value = try? JSONValue(parsing: text) {
                result[key] = value
            }
        }
        return result
    }
}
