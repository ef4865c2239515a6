import Foundation
import PaywallCore

/// Analytics through the facade: the user's consent, and the last send before the app quits
/// (see Analytics and reports).
extension Paywalls {
    /// Whether events go to the seller's analytics on this machine: the consent kept for the
    /// data directory, else the configuration's `consent` (true when it says nothing).
    public var analyticsConsent: Bool { runtime.analytics?.consent ?? false }

    /// Keeps the user's consent for this data directory. `false`: nothing is queued or sent
    /// from now on, and what was queued is deleted; `true`: events are queued and sent again.
    public func setAnalyticsConsent(_ consent: Bool) throws {
        try runtime.setAnalyticsConsent(consent)
    }

    /// Sends what is queued within `seconds` (2 by default) and stops sending; call it as the
    /// app quits. Returns true when nothing is left queued; what is left is sent by the next run.
    @discardableResult
    public func shutdownAnalytics(within seconds: Double = 2) async -> Bool {
        await runtime.shutdownAnalytics(within: seconds)
    }
}
