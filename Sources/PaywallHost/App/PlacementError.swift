extension Paywalls {
    /// Why a registered placement showed nothing at all (`PlacementHandler.error`). Each case
    /// is one of Superwall's `paywallPresentationRequest` reasons (`name`), with what the app
    /// needs to say or log it; the feature does not run.
    public enum PlacementError: Error, Equatable, Sendable, CustomStringConvertible {
        /// No such placement in the config, or no config (`reason` says which, in words).
        case placementNotFound(placement: String, reason: String)
        /// Another placement's paywall is loading or on screen: one at a time.
        case paywallAlreadyPresented(placement: String)
        /// The placement's paywall is not cached and the runtime's fallback paywall is missing.
        case noPaywallView(placement: String, paywall: String)

        /// The placement that was registered.
        public var placement: String {
            switch self {
            case .placementNotFound(let placement, _), .paywallAlreadyPresented(let placement),
                .noPaywallView(let placement, _):
                placement
            }
        }

        /// The reason's name, as `paywallPresentationRequest` and the sidecar's `register` report it.
        public var name: String {
            switch self {
            case .placementNotFound: "placementNotFound"
            case .paywallAlreadyPresented: "paywallAlreadyPresented"
            case .noPaywallView: "noPaywallView"
            }
        }

        /// What happened, in words.
        public var message: String {
            switch self {
            case .placementNotFound(_, let reason): reason
            case .paywallAlreadyPresented: "a paywall is already on screen; a placement shows one at a time"
            case .noPaywallView(_, let paywall): "paywall \(paywall) is not cached and the fallback paywall is missing"
            }
        }

        public var description: String { "placement \(placement): \(message)" }
    }
}
