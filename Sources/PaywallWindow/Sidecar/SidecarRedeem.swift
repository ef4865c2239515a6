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
        if let url {
            // Not echoed back: what was given may hold a key in another form.
            guard let link = URL(string: url), RedeemLink(link) != nil else {
                throw .invalidParams(field: "url", "is not a redeem link; expected SCHEME://paywall/redeem?license_key=KEY")
            }
            guard paywalls != nil else {
                PaywallRuntime.handleDeepLink(link)
                return reply(.success(["result": "queued"]))
            }
        }
        let paywalls = try runtime("redeem")
        guard let store = paywalls.runtime.licenseStore else {
            throw .failed("redeem: the catalog given to initialize sells no license keys; add \"store\": \"lemon_squeezy\" to it")
        }
        let licenseKey = key ?? url.flatMap(URL.init(string:)).flatMap(RedeemLink.init)?.licenseKey ?? ""
        Task { @MainActor [weak self] in
            do throws(LicenseError) {
                let license = try await store.redeem(key: licenseKey)
                guard let self else { return }
                guard case .object(var result) = self.customerInfo(paywalls) else { return }
                result["result"] = "redeemed"
                result["license"] = StoreReport.license(license)
                reply(.success(.object(result)))
            } catch {
                reply(.failure(RPCError(code: -32000, message: "redeem: the license key was not activated: \(error.message)",
                                        data: ["reason": .string(error.kind.rawValue)])))
            }
        }
    }
}
