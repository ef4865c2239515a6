import Foundation
import PaywallCore

/// `paywall status`: the subscription status as an app sees it at a cold start, read from the
/// entitlement cache alone (no store, no network).
package enum StatusCommand {
    package static let spec = CommandSpec(
        name: "status", summary: "Show the cached subscription status and entitlements (cold start, offline).",
        positionals: [],
        options: [
            Commands.dataDirOption, Commands.userOption,
            OptionSpec(name: "--json", valueName: nil, help: "Print JSON instead of text."),
        ],
        discussion:
            "Reads only the entitlement cache and the license keys kept in the data directory (masked): what the app knows before any store or backend answers. Text: each entitlement with where it stands (subscribed, lifetime, grace period, billing retry, expired, revoked) and each purchase waiting for approval (pending)."
    )

    /// Creates nothing: a data directory or cache that is not there yet (a first run) is an
    /// unknown status, and an explicit `--data-dir` that does not exist is an error (a typo).
    @MainActor
    package static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        let explicit = arguments.value("--data-dir")
        let directory = DataDirectory.locate(explicit: explicit)
        if let explicit, !directory.exists {
            throw .failure("--data-dir \(explicit): \(directory.url.path) does not exist; pass the data directory your app uses")
        }
        let userId = arguments.value("--user") ?? Purchases.anonymousUser
        let status: SubscriptionStatus
        let info: CustomerInfo
        do {
            if FileManager.default.fileExists(atPath: directory.entitlementCache) {
                let context = try StoreContext(
                    arguments, events: EventDispatcher(), requireStore: false, command: spec,
                    writes: false)
                (status, info) = try context.cache.coldStartStatus(user: userId)
            } else {
                (status, info) = (.unknown, CustomerInfo(transactions: [], now: Date()))
            }
        } catch let error as CLIError {
            throw error
        } catch {
            throw .failure("entitlement cache: \(CommandAdvice.describe(error))")
        }
        let licenses: [LicenseStatus]
        do {
            licenses = try LicenseKeyStore.storedLicenses(databasePath: directory.licenses)
        } catch {
            throw .failure("license database: \(CommandAdvice.describe(error))")
        }
        if arguments.has("--json") {
            StoreCommand.printJSON(StoreReport.status(info, status: status, userId: userId, licenses: licenses))
        } else {
            print("subscription status: \(status.name)")
            for e in info.entitlements {
                print("\(e.id)\t\(e.isActive ? "active" : "inactive")\t\(stateName(e))")
            }
            for t in info.pendingPurchases { print("\(t.productId)\tpending\twaiting for approval (\(t.id))") }
            for l in licenses {
                let usage = "\(l.activationUsage) of \(l.activationLimit.map(String.init) ?? "unlimited") activations"
                let expiry = StoreReport.date(l.expiresAt).stringValue.map { "expires \($0)" } ?? "no expiry"
                print(
                    "license \(l.maskedKey)\t\(l.productId)\t\(l.state.rawValue)\(l.reason.map { " (\($0.rawValue))" } ?? "")\t\(usage)\t\(expiry)"
                )
            }
        }
        return 0
    }

    /// Where an entitlement stands, in words (`status --json` has the raw `state`).
    private static func stateName(_ e: Entitlement) -> String {
        switch e.state {
        case .subscribed?: e.isLifetime ? "lifetime" : "subscribed"
        case .inGracePeriod?: "grace period (the renewal failed to bill; access continues)"
        case .inBillingRetryPeriod?: "billing retry (the renewal failed to bill; no access while the store retries)"
        case .expired?: "expired"
        case .revoked?: "revoked (refunded)"
        case nil: "-"
        }
    }
}
