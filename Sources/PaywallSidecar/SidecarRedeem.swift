import Foundation
import PaywallCLI
import PaywallCore
import PaywallHost

/// `redeem`: a license key activated on this machine, from a redeem link
/// (`{"url": "SCHEME://paywall/redeem?license_key=KEY"}`, what the app's `.desktop` file hands
/// it) or the key itself (`{"license_key": KEY}`, from the app's own field). A link sent
/// before `initialize` is kept and redeemed once the runtime is configured, as
/// `Paywalls.handleDeepLink` does in a Swift app.
extension SidecarServer {
    func redeem(_ params: RPCParams, _ reply: Reply) throws(RPCError) {
        try params.only(["url", "license_key"])
        let url = try params.string("url")
        let key = try params.string("license_key")
        guard (url == nil) != (key == nil) else {
            throw .invalidParams(field: "url", "give exactly one of url (a redeem link) and license_key")
        }
        var link: URL?
        if let url {
            // Not echoed back: what was given may hold a key in another form.
            guard let parsed = URL(string: url), RedeemLink.isRedeemLink(parsed) else {
                throw .invalidParams(field: "url", "is not a redeem link; expected SCHEME://paywall/redeem?license_key=KEY")
            }
            do { _ = try RedeemLink(redeeming: parsed) } catch { throw .invalidParams(field: "url", error.message) }
            guard paywalls != nil else {
                guard Paywalls.keepOrSendDeepLink(parsed) else {
                    throw .failed(
                        "redeem: \(Paywalls.maxPendingDeepLinks) links are already waiting for initialize; "
                            + "send initialize, then the link again")
                }
                return reply(.success(["result": "queued"]))
            }
            link = parsed
        }
        let paywalls = try initialized("redeem")
        guard paywalls.sellsLicenseKeys else {
            throw .failed(
                "redeem: the catalog given to initialize sells no license keys; add a license \"store\" such as \"lemon_squeezy\" to it"
            )
        }
        Task { @MainActor [weak self] in
            // A link goes the way a Swift app's `handleDeepLink` sends it (`deepLink_redeem` first).
            let outcome: DeepLinkOutcome
            if let link {
                outcome = await paywalls.handleDeepLink(link)
            } else {
                do throws(LicenseError) { outcome = .redeemed(try await paywalls.redeem(licenseKey: key ?? "")) } catch {
                    outcome = .failed(error)
                }
            }
            guard let self else { return }
            switch outcome {
            case .redeemed(let license):
                guard case .object(var result) = self.customerInfo(paywalls) else { return }
                result["result"] = "redeemed"
                result["license"] = StoreReport.license(license)
                reply(.success(.object(result)))
            case .failed(let error):
                reply(
                    .failure(
                        RPCError(
                            code: -32000, message: "redeem: the license key was not activated: \(error.message)",
                            data: ["reason": .string(error.kind.rawValue)])))
            case .queued, .notHandled:
                // A configured runtime redeems a checked link at once.
                reply(.failure(.failed("redeem: the link was not redeemed")))
            }
        }
    }
}
