import Foundation

/// Why a license action failed: what, where and what to do, in words for people and logs (the
/// key itself never appears in it, only masked).
public struct LicenseError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        /// The provider does not know the key (or this machine's instance of it): 404.
        case notFound = "not_found"
        /// The provider refused: the activation limit is reached, the key expired or is
        /// disabled, the request was invalid (400, 422).
        case rejected
        /// Too many requests (429), still so after backing off.
        case rateLimited = "rate_limited"
        /// The provider failed (5xx), still so after backing off.
        case serverError = "server_error"
        /// No answer: no network, refused, timed out.
        case network
        /// The answer is not the documented JSON, or is larger than allowed.
        case malformedResponse = "malformed_response"
        /// The license API's URL is not `https` (only loopback may be `http`).
        case insecureURL = "insecure_url"
        /// Nothing that looks like a license key was given.
        case emptyKey = "empty_key"
        /// The key is for a product the catalog does not sell.
        case unknownProduct = "unknown_product"
        /// No license is activated here (deactivating, refreshing).
        case noLicense = "no_license"
        /// The license could not be kept in the data directory's database.
        case storage
        /// The merchant has no way to do this from a desktop app (Gumroad cannot deactivate).
        case unsupported
        /// A signed license whose signature does not verify with the catalog's
        /// `license_public_key`: changed after signing, signed by another key, or not a license.
        case invalidSignature = "invalid_signature"
        /// A signed license bound to another machine's fingerprint.
        case otherMachine = "other_machine"
        /// A signature cannot be checked here: the catalog's `license_public_key` is not an
        /// Ed25519 key, or libcrypto (OpenSSL 3) is not installed.
        case cryptography
    }

    public var kind: Kind
    public var message: String
    /// The HTTP status of the provider's answer, when there was one.
    public var statusCode: Int?
    /// The key as the provider described it in a refusal (its status tells expired from disabled).
    package var licenseKey: LicenseKeyDetails?

    package init(_ kind: Kind, _ message: String, statusCode: Int? = nil, licenseKey: LicenseKeyDetails? = nil) {
        self.kind = kind
        self.message = message
        self.statusCode = statusCode
        self.licenseKey = licenseKey
    }

    /// Whether asking again later may succeed: the network, rate limits and server errors.
    public var isTransient: Bool { [.network, .rateLimited, .serverError].contains(kind) }

    public var description: String { message }
}
