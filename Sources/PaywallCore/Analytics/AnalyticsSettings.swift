import Foundation

/// Where the runtime sends its events (`"analytics"` of the config, `PaywallsConfiguration.analytics`,
/// the sidecar's `initialize`): PostHog's batch API, a webhook, or both.
///
/// ```json
/// "analytics": {"posthog": {"host": "https://eu.i.posthog.com", "api_key": "phc_..."},
///               "webhook": {"url": "https://example.com/hook", "headers": {"Authorization": "Bearer ..."}},
///               "send_sandbox": false, "consent": true}
/// ```
public struct AnalyticsSettings: Equatable, Sendable {
    /// PostHog: `POST {host}/batch/` with the project's write-only `api_key`.
    public struct PostHog: Equatable, Sendable {
        public var host: URL
        public var apiKey: String
        public init(host: URL, apiKey: String) {
            self.host = host
            self.apiKey = apiKey
        }
    }

    /// A webhook: `POST {"events": [...]}` to `url` with `headers`.
    public struct Webhook: Equatable, Sendable {
        public var url: URL
        public var headers: [String: String]
        public init(url: URL, headers: [String: String] = [:]) {
            self.url = url
            self.headers = headers
        }
    }

    public var posthog: PostHog?
    public var webhook: Webhook?
    /// Sends the events of the fake store (testers' runs) too; off, they reach no sink.
    public var sendSandbox: Bool
    /// The consent a data directory starts with, until `setAnalyticsConsent` keeps another.
    public var consent: Bool

    public init(posthog: PostHog? = nil, webhook: Webhook? = nil, sendSandbox: Bool = false, consent: Bool = true) {
        self.posthog = posthog
        self.webhook = webhook
        self.sendSandbox = sendSandbox
        self.consent = consent
    }

    /// Why settings cannot be used: the field's path and what to do.
    public struct Problem: Error, CustomStringConvertible {
        public let description: String
    }

    /// Reads `json` (the `"analytics"` object), naming `path` (`analytics`) in its errors.
    package init(json: JSONValue, path: String) throws(Problem) {
        guard let root = json.objectValue else { throw Problem(description: "\(path) must be an object") }
        let known: Set<String> = ["posthog", "webhook", "send_sandbox", "consent"]
        if let unknown = root.keys.sorted().first(where: { !known.contains($0) }) {
            throw Problem(description: "\(path).\(unknown) is not a field (fields: consent, posthog, send_sandbox, webhook)")
        }
        for flag in ["send_sandbox", "consent"] where root[flag] != nil && root[flag]?.boolValue == nil {
            throw Problem(description: "\(path).\(flag) must be true or false")
        }
        sendSandbox = root["send_sandbox"]?.boolValue ?? false
        consent = root["consent"]?.boolValue ?? true
        if let value = root["posthog"] {
            let at = "\(path).posthog"
            guard let apiKey = value["api_key"]?.stringValue, !apiKey.isEmpty else {
                throw Problem(description: "\(at).api_key is required: the project API key (phc_...)")
            }
            posthog = PostHog(host: try Self.endpoint(value["host"], at: "\(at).host"), apiKey: apiKey)
        }
        if let value = root["webhook"] {
            let at = "\(path).webhook"
            var headers: [String: String] = [:]
            if let map = value["headers"] {
                guard let object = map.objectValue, object.values.allSatisfy({ $0.stringValue != nil }) else {
                    throw Problem(description: "\(at).headers must be an object of header name -> text")
                }
                headers = object.mapValues { $0.stringValue ?? "" }
            }
            webhook = Webhook(url: try Self.endpoint(value["url"], at: "\(at).url"), headers: headers)
        }
    }

    /// An https URL, or http to a loopback host (local stand-ins in tests): events must not
    /// cross a network in the clear.
    private static func endpoint(_ value: JSONValue?, at path: String) throws(Problem) -> URL {
        guard let text = value?.stringValue, let url = URL(string: text),
            url.host?.isEmpty == false
        else { throw Problem(description: "\(path) is required: an https URL") }
        guard let problem = endpointProblem(url) else { return url }
        throw Problem(description: "\(path): \(problem); got \(text)")
    }

    /// Why `url` may not receive events, or nil.
    package static func endpointProblem(_ url: URL) -> String? {
        switch url.scheme?.lowercased() {
        case "https": return nil
        case "http" where ["127.0.0.1", "localhost", "::1", "[::1]"].contains(url.host?.lowercased() ?? ""): return nil
        default: return "must be https (http only to a loopback address, for tests)"
        }
    }
}
