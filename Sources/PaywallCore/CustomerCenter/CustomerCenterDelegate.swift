import Foundation

/// What a tapped customer-center path does, as the delegate and events report it.
public enum CustomerCenterAction: Equatable, Sendable {
    case restore
    case manageSubscription
    case refund
    case changePlan
    case contactSupport
    case url(URL)
    case custom(identifier: String)

    init(_ type: CustomerCenterConfiguration.PathType) {
        switch type {
        case .restore: self = .restore
        case .manageSubscription: self = .manageSubscription
        case .refund: self = .refund
        case .changePlan: self = .changePlan
        case .contactSupport: self = .contactSupport
        case .url(let url, _, _): self = .url(url)
        case .custom(let identifier): self = .custom(identifier: identifier)
        }
    }

    /// The `action` param of customer-center events.
    public var name: String {
        switch self {
        case .restore: "restore"
        case .manageSubscription: "manage_subscription"
        case .refund: "refund"
        case .changePlan: "change_plan"
        case .contactSupport: "contact_support"
        case .url: "url"
        case .custom: "custom"
        }
    }
}

/// Observes and gates what happens in the customer center. Every method has a default, so an
/// app implements only what it needs. A delegate passed to a presentation is kept alive until
/// the customer center is dismissed.
@MainActor
public protocol CustomerCenterDelegate: AnyObject {
    /// Before a restore runs: call `resume(false)` to stop it (e.g. to ask the user to sign in first).
    func customerCenter(shouldRestorePurchases resume: @escaping @MainActor (Bool) -> Void)
    /// The user tapped a path; `purchase` is the latest transaction of the purchase it acts on.
    /// `.custom` paths are handled here.
    func customerCenter(didSelect action: CustomerCenterAction, for purchase: StoreTransaction?)
    func customerCenter(didCompleteSurvey surveyId: String, optionId: String, for action: CustomerCenterAction)
    func customerCenter(didCompleteRefundRequestFor productId: String, status: RefundRequestStatus)
    func customerCenterDidDismiss()
}

extension CustomerCenterDelegate {
    public func customerCenter(shouldRestorePurchases resume: @escaping @MainActor (Bool) -> Void) { resume(true) }
    public func customerCenter(didSelect action: CustomerCenterAction, for purchase: StoreTransaction?) {}
    public func customerCenter(didCompleteSurvey surveyId: String, optionId: String, for action: CustomerCenterAction) {}
    public func customerCenter(didCompleteRefundRequestFor productId: String, status: RefundRequestStatus) {}
    public func customerCenterDidDismiss() {}
}
