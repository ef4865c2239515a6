import Foundation

/// The one purchase path and the one restore path: a paywall's purchase, a customer center's
/// plan change and an app's own call all run here, so each checks ownership the same way and
/// reports the same `transaction_*` and `restore_*` events. Callers turn the result into UI.
extension Purchases {
    /// Where the path's events go: each event's name and parameters. A paywall adds its
    /// identifier and tells its page; by default they go to `events`.
    package typealias EventReport = @MainActor (_ name: EventName, _ params: [String: JSONValue]) -> Void

    /// What a purchase came to; its events have been reported.
    package enum PurchaseAttempt: Sendable {
        /// The store charged (or granted) it and the status was read again.
        case purchased
        /// The user already had it: nothing was charged, which counts as a restore.
        case alreadyOwned
        /// The user backed out.
        case cancelled
        /// Waiting for someone else's approval; it may complete later.
        case pending
        case failed(any Error)
        /// The catalog has no such product; nothing was asked of the store.
        case unknownProduct
    }

    /// Buys the catalog's product `productId` (see `purchase(_:changingPlan:report:beforeStoreCall:)`);
    /// an id the catalog does not have is reported as `transaction_fail`, naming the ids it has.
    package func purchase(
        productId: String, report: EventReport? = nil,
        beforeStoreCall: @MainActor () -> Void = {}
    ) async -> PurchaseAttempt {
        guard let product = catalog.product(id: productId) else {
            let known = catalog.products.map(\.id).joined(separator: ", ")
            reporter(report)(
                .transactionFail,
                [
                    "product_identifier": .string(productId),
                    "message": .string("unknown product id \"\(productId)\"; the catalog has: \(known)"),
                ])
            return .unknownProduct
        }
        return await purchase(product, report: report, beforeStoreCall: beforeStoreCall)
    }

    /// Buys `product`: checks the user does not have it already (then nothing is charged and
    /// `transaction_restore` is reported), asks the controller, reads the status again, and
    /// reports every step (`transaction_start`, then `transaction_complete` with
    /// `freeTrial_start`, `subscription_start` or `nonRecurringProduct_purchase`, or
    /// `transaction_abandon`, `transaction_pending`, `transaction_fail`).
    ///
    /// A charge is never reported as failed: when the entitlement cache cannot record it,
    /// `refresh` reports `entitlementCache_writeFail` and the purchase is still `.purchased`.
    /// - Parameters:
    ///   - product: the product to buy, from the catalog.
    ///   - changingPlan: a move to another plan of a subscription's group (the customer
    ///     center's plan change). The user holds the group's entitlements already, so only
    ///     holding this very plan counts as owning it.
    ///   - beforeStoreCall: runs once the checks pass, just before the store is asked (for a
    ///     progress indicator); not at all when nothing is asked of the store.
    ///   - report: where the events go (a paywall adds its identifier and tells its page);
    ///     nil: to `events`.
    package func purchase(
        _ product: Product, changingPlan: Bool = false, report: EventReport? = nil,
        beforeStoreCall: @MainActor () -> Void = {}
    ) async -> PurchaseAttempt {
        let report = reporter(report)
        let subject: [String: JSONValue] = ["product_identifier": .string(product.id)]
        if changingPlan ? holds(product) : alreadyOwns(product) {
            report(.transactionRestore, subject)
            return .alreadyOwned
        }
        let trialExpected = product.introductoryOffer?.mode == .freeTrial && isEligibleForIntroOffer(product)
        beforeStoreCall()
        report(.transactionStart, subject)
        switch await controller.purchase(product) {
        case .purchased:
            do {
                try refresh(purchased: product)
            } catch {
                // The store charged: a store that cannot be read now leaves the status as it
                // was until the next refresh. (A cache write failure `refresh` reports itself.)
            }
            completed(product, trialExpected: trialExpected, report: report)
            return .purchased
        case .alreadyOwned:
            try? refresh()
            report(.transactionRestore, subject)
            return .alreadyOwned
        case .cancelled:
            report(.transactionAbandon, subject)
            return .cancelled
        case .pending:
            report(.transactionPending, subject)
            return .pending
        case .failed(let error):
            report(.transactionFail, subject.merging(["message": .string("\(error)")]) { $1 })
            return .failed(error)
        }
    }

    /// Reports a completed purchase: `transaction_complete`, then what it started.
    private func completed(_ product: Product, trialExpected: Bool, report: EventReport) {
        let transaction = latestTransaction(of: product)
        var params: [String: JSONValue] = ["product_identifier": .string(product.id)]
        if let transaction { params["transaction_id"] = .string(transaction.id) }
        report(.transactionComplete, params)
        // A store the runtime reads says whether a trial started; an app's controller does not.
        let startedTrial = transactionSource == nil ? trialExpected : transaction?.offerType == .trial
        switch product.kind {
        case .autoRenewable:
            report(startedTrial ? .freeTrialStart : .subscriptionStart, params)
        case .nonRenewing, .consumable, .nonConsumable:
            report(.nonRecurringProductPurchase, params)
        }
    }

    /// Whether the user holds `product` itself, as last read from the store.
    private func holds(_ product: Product) -> Bool {
        let now = (try? transactionSource?.now()) ?? Date()
        return OwnershipRules.holds(product, transactions: customerInfo.transactions, now: now)
    }

    private func reporter(_ report: EventReport?) -> EventReport {
        report ?? { [events] in events.emit($0, $1) }
    }

    /// What a restore found.
    package enum RestoreOutcome: Equatable, Sendable {
        case restored
        /// The store answered, but the user has no active purchase.
        case nothingToRestore
        /// `reason` is for the event log; `cause` says it in the user's language.
        case failed(reason: String, cause: StoreErrorText.Cause)

        /// The event reporting it (`restore_complete` or `restore_fail` with its `message`).
        package var event: (name: EventName, params: [String: JSONValue]) {
            switch self {
            case .restored: (.restoreComplete, [:])
            case .nothingToRestore: (.restoreFail, ["message": "no active purchases to restore"])
            case .failed(let reason, _): (.restoreFail, ["message": .string(reason)])
            }
        }

        /// The string-table key (`KEY.title`, `KEY.message`) and arguments of the dialog that
        /// tells the user a restore found nothing or failed, in `strings`' language; nil when it restored.
        package func failureDialog(strings: StringTable) -> (key: String, arguments: [String: String])? {
            switch self {
            case .restored: nil
            case .nothingToRestore: ("restore.nothing", [:])
            case .failed(_, let cause): ("restore.failed", ["reason": StoreErrorText.reason(for: cause, strings: strings)])
            }
        }
    }

    /// Asks the controller to restore, then reads the store again; reports `restore_start`,
    /// then `restore_complete` or `restore_fail`.
    package func restore(report: EventReport? = nil) async -> RestoreOutcome {
        let report = reporter(report)
        report(.restoreStart, [:])
        let outcome = await restoredPurchases()
        report(outcome.event.name, outcome.event.params)
        return outcome
    }

    private func restoredPurchases() async -> RestoreOutcome {
        switch await controller.restorePurchases() {
        case .restored:
            do {
                // A restore that moves the account's purchases between app users changes every
                // user's status, not only this one's.
                if transactionSource?.restoreTransfersPurchases == true { try refreshEveryUser() } else { try refresh() }
            } catch {
                return .failed(reason: "\(error)", cause: StoreErrorText.Cause(error))
            }
            return subscriptionStatus.activeEntitlements.isEmpty ? .nothingToRestore : .restored
        case .failed(let error):
            return .failed(reason: error.map { "\($0)" } ?? "the store did not say why", cause: StoreErrorText.Cause(error))
        }
    }
}
