import Foundation
import PaywallCore

/// The runtime a command works with (the fake store, the entitlement cache, the runtime
/// state), configured from `--store CATALOG`, `--data-dir DIR` and `--user ID` through the
/// same `PaywallRuntime` an app configures. Shared by `present`, `store ...` and `status`.
@MainActor
package struct StoreContext {
    package let runtime: PaywallRuntime
    package var dataDirectory: DataDirectory { runtime.dataDirectory }
    package var cache: EntitlementCache { runtime.entitlementCache }
    package var store: FakeStore? { runtime.fakeStore }
    package var purchases: Purchases? { runtime.purchases }
    package var userId: String { runtime.userId }

    /// Configures what the arguments name; `requireStore` makes `--store` mandatory. A command
    /// that only reads (`writes: false`) opens the cache read-only in a read-only data
    /// directory and makes no runtime state. `licenseServices` opens a license-key checkout
    /// (a window command passes the host's opener, the portal's in a sandbox).
    package init(
        _ arguments: ParsedArguments, events: EventDispatcher, requireStore: Bool, command: CommandSpec,
        writes: Bool = true, licenseServices: LicenseServices = LicenseServices()
    ) throws(CLIError) {
        let catalog = arguments.value("--store")
        if catalog == nil, requireStore { throw .usage("--store CATALOG is required", command) }
        // The CLI says on stderr what the runtime reports; the runtime itself stays quiet.
        Self.warnOnCacheWriteFailures(events)
        var configuration = PaywallRuntime.Configuration(
            dataDirectory: arguments.value("--data-dir"), store: catalog.map { .fakeStore(catalog: $0) } ?? .none,
            locale: arguments.value("--locale"), userId: arguments.value("--user"), logLevel: .none)
        configuration.readOnly = !writes
        do {
            runtime = try PaywallRuntime(configuration, events: events, licenseServices: licenseServices)
        } catch {
            throw .failure(
                error.part.map { "\($0): \(CommandAdvice.describe(error.underlying))" }
                    ?? CommandAdvice.describe(error.underlying))
        }
        // A database that was moved aside is worth telling the user about.
        for recovery in runtime.recoveries { Diagnostics.fail("warning: \(recovery)") }
    }

    /// A purchase stands when the cache cannot record it; the user still hears about the cache.
    private static func warnOnCacheWriteFailures(_ events: EventDispatcher) {
        events.observe { event in
            guard event.name == .entitlementCacheWriteFail else { return }
            let purchase = [event.params["product_identifier"], event.params["transaction_id"]]
                .compactMap { $0?.stringValue }.joined(separator: " ")
            let message = event.params["message"]?.stringValue ?? "the entitlement cache could not be written"
            Diagnostics.fail("warning: \(purchase.isEmpty ? "" : "purchase \(purchase) succeeded, but ")\(message)")
        }
    }
}
