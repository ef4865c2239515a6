/// Why a registered placement showed the user no paywall and ran its feature
/// (`PresentationResult.skipped`, `PlacementHandler.skipped`): they already have what it
/// sells, or a campaign decided so. `name` is the reason's spelling in the CLI's result line,
/// the sidecar's `register` result and `paywallPresentationRequest`.
public enum SkipReason: Equatable, Sendable, CustomStringConvertible {
    /// The user has an active subscription (`check_user_subscription`, the default condition).
    case subscribed
    /// The user has every entitlement the paywall's `entitlements` condition lists.
    case entitled
    /// The user is in the holdout of the experiment with this id: no paywall, the feature runs.
    case holdout(experiment: String)
    /// The placement's campaign has no audience whose filter and occurrence cap pass.
    case noAudienceMatch

    /// The reason's name: `subscribed`, `entitled`, `holdout`, `noAudienceMatch`.
    public var name: String {
        switch self {
        case .subscribed: "subscribed"
        case .entitled: "entitled"
        case .holdout: "holdout"
        case .noAudienceMatch: "noAudienceMatch"
        }
    }

    public var description: String { name }
}
