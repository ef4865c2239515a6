import Foundation

/// A license on this machine as the customer center and `paywall status` show it: the key
/// masked, where it stands, its activations and expiry, and why it no longer gives access.
public struct LicenseStatus: Equatable, Sendable {
    /// Why a license gives no access (its `reason`; nil while it does).
    public enum Reason: String, Sendable, CaseIterable {
        /// The key expired (its expiry passed, or its subscription ended).
        case expired
        /// The seller disabled the key.
        case disabled
        /// The provider says the key is not activated (its activations were removed elsewhere), or
        /// that it is not valid here: `valid: false`, or an answer naming another product or store.
        case inactive
        /// The provider no longer knows the key or this machine's activation of it.
        case notFound = "not_found"
        /// Not validated within the offline grace period (`offline_grace_days`).
        case notValidated = "not_validated"
    }

    /// `****4d51`: the key's last four characters.
    public var maskedKey: String
    /// The provider's last word on the key.
    public var keyStatus: LicenseKeyStatus
    /// What that means for access now: `subscribed`, `expired` or `revoked`.
    public var state: EntitlementState
    /// Nil while the license gives access.
    public var reason: Reason?
    public var activationUsage: Int
    /// Nil: unlimited activations.
    public var activationLimit: Int?
    /// Nil: the key does not expire.
    public var expiresAt: Date?
    /// The catalog product the key unlocks.
    public var productId: String
    /// The provider's names of what was bought.
    public var productName: String?
    public var variantName: String?
    /// This machine's activation (`instance.name`: its pretty hostname).
    public var instanceName: String
    public var activatedAt: Date
    /// The last validation the provider answered.
    public var validatedAt: Date
    /// When access ends unless a validation succeeds first (`validatedAt` + the grace period).
    public var graceEndsAt: Date
    /// The merchant: `LEMON_SQUEEZY`, `POLAR`, `KEYGEN`, `GUMROAD` or `SIGNED_LICENSE`.
    public var store: StoreKind
    /// Why this license cannot be deactivated from this machine (Gumroad's); nil when it can.
    public var deactivationUnsupported: String?

    package init(
        maskedKey: String, keyStatus: LicenseKeyStatus, state: EntitlementState, reason: Reason?,
        activationUsage: Int, activationLimit: Int?, expiresAt: Date?, productId: String, productName: String?,
        variantName: String?, instanceName: String, activatedAt: Date, validatedAt: Date, graceEndsAt: Date,
        store: StoreKind = .lemonSqueezy, deactivationUnsupported: String? = nil
    ) {
        self.maskedKey = maskedKey
        self.keyStatus = keyStatus
        self.state = state
        self.reason = reason
        self.activationUsage = activationUsage
        self.activationLimit = activationLimit
        self.expiresAt = expiresAt
        self.productId = productId
        self.productName = productName
        self.variantName = variantName
        self.instanceName = instanceName
        self.activatedAt = activatedAt
        self.validatedAt = validatedAt
        self.graceEndsAt = graceEndsAt
        self.store = store
        self.deactivationUnsupported = deactivationUnsupported
    }

    /// Whether the license gives access now.
    public var isActive: Bool { state == .subscribed }
}
