import Foundation

/// How a `StoreTransaction` is stored: the columns shared by the fake store's database and the
/// entitlement cache, so both write and read transactions the same way.
enum TransactionRow {
    /// Column definitions, for `CREATE TABLE`.
    static let columns = """
        id TEXT NOT NULL,
        original_id TEXT NOT NULL,
        product_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        store TEXT NOT NULL,
        purchase_date REAL NOT NULL,
        expiration_date REAL,
        will_renew INTEGER NOT NULL DEFAULT 0,
        revocation_date REAL,
        offer_type TEXT,
        subscription_group_id TEXT,
        entitlement_ids TEXT NOT NULL DEFAULT '[]',
        billing_issue_date REAL,
        grace_period_end REAL,
        billing_retry_end REAL,
        is_family_shared INTEGER NOT NULL DEFAULT 0,
        price TEXT NOT NULL DEFAULT '0',
        currency_code TEXT NOT NULL DEFAULT 'USD'
        """

    static let names = [
        "id", "original_id", "product_id", "kind", "store", "purchase_date", "expiration_date", "will_renew",
        "revocation_date", "offer_type", "subscription_group_id", "entitlement_ids", "billing_issue_date",
        "grace_period_end", "billing_retry_end", "is_family_shared", "price", "currency_code",
    ]

    static func values(_ t: StoreTransaction) -> [SQLiteValue] {
        let entitlements = String(decoding: (try? JSONEncoder().encode(t.entitlementIds)) ?? Data("[]".utf8), as: UTF8.self)
        return [
            .text(t.id), .text(t.originalId), .text(t.productId), .text(t.kind.rawValue), .text(t.store.rawValue),
            .date(t.purchaseDate), .date(t.expirationDate), .bool(t.willRenew), .date(t.revocationDate),
            .optional(t.offerType?.rawValue), .optional(t.subscriptionGroupId), .text(entitlements),
            .date(t.billingIssueDate), .date(t.gracePeriodEnd), .date(t.billingRetryEnd), .bool(t.isFamilyShared),
            .text("\(t.price)"), .text(t.currencyCode),
        ]
    }

    /// Reads a row back; nil when a required column holds something this version cannot read.
    static func transaction(_ row: SQLiteRow) -> StoreTransaction? {
        guard let id = row["id"]?.string, let productId = row["product_id"]?.string,
            let kind = row["kind"]?.string.flatMap(Product.Kind.init(rawValue:)),
            let store = row["store"]?.string.flatMap(StoreKind.init(rawValue:)),
            let purchaseDate = row["purchase_date"]?.date
        else { return nil }
        let entitlements =
            row["entitlement_ids"]?.string
            .flatMap { try? JSONDecoder().decode([String].self, from: Data($0.utf8)) } ?? []
        return StoreTransaction(
            id: id, originalId: row["original_id"]?.string, productId: productId, kind: kind, store: store,
            purchaseDate: purchaseDate, expirationDate: row["expiration_date"]?.date,
            willRenew: row["will_renew"]?.bool ?? false, revocationDate: row["revocation_date"]?.date,
            offerType: row["offer_type"]?.string.flatMap(OfferType.init(rawValue:)),
            subscriptionGroupId: row["subscription_group_id"]?.string, entitlementIds: entitlements,
            billingIssueDate: row["billing_issue_date"]?.date, gracePeriodEnd: row["grace_period_end"]?.date,
            billingRetryEnd: row["billing_retry_end"]?.date, isFamilyShared: row["is_family_shared"]?.bool ?? false,
            price: row["price"]?.string.flatMap { Decimal(string: $0, locale: Locale(identifier: "en_US_POSIX")) } ?? 0,
            currencyCode: row["currency_code"]?.string ?? "USD")
    }

    /// `INSERT OR REPLACE INTO table (...) VALUES (...)` for all columns plus `extra` leading columns.
    static func upsert(into table: String, extraColumns: [String] = []) -> String {
        let all = extraColumns + names
        return
            "INSERT OR REPLACE INTO \(table) (\(all.joined(separator: ", "))) VALUES (\(all.map { _ in "?" }.joined(separator: ", ")))"
    }
}
