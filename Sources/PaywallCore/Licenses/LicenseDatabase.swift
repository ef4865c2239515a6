import Foundation

/// The license keys activated on this machine and the refresh schedule, in the data
/// directory's `licenses.sqlite`. The file and its journal hold keys, so they are created
/// readable by the owner only (0600; SQLite gives its `-wal` and `-shm` files the database's mode).
final class LicenseDatabase {
    let database: SQLiteDatabase
    let recovery: RecoveringDatabase.Recovery?

    /// "PWLK": marks the file as a license database.
    static let applicationId: Int32 = 0x5057_4C4B

    static let migrations = [
        """
        CREATE TABLE licenses (
            key_id TEXT PRIMARY KEY,
            license_key TEXT NOT NULL,
            status TEXT NOT NULL,
            activation_limit INTEGER,
            activation_usage INTEGER NOT NULL,
            created_at REAL,
            expires_at REAL,
            instance_id TEXT NOT NULL,
            instance_name TEXT NOT NULL,
            instance_created_at REAL,
            meta TEXT NOT NULL,
            product_id TEXT NOT NULL,
            activated_at REAL NOT NULL,
            validated_at REAL NOT NULL,
            not_found INTEGER NOT NULL DEFAULT 0
        );
        CREATE TABLE state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        """,
        // Whether the last answer said the key is valid here, for its product and store.
        "ALTER TABLE licenses ADD COLUMN valid INTEGER NOT NULL DEFAULT 1;",
        // Whether the provider answered about the license; rows kept before this were all answered.
        "ALTER TABLE licenses ADD COLUMN answered INTEGER NOT NULL DEFAULT 0; UPDATE licenses SET answered = 1;",
        // The merchant whose provider validates and deactivates the license; rows before were Lemon Squeezy's.
        "ALTER TABLE licenses ADD COLUMN store TEXT NOT NULL DEFAULT 'lemon_squeezy';",
    ]

    init(path: String, readOnly: Bool = false) throws(SQLiteError) {
        if !readOnly { try Self.createPrivately(path) }
        (database, recovery) = try RecoveringDatabase.open(
            path: path, applicationId: Self.applicationId,
            migrations: Self.migrations, readOnly: readOnly)
        // A database moved aside and made again is created by SQLite itself, with the umask's mode.
        if !readOnly, recovery != nil { chmod(path, 0o600) }
    }

    /// Creates the file 0600 before SQLite opens it (SQLite would use the umask), and takes
    /// an existing file and its journal down to 0600.
    private static func createPrivately(_ path: String) throws(SQLiteError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw SQLiteError(
                code: 14,
                message: "cannot create \(path): \(FileError.reason(errno: errno)); "
                    + "make the data directory writable or use another one")
        }
        close(descriptor)
        for file in [path, path + "-wal", path + "-shm"] { chmod(file, 0o600) }
    }

    func records() throws -> [LicenseRecord] {
        try database.query("SELECT * FROM licenses ORDER BY activated_at, key_id").compactMap(Self.record)
    }

    private static func record(_ row: SQLiteRow) -> LicenseRecord? {
        guard let keyId = row["key_id"]?.string, let key = row["license_key"]?.string,
            let status = row["status"]?.string.flatMap(LicenseKeyStatus.init(rawValue:)),
            let instanceId = row["instance_id"]?.string, let productId = row["product_id"]?.string,
            let activatedAt = row["activated_at"]?.date, let validatedAt = row["validated_at"]?.date,
            let store = row["store"]?.string.flatMap(LicenseSettings.Provider.init(rawValue:))
        else { return nil }
        let meta = (row["meta"]?.string).flatMap { try? JSONValue(parsing: $0) }.map(LicenseMeta.init(stored:)) ?? LicenseMeta()
        return LicenseRecord(
            key: LicenseKeyDetails(
                id: keyId, status: status, key: key, activationLimit: row["activation_limit"]?.int.map { Int($0) },
                activationUsage: Int(row["activation_usage"]?.int ?? 0), createdAt: row["created_at"]?.date,
                expiresAt: row["expires_at"]?.date),
            instance: LicenseInstance(
                id: instanceId, name: row["instance_name"]?.string ?? "",
                createdAt: row["instance_created_at"]?.date),
            meta: meta, productId: productId, activatedAt: activatedAt, validatedAt: validatedAt,
            notFound: row["not_found"]?.bool ?? false, valid: row["valid"]?.bool ?? false,
            answered: row["answered"]?.bool ?? false, store: store)
    }

    func save(_ r: LicenseRecord) throws {
        try database.query(
            """
            INSERT OR REPLACE INTO licenses (key_id, license_key, status, activation_limit, activation_usage, created_at,
                expires_at, instance_id, instance_name, instance_created_at, meta, product_id, activated_at, validated_at, not_found,
                valid, answered, store)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(r.key.id), .text(r.key.key), .text(r.key.status.rawValue),
                r.key.activationLimit.map { .integer(Int64($0)) } ?? .null,
                .integer(Int64(r.key.activationUsage)), .date(r.key.createdAt), .date(r.key.expiresAt), .text(r.instance.id),
                .text(r.instance.name), .date(r.instance.createdAt), .text(r.meta.stored.jsonText), .text(r.productId),
                .date(r.activatedAt), .date(r.validatedAt), .bool(r.notFound), .bool(r.valid), .bool(r.answered),
                .text(r.store.rawValue),
            ])
    }

    func remove(keyId: String) throws {
        try database.query("DELETE FROM licenses WHERE key_id = ?", [.text(keyId)])
    }

    func value(_ key: String) throws -> String? {
        try database.stateValue(key)
    }

    func setValue(_ key: String, _ value: String?) throws {
        try database.setStateValue(key, value)
    }
}

extension LicenseMeta {
    /// The fields as the database keeps them (snake_case, as the provider names them).
    var stored: JSONValue {
        let pairs: [(String, String?)] = [
            ("store_id", storeId), ("order_id", orderId), ("product_id", productId), ("product_name", productName),
            ("variant_id", variantId), ("variant_name", variantName), ("customer_id", customerId),
            ("customer_name", customerName), ("customer_email", customerEmail),
        ]
        var fields = Dictionary(uniqueKeysWithValues: pairs.map { ($0.0, $0.1.map(JSONValue.string) ?? .null) })
        if let entitlements { fields["entitlements"] = .array(entitlements.map(JSONValue.string)) }
        return .object(fields)
    }

    init(stored value: JSONValue) {
        let text = { (key: String) in value[key]?.stringValue }
        self.init(
            storeId: text("store_id"), orderId: text("order_id"), productId: text("product_id"),
            productName: text("product_name"), variantId: text("variant_id"), variantName: text("variant_name"),
            customerId: text("customer_id"), customerName: text("customer_name"), customerEmail: text("customer_email"),
            entitlements: value["entitlements"]?.arrayValue?.compactMap(\.stringValue))
    }
}
