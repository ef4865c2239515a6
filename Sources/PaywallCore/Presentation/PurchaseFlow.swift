import Foundation

/// What a paywall's `purchase` and `restore` messages look like to the user: a progress
/// overlay while the store works, a dialog when something went wrong, and the presentation's
/// result on success. The purchase itself (ownership, the store call, the events) is
/// `Purchases.purchase`; its events reach the page too.
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
        // Runs at once up to the store call: an unknown or owned product is answered before
        // the page's next message, and `begin` marks the flow in flight before any other tap.
        Task.immediate { @MainActor in
            let attempt = await purchases.purchase(productId: productId, report: report, beforeStoreCall: begin)
            switch attempt {
            case .unknownProduct: alert("purchase.unavailable")
            case .alreadyOwned: session.succeeded(.restored, dismiss: shouldDismiss)
            case .purchased: session.succeeded(.purchased(productId: productId), dismiss: shouldDismiss)
            case .cancelled: break
            case .pending: alert("purchase.pending")
            case .failed(let error): alert("purchase.failed", ["reason": StoreErrorText.reason(for: error, strings: strings)])
            }
            // After the outcome is reported: a close asked for meanwhile must not win over a purchase.
            if inFlight { end() }
        }
    }

    func restore() {
        guard !inFlight else { return }
        begin()
        Task.immediate { @MainActor in
            let outcome = await purchases.restore(report: report)
            // After the outcome is reported: a close asked for meanwhile must not win over a restore.
            defer { end() }
            if let failure = outcome.failureDialog(strings: strings) {
                alert(failure.key, failure.arguments)
            } else {
                session.finish(.restored)
            }
        }
    }

    /// The purchase path's events go to the app and the page, with the paywall's identifier.
    private func report(_ name: EventName, _ params: [String: JSONValue]) {
        session.report(name, params)
    }

    /// The user (or the app) closed the paywall while a purchase or restore runs: a controller
    /// that can give its checkout up does (`PurchaseCancelling`); the close follows its answer.
    func closeRequested() {
        (purchases.controller as? PurchaseCancelling)?.paywallClosedDuringPurchase()
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
