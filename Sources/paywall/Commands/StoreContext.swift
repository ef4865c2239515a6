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

    /// Opens what the arguments name; `requireStore` makes `--store` mandatory. A command
    /// that only reads (`writes: false`) opens the cache read-only in a read-only data directory.
    init(_ arguments: ParsedArguments, events: EventDispatcher, requireStore: Bool, command: CommandSpec,
         writes: Bool = true) throws(CLIError) {
        userId = arguments.value("--user") ?? Purchases.anonymousUser
        do {
            dataDirectory = try DataDirectory(explicit: arguments.value("--data-dir"))
        } catch {
            throw .failure(CommandAdvice.describe(error))
        }
        do {
            cache = try EntitlementCache(path: dataDirectory.entitlementCache,
                                         readOnly: !writes && !dataDirectory.isWritable)
        } catch {
            throw .failure("entitlement cache: \(CommandAdvice.describe(error))")
        }
        Self.report(cache.recovery, events: events)
        Self.warnOnCacheWriteFailures(events)
        guard let catalogPath = arguments.value("--store") else {
            if requireStore { throw .usage("--store CATALOG is required", command) }
            store = nil
            purchases = nil
            return
        }
        let catalog: Catalog
        do { catalog = try CatalogLoader.load(path: catalogPath) } catch { throw .failure(error.description) }
        let store: FakeStore
        do {
            store = try FakeStore(catalog: catalog, databasePath: dataDirectory.fakeStore)
        } catch {
            throw .failure("fake store: \(CommandAdvice.describe(error))")
        }
        Self.report(store.recovery, events: events)
        self.store = store
        let purchases: Purchases
        do {
            purchases = try Purchases(controller: store, catalog: catalog, cache: cache, transactionSource: store,
                                      events: events, userId: userId)
        } catch {
            throw .failure("entitlement cache: \(CommandAdvice.describe(error))")
        }
        do {
            // Also what repairs a cache an earlier write failed on.
            try purchases.refresh()
        } catch {
            throw .failure("fake store: \(CommandAdvice.describe(error))")
        }
        self.purchases = purchases
    }

    /// A purchase stands when the cache cannot record it; the user still hears about the cache.
    private static func warnOnCacheWriteFailures(_ events: EventDispatcher) {
        events.observe { event in
            guard event.name == .entitlementCacheWriteFail else { return }
            let purchase = [event.params["product_identifier"], event.params["transaction_id"]]
                .compactMap { $0?.stringValue }.joined(separator: " ")
            let message = event.params["message"]?.stringValue ?? "the entitlement cache could not be written"
            PresentationHost.fail("warning: \(purchase.isEmpty ? "" : "purchase \(purchase) succeeded, but ")\(message)")
        }
    }

    /// A database that was moved aside is worth telling the user about, on stderr and as an event.
    private static func report(_ recovery: RecoveringDatabase.Recovery?, events: EventDispatcher) {
        guard let recovery else { return }
        PresentationHost.fail("warning: \(recovery.description)")
        events.emit(.databaseRecovered, [
            "path": .string(recovery.path), "moved_to": .string(recovery.movedTo), "reason": .string(recovery.reason),
        ])
    }
}
