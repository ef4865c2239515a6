import Foundation

/// What a tester does to the fake store's transactions (`paywall store approve|decline|refund|
/// cancel|expire|billing-issue|billing-recover|reset`). Each is one database transaction.
extension FakeStore {
    /// Completes a purchase that waited for approval, as if bought now: its offer, plan change
    /// and period all start at approval (it keeps its transaction id).
    package func approve(_ id: String) throws {
        try change(id) { record, now in
            guard record.approval == "pending" else { throw FakeStoreError.notPending(id) }
            guard let product = catalog.product(id: record.transaction.productId) else {
                throw FakeStoreError.unknownTransaction(id)
            }
            try db.database.query("DELETE FROM transactions WHERE id = ?", [.text(id)])
            // The purchase is completed for the user who made it.
            let buyer = userId
            switchUser(record.userId)
            defer { switchUser(buyer) }
            if try !owns(product, at: now) { try complete(product, at: now, id: id) }
            return nil
        }
    }

    package func decline(_ id: String) throws {
        try change(id) { record, _ in
            guard record.approval == "pending" else { throw FakeStoreError.notPending(id) }
            var declined = record
            declined.approval = "declined"
            return declined
        }
    }

    /// Refunds a purchase: its access ends now (for a subscription, the chain's current period).
    package func refund(_ id: String) throws {
        try change(id, latestOfChain: true) { record, now in
            var refunded = record
            refunded.transaction.revocationDate = now
            refunded.transaction.willRenew = false
            return refunded
        }
    }

    /// Turns auto-renew off: the subscription stays active until its period ends.
    package func cancel(_ id: String) throws {
        try change(id, latestOfChain: true) { record, _ in
            guard record.transaction.kind == .autoRenewable else { throw FakeStoreError.notASubscription(id) }
            var cancelled = record
            cancelled.transaction.willRenew = false
            cancelled.renewalProductId = nil
            return cancelled
        }
    }

    /// Ends a subscription's current period now, without renewal.
    package func expire(_ id: String) throws {
        try change(id, latestOfChain: true) { record, now in
            guard record.transaction.isSubscription else { throw FakeStoreError.notASubscription(id) }
            var expired = record
            expired.transaction.expirationDate = now
            expired.transaction.willRenew = false
            expired.transaction.billingIssueDate = nil
            expired.transaction.gracePeriodEnd = nil
            expired.transaction.billingRetryEnd = nil
            return expired
        }
    }

    /// Makes the subscription's next renewal fail to bill: billing retry (after a grace period
    /// when the catalog has one) starts when the current period ends.
    package func billingIssue(_ id: String) throws {
        try change(id, latestOfChain: true) { record, _ in
            guard record.transaction.kind == .autoRenewable else { throw FakeStoreError.notASubscription(id) }
            var failing = record
            failing.billingFailing = true
            return failing
        }
    }

    /// Fixes billing: a subscription in grace or billing retry renews now.
    package func billingRecover(_ id: String) throws {
        try change(id, latestOfChain: true) { record, now in
            guard record.billingFailing || record.transaction.billingIssueDate != nil else {
                throw FakeStoreError.notInBillingTrouble(id)
            }
            var fixed = record
            fixed.billingFailing = false
            if fixed.transaction.billingIssueDate != nil {
                fixed.transaction.billingIssueDate = nil
                fixed.transaction.gracePeriodEnd = nil
                fixed.transaction.billingRetryEnd = nil
                fixed.transaction.expirationDate = now  // the next settle renews from now
            }
            return fixed
        }
    }

    /// Forgets every transaction, the clock offset and the next outcome. Transaction ids keep counting.
    package func reset() throws {
        try db.database.transaction {
            try db.database.query("DELETE FROM transactions")
            try db.database.query("DELETE FROM state WHERE key != 'last_id'")
        }
    }

    /// Runs `body` on the record `id` (or the latest record of its chain) inside one database
    /// transaction and saves what it returns; renewals up to now are applied first and after.
    private func change(
        _ id: String, latestOfChain: Bool = false,
        _ body: (FakeStoreDatabase.Record, Date) throws -> FakeStoreDatabase.Record?
    ) throws {
        try db.database.transaction {
            let now = try now()
            try settle(at: now)
            guard var record = try db.records(where: "id = ?", [.text(id)]).first else {
                throw FakeStoreError.unknownTransaction(id)
            }
            if latestOfChain,
                let latest = try db.records(
                    where: "original_id = ? AND approval = 'approved'",
                    [.text(record.transaction.originalId)]
                ).last
            {
                record = latest
            }
            if let changed = try body(record, now) { try db.save(changed) }
            try settle(at: now)
        }
    }
}
