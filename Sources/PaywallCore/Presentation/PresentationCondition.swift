/// When a paywall is shown to a user, in the config (`presentation_condition`, per paywall
/// and per placement) and on the command line (`--condition`, `--entitlement`), with the same
/// words.
public enum PresentationCondition: Equatable, Sendable {
    /// Shown unless the subscription status is active (skipped with reason `subscribed`): the default.
    case checkUserSubscription
    /// Always shown, subscribers included (an upgrade paywall).
    case always
    /// Shown unless the user has every one of these entitlements (skipped with reason
    /// `entitled`): a Plus -> Pro upsell.
    case entitlements([String])

    /// The config's and the command line's word for it.
    public var name: String {
        switch self {
        case .checkUserSubscription: "check_user_subscription"
        case .always: "always"
        case .entitlements: "entitlements"
        }
    }

    /// The condition a config or command line names; `entitlements` needs a non-empty list.
    /// Nil for an unknown name or an `entitlements` condition without entitlements.
    public init?(name: String, entitlements: [String] = []) {
        switch name {
        case "check_user_subscription": self = .checkUserSubscription
        case "always": self = .always
        case "entitlements" where !entitlements.isEmpty: self = .entitlements(entitlements)
        default: return nil
        }
    }

    /// Why a user with `status` is not shown the paywall, or nil when it is shown.
    public func skipReason(for status: SubscriptionStatus) -> SkipReason? {
        switch self {
        case .checkUserSubscription: status.activeEntitlements.isEmpty ? nil : .subscribed
        case .always: nil
        case .entitlements(let ids): Set(ids).isSubset(of: status.activeEntitlements) ? .entitled : nil
        }
    }
}
