import Foundation

/// One license activated on this machine, as the license database keeps it: the provider's
/// last answer about the key, this machine's instance, and when it was last validated.
struct LicenseRecord: Equatable, Sendable {
    var key: LicenseKeyDetails
    var instance: LicenseInstance
    var meta: LicenseMeta
    /// The catalog product the key unlocks.
    var productId: String
    var activatedAt: Date
    /// The last validation (or activation) the provider answered.
    var validatedAt: Date
    /// The provider said it no longer knows the key or this instance (404 on validate).
    var notFound = false
    /// The last answer said the key is valid here (`valid: true`) and named the product and
    /// store the key was activated for.
    var valid = true
    /// The provider has answered about this license (an activation, a validation, a refusal
    /// describing it); false for a row it never answered for, which gets no offline grace.
    var answered = true
    /// The merchant whose provider answers for the license.
    var store: LicenseSettings.Provider = .lemonSqueezy

    /// Takes the provider's newer word on the key; `matches`: it names the key's product and store.
    mutating func update(from response: LicenseResponse, at now: Date, matches: Bool) {
        key = response.licenseKey
        if let instance = response.instance { self.instance = instance }
        meta = response.meta
        validatedAt = now
        notFound = false
        valid = response.succeeded && matches
        answered = true
    }
}
