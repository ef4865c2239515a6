/// Keeps every user's cached status in step with the store after a store-wide change.
extension Purchases {
    /// A store action acts on the whole store (a fake store's `reset`, `advance`, a restore that
    /// moves purchases between users) or on a transaction whatever its user (`cancel TXN`), so
    /// refreshing only the current user would leave `paywall status` stale for the others until
    /// something synced them. Re-reads the store for every user it or the cache knows, except
    /// users whose status the app sets itself, then for the current user last (so the current
    /// user's state is what stays loaded). Does nothing when the app owns the status.
    package func refreshEveryUser(purchased product: Product? = nil) throws {
        guard let store = transactionSource else { return }
        let current = userId
        let appOwned = Set(try cache.userIds(source: .app))
        var users = Set(try cache.userIds(source: .store)).union(try store.accountUserIds())
        users.subtract(appOwned)
        users.remove(current)
        defer { try? identify(current) }
        for user in users.sorted() {
            try identify(user)
            try refresh()
        }
        try identify(current)
        try refresh(purchased: product)
    }
}
