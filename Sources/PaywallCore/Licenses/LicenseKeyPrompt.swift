import Foundation

/// What the host shows while a purchase finishes in the browser, or for a restore: "finish in
/// your browser, then enter your license key", with a key field. The core decides everything
/// else (opening the checkout, activating, what to say when a key fails); the host draws it in
/// the user's language and hands back what was typed.
public struct LicenseKeyRequest: Equatable, Sendable {
    public enum Purpose: Equatable, Sendable {
        /// After Buy: the checkout for `product` is open in the browser at `checkoutURL`.
        case purchase(product: Product, checkoutURL: URL)
        /// Restore: "enter your license key".
        case restore
    }

    public var purpose: Purpose
    /// Why the key entered last time did not work (its `kind` to pick a translated message,
    /// its `message` in English); nil on the first ask.
    public var problem: LicenseError?
    /// 1 on the first ask, then 2, 3, ...
    public var attempt: Int

    package init(purpose: Purpose, problem: LicenseError? = nil, attempt: Int = 1) {
        self.purpose = purpose
        self.problem = problem
        self.attempt = attempt
    }
}

/// Asks the user for a license key. The host implements it with a view (the paywall turns into
/// the key field); `ClosureLicenseKeyPrompt` answers without a window (the CLI, tests).
@MainActor
public protocol LicenseKeyPrompt: AnyObject {
    /// Shows `request` and returns the key entered, or nil when the user cancelled. Asked again,
    /// with `request.problem`, when a key does not activate.
    func askForLicenseKey(_ request: LicenseKeyRequest) async -> String?
    /// The asking is over (the key activated, the user cancelled, or the attempts ran out): a
    /// host that kept its view up while the last key was checked takes it down.
    func licenseKeyPromptDidFinish()
}

extension LicenseKeyPrompt {
    public func licenseKeyPromptDidFinish() {}
}

/// A prompt answered by a closure: scripted keys in tests, a key read from a file descriptor.
@MainActor
public final class ClosureLicenseKeyPrompt: LicenseKeyPrompt {
    private let answer: @MainActor (LicenseKeyRequest) async -> String?

    public init(_ answer: @escaping @MainActor (LicenseKeyRequest) async -> String?) {
        self.answer = answer
    }

    public func askForLicenseKey(_ request: LicenseKeyRequest) async -> String? {
        await answer(request)
    }
}
