import Foundation

/// A store's error as a reason the user reads in a dialog ("The purchase could not be
/// completed: {reason}."), in the user's language, with the store's own code after it in
/// parentheses for support ("the card was declined (card_declined)").
package protocol StoreCodedError: Error {
    /// The store's code for what went wrong (`card_declined`, `insufficient_funds`, ...).
    var storeCode: String { get }
}

extension FakeStoreError: StoreCodedError {
    package var storeCode: String {
        switch self {
        case .purchaseFailed(let reason): reason
        case .unknownTransaction: "unknown_transaction"
        case .notASubscription: "not_a_subscription"
        case .notPending: "not_pending"
        case .notInBillingTrouble: "not_in_billing_trouble"
        }
    }
}

package enum StoreErrorText {
    /// What a dialog needs of an error, as plain values (outcomes that carry it stay
    /// `Equatable` and `Sendable`).
    package struct Cause: Equatable, Sendable {
        package var storeCode: String?
        /// An app's own `LocalizedError` text.
        package var appText: String?

        package init(_ error: (any Error)?) {
            storeCode = ((error as? StoreCodedError)?.storeCode).map(StoreErrorText.bounded)
            appText = storeCode == nil ? ((error as? LocalizedError)?.errorDescription).map(StoreErrorText.bounded) : nil
        }
    }

    /// Characters of an app's or store's text a dialog shows at most: a dialog is read, and
    /// laying out a megabyte of text stalls the main loop for seconds.
    public static let maxShownCharacters = 500

    /// `text`, cut to `maxShownCharacters` with an ellipsis.
    static func bounded(_ text: String) -> String {
        text.count <= maxShownCharacters ? text : String(text.prefix(maxShownCharacters - 1)) + "…"
    }

    /// Codes with a text of their own (`store.error.<code>` in the string tables).
    static let knownCodes: Set<String> = [
        "card_declined", "insufficient_funds", "payment_invalid", "network", "not_allowed", "product_unavailable",
    ]

    /// The reason to show for `error`: a known code's own text, else the store's "declined";
    /// an app's `LocalizedError` speaks for itself; any other error is an unknown error (its
    /// details go to the event log, never in English into a translated dialog).
    package static func reason(for error: (any Error)?, strings: StringTable) -> String {
        reason(for: Cause(error), strings: strings)
    }

    package static func reason(for cause: Cause, strings: StringTable) -> String {
        guard let code = cause.storeCode else { return cause.appText.map(asClause) ?? strings.text("store.error.unknown") }
        let text = knownCodes.contains(code) ? strings.text("store.error.\(code)") : strings.text("store.error.declined")
        return code.isEmpty ? text : "\(text) (\(code))"
    }

    /// An app's sentence as the clause the dialog puts it in (its own full stop comes after
    /// it): "Your card was declined." would read "...declined.. You have not been charged."
    static func asClause(_ text: String) -> String {
        var clause = Substring(text.trimmingCharacters(in: .whitespacesAndNewlines))
        while let last = clause.last, ".。．!！?？।۔".contains(last) { clause = clause.dropLast() }
        return clause.isEmpty ? text : String(clause)
    }
}
