import Foundation
import PaywallCore

/// `paywall store <action>`: look at and steer the fake store, as a tester does.
package enum StoreCommand {
    private static let common = [Commands.storeOption, Commands.dataDirOption]
    private static let json = OptionSpec(name: "--json", valueName: nil, help: "Print JSON instead of text.")

    private static func spec(
        _ action: String, _ summary: String, _ positionals: [String] = [],
        _ extra: [OptionSpec] = [], discussion: String = ""
    ) -> CommandSpec {
        CommandSpec(
            name: "store \(action)", summary: summary, positionals: positionals, options: common + extra,
            discussion: discussion)
    }

    package static let actions: [CommandSpec] = [
        spec("products", "List the catalog's products.", [], [json]),
        spec("transactions", "List every transaction of every user, pending ones included.", [], [json]),
        spec("entitlements", "Show the subscription status and entitlements.", [], [json, Commands.userOption]),
        spec("buy", "Buy a product without a paywall, as the next outcome says.", ["PRODUCT_ID"], [Commands.userOption]),
        spec(
            "seed", "Put the user in a purchase state through the real lifecycle; prints the entitlements as JSON.",
            ["PRODUCT_ID", "STATE"], [Commands.userOption],
            discussion: """
                STATE: \(SeedState.allCases.map(\.rawValue).joined(separator: ", ")). The steps are the ones `buy`, \
                `cancel`, `refund`, `billing-issue` and `advance` take, on a clock of the user's own; the user's \
                purchases are then back-dated, so the store's clock never moves and every seeded user keeps their \
                state. The user must have no \
                purchase of the product (or its subscription group) yet. A state the product or catalog cannot reach \
                is a usage error (exit 2) that says why and which states would work.
                """),
        spec(
            "set-outcome", "Set what the next purchase does: success, cancelled, pending or failed:<reason>.",
            ["OUTCOME"], [OptionSpec(name: "--delay", valueName: "SECONDS", help: "Wait this long before answering.")]),
        spec("approve", "Approve a pending (Ask to Buy) purchase.", ["TXN"]),
        spec("decline", "Decline a pending purchase.", ["TXN"]),
        spec("refund", "Refund a purchase; its access ends now.", ["TXN"]),
        spec("cancel", "Turn auto-renew off; access lasts until the period ends.", ["TXN"]),
        spec("expire", "End a subscription's current period now.", ["TXN"]),
        spec("billing-issue", "Make the next renewal fail to bill (grace period, then billing retry).", ["TXN"]),
        spec("billing-recover", "Fix billing: a subscription in grace or billing retry renews now.", ["TXN"]),
        spec("advance", "Move the store's clock on (36h, 7d, 2w, 1M, 1y) and apply renewals.", ["DURATION"]),
        spec("reset", "Forget every transaction, the clock offset and the next outcome."),
    ]

    package static let spec = Subcommands.parent(
        "store", summary: "Inspect and steer the fake store (products, outcomes, clock, refunds, ...).", actions: actions)

    @MainActor
    package static func run(_ arguments: [String]) throws(CLIError) -> Int32 {
        let (command, parsed) = try Subcommands.parse(arguments, parent: spec, actions: actions)
        guard let command, let parsed else { return 0 }
        let context = try StoreContext(parsed, events: EventDispatcher(), requireStore: true, command: command)
        guard let purchases = context.purchases else { return 1 }
        let action = String(command.name.dropFirst("store ".count))
        guard let store = context.store else {
            // A license-key catalog: its products and entitlements can be read; the rest steers the fake store.
            guard ["products", "entitlements"].contains(action) else {
                throw .failure(
                    "\(parsed.value("--store") ?? "the catalog") sells through license keys (a license \"store\"): "
                        + "`paywall store \(action)` steers the fake store only; redeem a key with `paywall redeem`, "
                        + "or read `paywall store entitlements` and `paywall status`")
            }
            return try Subcommands.runAsync {
                try await perform(action, parsed, store: nil, purchases: purchases, command: command)
                return 0
            }
        }
        return try Subcommands.runAsync {
            let bought = try await perform(action, parsed, store: store, purchases: purchases, command: command)
            // Keeps every user's entitlement cache in step with the store, so `paywall status`
            // is right at once. A cache it cannot write is a warning (see `StoreContext`), never
            // a failed purchase: the store charged.
            try purchases.refreshEveryUser(purchased: bought)
            if action == "seed" { printJSON(entitlementsReport(purchases)) }
            return 0
        }
    }

    /// Runs `action`; returns the product it bought, if any. `store` is nil for a license-key
    /// catalog, whose store only `products` and `entitlements` read.
    @MainActor
    @discardableResult
    private static func perform(
        _ action: String, _ arguments: ParsedArguments, store fakeStore: FakeStore?, purchases: Purchases,
        command: CommandSpec
    ) async throws -> Product? {
        let argument = arguments.positionals.first ?? ""
        if action == "products" || action == "entitlements" { return read(action, arguments, purchases: purchases) }
        guard let store = fakeStore else { return nil }
        switch action {
        case "transactions":
            let now = try store.now()
            let records = try store.allRecords()
            if arguments.has("--json") {
                printJSON(
                    .array(
                        records.map {
                            StoreReport.transaction($0.transaction, approval: $0.approval, userId: $0.userId, now: now)
                        }))
                return nil
            }
            for (t, approval, user) in records {
                let state =
                    approval != "approved"
                    ? "-"
                    : t.isSubscription
                        ? CustomerInfo.state(of: t, now: now).rawValue
                        : (t.isRevoked ? "revoked" : "owned")
                print(
                    "\(t.id)\t\(t.productId)\t\(user)\t\(approval)\t\(state)\texpires \(StoreReport.date(t.expirationDate).stringValue ?? "never")"
                )
            }
        case "seed":
            guard let product = store.catalog.product(id: argument) else { throw unknownProduct(argument) }
            let name = arguments.positionals.last ?? ""
            guard let state = SeedState(rawValue: name) else {
                let states = SeedState.allCases.map(\.rawValue).joined(separator: ", ")
                throw CLIError.usage("STATE must be one of \(states); got '\(name)'", command)
            }
            do {
                try store.seed(product, state)
            } catch let error as SeedUnreachable {
                throw CLIError.usage(CommandAdvice.describe(error), command)
            }
        case "set-outcome":
            guard let outcome = PurchaseOutcome(parsing: argument) else {
                throw CLIError.usage("OUTCOME must be success, cancelled, pending or failed:<reason>; got '\(argument)'", command)
            }
            var delay = 0.0
            if let text = arguments.value("--delay") {
                guard let seconds = Double(text), seconds >= 0, seconds.isFinite else {
                    throw CLIError.usage("--delay must be a number of seconds; got '\(text)'", command)
                }
                delay = seconds
            }
            try store.setNextOutcome(outcome, delay: delay)
            print("next purchase: \(outcome)\(delay > 0 ? " after \(delay) s" : "")")
        case "advance":
            guard let amount = ClockAdvance(parsing: argument) else {
                throw CLIError.usage(
                    "DURATION must be a number and a unit (s, m, h, d, w, M, y), e.g. 36h or 1M; got '\(argument)'", command)
            }
            try store.advance(amount)
            print("store clock: \(StoreReport.date(try store.now()).stringValue ?? "")")
        case "buy":
            guard let product = store.catalog.product(id: argument) else { throw unknownProduct(argument) }
            let before = Set(try store.allRecords().map(\.transaction.id))
            let result = await store.purchase(product)
            let new = try store.allRecords().map(\.transaction.id).filter { !before.contains($0) }
            switch result {
            case .purchased:
                print("purchased \(argument): \(new.joined(separator: ", "))")
                return product
            case .alreadyOwned:
                print("purchased \(argument) (already owned, nothing charged)")
                return product
            case .pending: print("pending \(argument): \(new.joined(separator: ", ")) waits for approval")
            case .cancelled: print("cancelled \(argument)")
            case .failed(let error): throw CLIError.failure("\(error)")
            }
        case "reset":
            try store.reset()
            print("fake store reset")
        default:
            let actions: [String: (String) throws -> Void] = [
                "approve": store.approve, "decline": store.decline, "refund": store.refund, "cancel": store.cancel,
                "expire": store.expire, "billing-issue": store.billingIssue, "billing-recover": store.billingRecover,
            ]
            try actions[action]?(argument)
            print("\(action): \(argument)")
        }
        return nil
    }

    /// The actions that only read the catalog and the purchases, whichever store sells.
    @MainActor
    private static func read(_ action: String, _ arguments: ParsedArguments, purchases: Purchases) -> Product? {
        switch action {
        case "products":
            let products = purchases.catalog.products
            if arguments.has("--json") {
                printJSON(.array(products.map(StoreReport.product)))
                return nil
            }
            for p in products {
                print(
                    "\(p.id)\t\(p.kind.rawValue)\t\(p.priceText) \(p.currencyCode)\t\(p.period?.iso8601 ?? "-")\t\(p.displayName)"
                )
            }
        case "entitlements":
            let info = purchases.customerInfo
            if arguments.has("--json") {
                printJSON(entitlementsReport(purchases))
                return nil
            }
            print("subscription status: \(purchases.subscriptionStatus.name)")
            for e in info.entitlements {
                print(
                    "\(e.id)\t\(e.isActive ? "active" : "inactive")\t\(e.state?.rawValue ?? "-")\texpires \(StoreReport.date(e.expiresAt).stringValue ?? "never")"
                )
            }
        default: break
        }
        return nil
    }

    private static func unknownProduct(_ id: String) -> CLIError {
        .failure("unknown product id '\(id)'; see `paywall store products`")
    }

    /// What `entitlements --json` and `seed` print.
    @MainActor
    private static func entitlementsReport(_ purchases: Purchases) -> JSONValue {
        StoreReport.entitlements(purchases.customerInfo, status: purchases.subscriptionStatus, userId: purchases.userId)
    }

    package static func printJSON(_ value: JSONValue) {
        print(value.jsonText)
    }
}
