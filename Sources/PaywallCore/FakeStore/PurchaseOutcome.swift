/// What the fake store does with the next purchase, set by a tester.
public enum PurchaseOutcome: Equatable, Sendable, CustomStringConvertible {
    case success
    case cancelled
    /// Ask to Buy: the purchase waits for `approve` or `decline`.
    case pending
    /// The purchase fails with a named reason, e.g. `failed:card_declined`.
    case failed(reason: String)

    /// Parses `success`, `cancelled`, `pending` or `failed:<reason>`.
    package init?(parsing text: String) {
        switch text {
        case "success": self = .success
        case "cancelled": self = .cancelled
        case "pending": self = .pending
        default:
            guard text.hasPrefix("failed:"), text.count > "failed:".count else { return nil }
            self = .failed(reason: String(text.dropFirst("failed:".count)))
        }
    }

    public var description: String {
        switch self {
        case .success: "success"
        case .cancelled: "cancelled"
        case .pending: "pending"
        case .failed(let reason): "failed:\(reason)"
        }
    }
}
