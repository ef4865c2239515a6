import Foundation

/// Which variant each user is in, kept in `experiments.sqlite` in the data directory: the
/// first confirmed assignment per (user, experiment) stays even when percentages change later;
/// the install's own anonymous assignment key; and the occurrence caps' counts.
///
/// The anonymous user's id (`$anonymous`) is the same on every machine, so it cannot be
/// bucketed: each install gets a random key instead, kept here, and that key's assignments
/// carry over to the first user the app identifies (the user keeps the variant they saw).
package final class AssignmentStore {
    private let database: SQLiteDatabase
    package let recovery: RecoveringDatabase.Recovery?

    /// "PWEX": marks the file as experiment state.
    static let applicationId: Int32 = 0x5057_4558

    static let migrations = [
        """
        CREATE TABLE facts (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE assignments (
            user_key TEXT NOT NULL, experiment_id TEXT NOT NULL, variant_id TEXT NOT NULL,
            forced INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (user_key, experiment_id)
        );
        CREATE TABLE occurrences (key TEXT NOT NULL, at REAL NOT NULL);
        CREATE INDEX occurrences_by_key ON occurrences (key, at);
        """
    ]

    package init(path: String) throws(SQLiteError) {
        (database, recovery) = try RecoveringDatabase.open(
            path: path, applicationId: Self.applicationId, migrations: Self.migrations)
        try database.query(
            "INSERT OR IGNORE INTO facts (key, value) VALUES ('install_key', ?)",
            [.text("install:" + UUID().uuidString.lowercased())])
    }

    /// This install's anonymous assignment key (random, made on first use).
    package var installKey: String {
        ((try? database.query("SELECT value FROM facts WHERE key = 'install_key'").first?["value"]?.string) ?? nil) ?? ""
    }

    /// The key `userId` is bucketed by: the install's key for the anonymous user, else the id.
    package func assignmentKey(user userId: String) -> String {
        userId == Purchases.anonymousUser ? installKey : userId
    }

    /// The anonymous install's assignments become `userId`'s on the first identify (never again,
    /// so a second user on this machine starts from their own buckets).
    package func carryOverOnFirstIdentify(to userId: String) throws {
        guard userId != Purchases.anonymousUser else { return }
        try database.transaction {
            let done = try database.query("SELECT value FROM facts WHERE key = 'first_identify'").first != nil
            guard !done else { return }
            try database.query("INSERT INTO facts (key, value) VALUES ('first_identify', ?)", [.text(userId)])
            try database.query(
                """
                INSERT OR IGNORE INTO assignments (user_key, experiment_id, variant_id, forced)
                SELECT ?, experiment_id, variant_id, forced FROM assignments WHERE user_key = ?
                """, [.text(userId), .text(installKey)])
        }
    }

    /// The kept assignment of `userKey` in `experiment`, if any.
    package func assignment(userKey: String, experiment: String) -> (variant: String, forced: Bool)? {
        guard
            let row = try? database.query(
                "SELECT variant_id, forced FROM assignments WHERE user_key = ? AND experiment_id = ?",
                [.text(userKey), .text(experiment)]
            ).first, let variant = row["variant_id"]?.string
        else { return nil }
        return (variant, row["forced"]?.int == 1)
    }

    /// Every kept assignment of `userKey`: experiment -> variant.
    package func assignments(userKey: String) -> [String: String] {
        let rows =
            (try? database.query("SELECT experiment_id, variant_id FROM assignments WHERE user_key = ?", [.text(userKey)])) ?? []
        var result: [String: String] = [:]
        for row in rows {
            if let experiment = row["experiment_id"]?.string, let variant = row["variant_id"]?.string {
                result[experiment] = variant
            }
        }
        return result
    }

    /// Keeps `variant` unless an assignment is kept already (the first confirmed one wins).
    package func confirm(userKey: String, experiment: String, variant: String) throws {
        try database.query(
            "INSERT OR IGNORE INTO assignments (user_key, experiment_id, variant_id) VALUES (?, ?, ?)",
            [.text(userKey), .text(experiment), .text(variant)])
    }

    /// Replaces the kept assignment: a tester's forced one, or a reassignment off a removed variant.
    package func set(userKey: String, experiment: String, variant: String, forced: Bool) throws {
        try database.query(
            "INSERT OR REPLACE INTO assignments (user_key, experiment_id, variant_id, forced) VALUES (?, ?, ?, ?)",
            [.text(userKey), .text(experiment), .text(variant), .bool(forced)])
    }

    /// Forgets `userKey`'s assignment in `experiment` (every experiment when nil); returns how many.
    @discardableResult
    package func clear(userKey: String, experiment: String?) throws -> Int {
        let count: Int
        if let experiment {
            count = Int(
                try database.query(
                    "SELECT COUNT(*) AS n FROM assignments WHERE user_key = ? AND experiment_id = ?",
                    [.text(userKey), .text(experiment)]
                ).first?["n"]?.int ?? 0)
            try database.query(
                "DELETE FROM assignments WHERE user_key = ? AND experiment_id = ?", [.text(userKey), .text(experiment)])
        } else {
            count = Int(
                try database.query("SELECT COUNT(*) AS n FROM assignments WHERE user_key = ?", [.text(userKey)]).first?["n"]?
                    .int ?? 0)
            try database.query("DELETE FROM assignments WHERE user_key = ?", [.text(userKey)])
        }
        return count
    }

    /// How often `key` was counted since `since` (ever, when nil).
    package func occurrences(key: String, since: Date?) -> Int {
        let rows = try? database.query(
            "SELECT COUNT(*) AS n FROM occurrences WHERE key = ? AND at > ?",
            [.text(key), .real(since?.timeIntervalSince1970 ?? -Double.greatestFiniteMagnitude)])
        return Int(rows?.first?["n"]?.int ?? 0)
    }

    /// Counts one presentation for `key` at `now`.
    package func countOccurrence(key: String, at now: Date) throws {
        try database.query("INSERT INTO occurrences (key, at) VALUES (?, ?)", [.text(key), .real(now.timeIntervalSince1970)])
    }
}

/// Deterministic assignment: the same user lands in the same variant on every machine and in
/// every process, with no server.
package enum Bucketing {
    /// The first 8 bytes, big-endian, of SHA-256(`experimentId:userKey`), mod 10,000.
    package static func bucket(experimentId: String, userKey: String) -> Int {
        var hash = SHA256()
        hash.update(Data((experimentId + ":" + userKey).utf8))
        let digest = hash.finalize()
        let value = digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Int(value % 10_000)
    }

    /// `user.seed` (0-99, as Superwall's): the bucket of the experiment id `seed`, mod 100.
    package static func seed(userKey: String) -> Int {
        bucket(experimentId: "seed", userKey: userKey) % 100
    }

    /// The variant whose slice of the cumulative percentages (x 100) holds `bucket`.
    package static func variant(for bucket: Int, in variants: [Campaign.Variant]) -> Campaign.Variant? {
        var upper = 0
        for variant in variants {
            upper += variant.basisPoints
            if bucket < upper { return variant }
        }
        return nil
    }
}
