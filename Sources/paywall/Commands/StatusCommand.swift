import Foundation
import PaywallCore

/// `paywall status`: the subscription status as an app sees it at a cold start, read from the
/// entitlement cache alone (no store, no network).
enum StatusCommand {
    static let spec = CommandSpec(
        name: "status", summary: "Show the cached subscription status and entitlements (cold start, offline).",
        positionals: [],
        options: [Commands.dataDirOption, Commands.userOption,
                  OptionSpec(name: "--json", valueName: nil, help: "Print JSON instead of text.")],
        discussion: "Reads only the entitlement cache: what the app knows before any store or backend answers.")

    @MainActor
    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        let context = try StoreContext(arguments, events: EventDispatcher(), requireStore: false, command: spec,
                                   writes: false)
        let status: SubscriptionStatus
        let info: CustomerInfo
        do {
            (status, info) = try context.cache.coldStartStatus(user: context.userId)
        } catch {
            throw .failure("entitlement cache: \(error)")
        }
        if arguments.has("--json") {
            StoreCommand.printJSON(StoreReport.entitlements(info, status: status, userId: context.userId))
        } else {
            print("subscription status: \(status.name)")
            for e in info.entitlements where e.isActive { print("\(e.id)\tactive\t\(e.state?.rawValue ?? "-")") }
        }
        return 0
    }
}
