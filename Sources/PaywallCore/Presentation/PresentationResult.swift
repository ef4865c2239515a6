/// How a presentation ended.
public enum PresentationResult: Equatable, Sendable {
    /// The user closed the paywall without buying.
    case declined
    /// The user bought `productId`.
    case purchased(productId: String)
    /// The user restored earlier purchases (or tried to buy what they already own).
    case restored
    /// The paywall was not shown: the user already has access.
    case skipped(reason: SkipReason)
    /// `--timeout` elapsed before the paywall closed.
    case timeout
    /// Under `--strict`, an `--eval` script threw or did not settle; `message` says which and why.
    case scriptError(message: String)

    /// The result's name, as in the JSON line.
    public var name: String {
        switch self {
        case .declined: "declined"
        case .purchased: "purchased"
        case .restored: "restored"
        case .skipped: "skipped"
        case .timeout: "timeout"
        case .scriptError: "script_error"
        }
    }
}
