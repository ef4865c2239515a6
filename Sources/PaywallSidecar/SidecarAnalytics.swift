import Foundation
import PaywallCore
import PaywallHost

/// Analytics over the sidecar: the user's consent (`Paywalls.setAnalyticsConsent`).
extension SidecarServer {
    func setAnalyticsConsent(_ params: RPCParams, _ reply: Reply) throws(RPCError) {
        let paywalls = try initialized("setAnalyticsConsent")
        try params.only(["consent"])
        guard case .bool(let consent)? = params.values["consent"] else {
            throw .invalidParams(field: "consent", "is required: true or false")
        }
        do {
            try paywalls.setAnalyticsConsent(consent)
        } catch {
            throw .failed("setAnalyticsConsent: \(error)")
        }
        reply(.success(["consent": .bool(consent)]))
    }
}
