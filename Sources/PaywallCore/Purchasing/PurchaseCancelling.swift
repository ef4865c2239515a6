/// A purchase controller whose checkout can be given up: when the user closes a paywall while
/// its purchase or restore is running, the paywall asks the controller to end it (a purchase
/// then answers `.cancelled`, a restore `.failed`) instead of staying open until the
/// checkout answers. A controller without it is waited for: a close asked for meanwhile
/// happens once the store answered, so no charge goes unreported.
@MainActor
package protocol PurchaseCancelling: PurchaseController {
    /// The paywall that started the running purchase or restore was closed.
    func paywallClosedDuringPurchase()
}
