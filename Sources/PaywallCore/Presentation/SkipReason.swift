/// Why a paywall was not shown to the user (`PresentationResult.skipped`): they already have
/// what it sells. The raw value is the reason's name in the CLI's result line and the
/// sidecar's `register` result.
public enum SkipReason: String, Equatable, Sendable, CaseIterable, CustomStringConvertible {
    /// The user has an active subscription (`check_user_subscription`, the default condition).
    case subscribed
    /// The user has every entitlement the paywall's `entitlements` condition lists.
    case entitled

    public var description: String { rawValue }
}
