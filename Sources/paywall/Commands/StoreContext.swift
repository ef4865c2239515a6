import Foundation
import PaywallCore

/// The fake store and entitlement cache a command works with, from `--store CATALOG`,
/// `--data-dir DIR` and `--user ID`. Shared by `present`, `store ...` and `status`.
@MainActor
struct StoreContext {
    let dataDirectory: DataDirectory
    let cache: EntitlementCache
    let store: FakeStore?
    let purchases: Purchases?
    let userId: String

    /// Opens what the arguments name; `requireStore` makes `--store` mandatory.
    init(_ arguments: ParsedArguments, events: EventDispatcher, requireStore: Bool, command: CommandSpec) throws(CLIError) {
        userId = arguments.value("--user") ?? Purchases.anonymousUser
        do {
            dataDirectory = try DataDirectory(explicit: arguments.value("--data-dir"))
        } catch {
            throw .failure("\(error)")
        }
        do {
            cache = try EntitlementCache(path: dataDirectory.entitlementCache)
        } catch {
            throw .failure("entitlement cache: \(error)")
        }
        Self.report(cache.recovery, events: events)
        guard let catalogPath = arguments.value("--store") else {
            if requireStore { throw .usage("--store CATALOG is required", command) }
            store = nil
            purchases = nil
            return
        }
        let catalog: Catalog
        do { catalog = try CatalogLoader.load(path: catalogPath) } catch { throw .failure(error.description) }
        do {
            let store = try FakeStore(catalog: catalog, databasePath: dataDirectory.fakeStore)
            Self.report(store.recovery, events: events)
            self.store = store
            let purchases = try Purchases(controller: store, catalog: catalog, cache: cache, transactionSource: store,
                                          events: events, userId: userId)
            try purchases.refresh()
            self.purchases = purchases
        } catch {
            throw .failure("fake store: \(error)")
        }
    }

    /// A database that was moved aside is worth telling the user about, on stderr and as an event.
    private static func report(_ recovery: RecoveringDatabase.Recovery?, events: EventDispatcher) {
        guard let recovery else { return }
        PresentationHost.fail("warning: \(recovery.description)")
        events.emit("database_recovered", [
            "path": .string(recovery.path), "moved_to": .string(recovery.movedTo), "reason": .string(recovery.reason),
        ])
    }
}
