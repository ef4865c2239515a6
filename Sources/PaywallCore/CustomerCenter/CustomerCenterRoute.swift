import Foundation

/// Where the user is in the customer center: the screens pushed so far, and a dialog or
/// progress overlay over the top one.
package enum CustomerCenterRoute: Equatable, Sendable {
    /// The management screen, or the no-purchases screen when there is nothing.
    case home
    /// One purchase's own screen (`CustomerCenterPurchase.key`).
    case detail(purchaseKey: String)
    /// A survey asked before `pending` runs.
    case survey(CustomerCenterConfiguration.Survey, pending: PendingAction)
    /// The other plans of a subscription's group.
    case plans(purchaseKey: String, pathId: String, productIds: [String]?)

    /// A path the user tapped, waiting for its survey answer or confirmation.
    package struct PendingAction: Equatable, Sendable {
        package var path: CustomerCenterConfiguration.Path
        package var purchaseKey: String?
    }
}

/// A dialog drawn by the page over the current screen. Each button reports its `action`.
package struct CustomerCenterDialog: Equatable, Sendable {
    package struct Button: Equatable, Sendable {
        package var action: String
        package var label: String
        package var isPrimary = false
        package var isDestructive = false
    }

    package var title: String
    package var message: String
    /// Text the user can select and copy (a support address).
    package var copyableText: String?
    package var buttons: [Button]
    /// What confirming does; nil for a dialog that only informs.
    package var confirming: CustomerCenterRoute.PendingAction?

    /// A dialog with one OK button.
    static func notice(_ title: String, _ message: String, strings: StringTable) -> CustomerCenterDialog {
        CustomerCenterDialog(
            title: title, message: message, copyableText: nil,
            buttons: [Button(action: "ok", label: strings.text("dialog.ok"), isPrimary: true)], confirming: nil)
    }
}
