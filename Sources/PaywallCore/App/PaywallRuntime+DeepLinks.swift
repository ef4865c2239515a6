import Foundation

/// Deep links: `SCHEME://paywall/redeem?license_key=KEY` redeems a license key. A link can
/// arrive before the app has configured the runtime (the app starts because of it), so the
/// static `PaywallRuntime.handleDeepLink(_:)` keeps it, and the next runtime configured with a
/// license store redeems what was kept (`deepLinkRedemptions`); after configuration it goes to
/// that runtime at once.
extension PaywallRuntime {
    package typealias DeepLinkOutcome = PaywallCore.DeepLinkOutcome

    /// Links that came before any runtime with a license store.
    private static var pendingDeepLinks: [URL] = []
    /// Links kept before configuration, at most (the same link twice is kept once): each
    /// kept link is one License API request once the runtime is configured.
    public static let maxPendingDeepLinks = 8
    /// The runtime links go to once configured: the last one configured with a license store.
    private static weak var linkReceiver: PaywallRuntime?

    /// Handles `url` whether or not a runtime is configured yet: with one (that sells license
    /// keys) it is redeemed there, else kept for the next one (`maxPendingDeepLinks` at most:
    /// past them a link is dropped). Returns false for a link the runtime does not handle,
    /// which the app handles itself.
    @discardableResult
    package static func handleDeepLink(_ url: URL) -> Bool {
        // A redeem link too long to read is still one: redeeming it says why it was refused.
        guard RedeemLink.isRedeemLink(url) else { return false }
        _ = keepOrSend(url)
        return true
    }

    /// `handleDeepLink` for a redeem link: false when it was dropped, the queue being full.
    package static func keepOrSend(_ url: URL) -> Bool {
        if let receiver = linkReceiver {
            Task { @MainActor in _ = await receiver.handleDeepLink(url) }
            return true
        }
        if pendingDeepLinks.contains(url) { return true }
        guard pendingDeepLinks.count < maxPendingDeepLinks else { return false }
        pendingDeepLinks.append(url)
        return true
    }

    /// Redeems `url` with this runtime's license store (`license_activate` or
    /// `license_activateFail` report it, after `deepLink_redeem`).
    package func handleDeepLink(_ url: URL) async -> DeepLinkOutcome {
        await redeem(url, queued: false)
    }

    private func redeem(_ url: URL, queued: Bool) async -> DeepLinkOutcome {
        guard RedeemLink.isRedeemLink(url) else { return .notHandled }
        let link: RedeemLink
        do { link = try RedeemLink(redeeming: url) } catch { return .failed(error) }
        events.emit(.deepLinkRedeem, ["link": .string(RedeemLink.masked(url)), "queued": .bool(queued)])
        guard let licenseStore else {
            return .failed(
                LicenseError(
                    .noLicense,
                    "a redeem link came, but this app's catalog sells no license keys "
                        + "(it has no license \"store\" such as \"lemon_squeezy\" or \"polar\")"))
        }
        do {
            return .redeemed(try await licenseStore.redeem(key: link.licenseKey))
        } catch {
            return .failed(error)
        }
    }

    /// Wires the license store to the purchases, starts its background validation, and makes
    /// this runtime the receiver of links, redeeming those kept from before.
    func startLicenses(_ store: LicenseKeyStore) {
        store.onChange = { [weak self] in
            // What the provider said stands; a cache that cannot be written is reported by `refresh`.
            try? self?.purchases?.refresh()
        }
        if !configuration.readOnly { store.startRefreshing() }
        Self.linkReceiver = self
        let kept = Self.pendingDeepLinks
        Self.pendingDeepLinks = []
        guard !kept.isEmpty else { return }
        deepLinkRedemptions = Task { @MainActor [weak self] in
            var outcomes: [DeepLinkOutcome] = []
            for url in kept {
                guard let self else { break }
                outcomes.append(await self.redeem(url, queued: true))
            }
            return outcomes
        }
    }
}

/// What became of a deep link (`Paywalls.handleDeepLink(_:)`).
public enum DeepLinkOutcome: Equatable, Sendable {
    /// The key is activated here.
    case redeemed(LicenseStatus)
    case failed(LicenseError)
    /// Kept until a runtime with a license store is configured.
    case queued
    /// Not a link the runtime handles (the app's own).
    case notHandled
}
