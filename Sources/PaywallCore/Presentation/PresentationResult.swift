/// How a presentation ended; `paywall present` prints it as one JSON line.
public enum PresentationResult: Equatable, Sendable {
    /// The user closed the paywall without buying.
    case declined
    /// `--timeout` elapsed before the paywall closed.
    case timeout

    /// The result's name, as in the JSON line.
    public var name: String {
        switch self {
        case .declined: "declined"
        case .timeout: "timeout"
        }
    }

    /// The single line `paywall present` prints, e.g. `{"result":"declined"}`.
    public var jsonLine: String {
        (["result": .string(name)] as JSONValue).jsonText
    }

    /// The process exit status for this result.
    public var exitCode: Int32 {
        self == .timeout ? 3 : 0
    }
}
