/// How a presentation ended; `paywall present` prints it as one JSON line.
public enum PresentationResult: Equatable, Sendable {
    /// The user closed the paywall without buying.
    case declined
    /// The user bought `productId`.
    case purchased(productId: String)
    /// The user restored earlier purchases (or tried to buy what they already own).
    case restored
    /// The paywall was not shown: the user already has access.
    case skipped(reason: String)
    /// `--timeout` elapsed before the paywall closed.
    case timeout
    /// Under `--strict`, an `--eval` script threw or did not settle; `message` says which and why.
    case scriptError(message: String)

    /// The result's name, as in the JSON line.
    public var name: String {
        switch self {
        case .declined: "declined"
        case .purchased: "purchased"
        case .restored: "restored"
        case .skipped: "skipped"
        case .timeout: "timeout"
        case .scriptError: "script_error"
        }
    }

    /// The single line `paywall present` prints, e.g. `{"result":"declined"}` or
    /// `{"result":"purchased","product_id":"pro.monthly"}` (`result` always first).
    public var jsonLine: String {
        var fields = [("result", name)]
        if case .purchased(let productId) = self { fields.append(("product_id", productId)) }
        if case .skipped(let reason) = self { fields.append(("reason", reason)) }
        if case .scriptError(let message) = self { fields.append(("message", message)) }
        let members = fields.map { "\(JSONValue.string($0.0).jsonText):\(JSONValue.string($0.1).jsonText)" }
        return "{" + members.joined(separator: ",") + "}"
    }

    /// The process exit status for this result.
    public var exitCode: Int32 {
        switch self {
        case .timeout: Self.timeoutExitCode
        case .scriptError: Self.strictCheckExitCode
        default: 0
        }
    }

    /// A run that `--timeout` ended.
    package static let timeoutExitCode: Int32 = 3
    /// A run that a `--strict` check ended.
    package static let strictCheckExitCode: Int32 = 4
}
