/// Keeps every user's cached status in step with the fake store after a tester's action.
extension Purchases {
    /// A store action acts on the whole store (`reset`, `advance`) or on a transaction whatever
    /// its user (`cancel TXN`), so refreshing only the current user would leave `paywall status`
    /// stale for the others until something synced them. Re-reads the store for every user it
    /// or the cache knows, except users whose status the app sets itself, then for the current
    /// user last (so the current user's state is what stays loaded).
    package func refreshEveryUser(of store: FakeStore, purchased product: Product? = nil) throws {
        let current = userId
        let appOwned = Set(try cache.userIds(source: .app))
        var users = Set(try cache.userIds(source: .store)).union(try store.allRecords().map(\.userId))
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
