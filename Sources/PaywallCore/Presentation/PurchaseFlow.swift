import Foundation

/// What a paywall's `purchase` and `restore` messages do: run them through the purchase
/// controller with a progress overlay, report every step as events (to the app and the page),
/// tell the user what went wrong, and close the paywall on success.
@MainActor
final class PurchaseFlow {
    unowned let session: PaywallSession
    let purchases: Purchases
    let strings: StringTable
    /// A purchase or restore is running; further taps start nothing.
    private(set) var inFlight = false

    init(session: PaywallSession, purchases: Purchases, strings: StringTable) {
        self.session = session
        self.purchases = purchases
        self.strings = strings
    }

    func purchase(productId: String, shouldDismiss: Bool) {
        guard !inFlight else { return }
        guard let product = purchases.catalog.product(id: productId) else {
            let known = purchases.catalog.products.map(\.id).joined(separator: ", ")
            session.report(.transactionFail, [
                "product_identifier": .string(productId),
                "message": .string("unknown product id \"\(productId)\"; the catalog has: \(known)"),
            ])
            alert("purchase.unavailable")
            return
        }
        if purchases.alreadyOwns(product) {
            // Nothing is charged twice: owning it already counts as a restore.
            session.report(.transactionRestore, ["product_identifier": .string(productId)])
            session.succeeded(.restored, dismiss: shouldDismiss)
            return
        }
        let trialExpected = product.introductoryOffer?.mode == .freeTrial && purchases.isEligibleForIntroOffer(product)
        begin()
        session.report(.transactionStart, ["product_identifier": .string(productId)])
        Task { @MainActor in
            let result = await purchases.controller.purchase(product)
            defer { end() }
            switch result {
            case .purchased:
                // The store charged: this is a success whatever the refresh meets. A cache it
                // cannot write is reported by `refresh` itself; a store it cannot read leaves
                // the status as it was until the next refresh.
                try? purchases.refresh(purchased: product)
                completed(product, trialExpected: trialExpected, shouldDismiss: shouldDismiss)
            case .cancelled:
                session.report(.transactionAbandon, ["product_identifier": .string(productId)])
            case .pending:
                session.report(.transactionPending, ["product_identifier": .string(productId)])
                alert("purchase.pending")
            case .failed(let error):
                session.report(.transactionFail, [
                    "product_identifier": .string(productId), "message": .string("\(error)"),
                ])
                alert("purchase.failed", ["reason": StoreErrorText.reason(for: error, strings: strings)])
            }
        }
    }

    func restore() {
        guard !inFlight else { return }
        begin()
        session.report(.restoreStart)
        Task { @MainActor in
            let outcome = await purchases.restore()
            // After the outcome is reported: a close asked for meanwhile must not win over a restore.
            defer { end() }
            session.report(outcome.event.name, outcome.event.params)
            if let failure = outcome.failureDialog(strings: strings) {
                alert(failure.key, failure.arguments)
            } else {
                session.finish(.restored)
            }
        }
    }

    private func completed(_ product: Product, trialExpected: Bool, shouldDismiss: Bool) {
        let transaction = purchases.latestTransaction(of: product)
        var params: [String: JSONValue] = ["product_identifier": .string(product.id)]
        if let transaction { params["transaction_id"] = .string(transaction.id) }
        session.report(.transactionComplete, params)
        let startedTrial = purchases.transactionSource == nil ? trialExpected : transaction?.offerType == .trial
        switch product.kind {
        case .autoRenewable:
            session.report(startedTrial ? .freeTrialStart : .subscriptionStart, params)
        case .nonRenewing, .consumable, .nonConsumable:
            session.report(.nonRecurringProductPurchase, params)
        }
        session.succeeded(.purchased(productId: product.id), dismiss: shouldDismiss)
    }

    private func begin() {
        inFlight = true
        session.page?.showProgress(true)
    }

    private func end() {
        inFlight = false
        session.page?.showProgress(false)
        session.purchaseFlowEnded()
    }

    private func alert(_ key: String, _ arguments: [String: String] = [:]) {
        session.showDialog(title: strings.text("\(key).title", arguments), message: strings.text("\(key).message", arguments))
    }
}
