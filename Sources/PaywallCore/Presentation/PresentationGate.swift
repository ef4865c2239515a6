import Foundation

/// Decides whether a paywall may be shown, from its presentation condition and the
/// subscription status: by default a user with access never sees one; an unknown status is
/// waited for, but only for a bounded time, and the wait's outcome is always reported
/// (`paywallPresentationRequest`), never a silent stall.
@MainActor
package enum PresentationGate {
    /// How long presenting waits for an unknown status by default, in seconds.
    package static let defaultStatusTimeout = 2.0

    /// Returns nil to present, or the result of not presenting.
    package static func check(
        _ purchases: Purchases, paywallId: String, condition: PresentationCondition = .checkUserSubscription,
        timeout: Double = defaultStatusTimeout
    ) async -> PresentationResult? {
        var params: [String: JSONValue] = ["paywall_identifier": .string(paywallId)]
        if condition == .always {
            params["status"] = "presentation"
            purchases.events.emit(.paywallPresentationRequest, params)
            return nil  // shown to everyone: nothing to wait for
        }
        let known = await purchases.waitForKnownStatus(timeout: timeout)
        if !known {
            params["status"] = "timeout"
            params["reason"] = "subscriptionStatusTimeout"
            params["waited_ms"] = .number((timeout * 1000).rounded())
            purchases.events.emit(.paywallPresentationRequest, params)
            return nil  // present anyway: an unknown user is not known to have access
        }
        if let reason = condition.skipReason(for: purchases.subscriptionStatus) {
            params["status"] = "noPresentation"
            params["reason"] = reason == .subscribed ? "userIsSubscribed" : "userHasEntitlements"
            purchases.events.emit(.paywallPresentationRequest, params)
            return .skipped(reason: reason)
        }
        params["status"] = "presentation"
        purchases.events.emit(.paywallPresentationRequest, params)
        return nil
    }
}
