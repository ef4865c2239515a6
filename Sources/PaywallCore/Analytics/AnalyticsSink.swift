import Foundation

/// One place events go, and how a batch of queued events (event-log lines) becomes its request.
package struct AnalyticsSink: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        case posthog(AnalyticsSettings.PostHog)
        case webhook(AnalyticsSettings.Webhook)
    }

    package let kind: Kind

    /// The sink's name in the outbox and in `paywall analytics status`.
    package var name: String {
        switch kind {
        case .posthog: "posthog"
        case .webhook: "webhook"
        }
    }

    /// The sinks `settings` names.
    package static func all(_ settings: AnalyticsSettings?) -> [AnalyticsSink] {
        guard let settings else { return [] }
        return [settings.posthog.map { AnalyticsSink(kind: .posthog($0)) }, settings.webhook.map { AnalyticsSink(kind: .webhook($0)) }]
            .compactMap { $0 }
    }

    /// What every PostHog event's properties carry besides its params.
    package struct Context: Sendable, Equatable {
        package var runtimeVersion: String
        package var appVersion: String
        package var osName: String
        package var osVersion: String
        /// `fake_store`, `controller`, `lemon_squeezy`, or `none`.
        package var store: String

        package init(runtimeVersion: String, appVersion: String, osName: String, osVersion: String, store: String) {
            self.runtimeVersion = runtimeVersion
            self.appVersion = appVersion
            self.osName = osName
            self.osVersion = osVersion
            self.store = store
        }
    }

    /// The request that delivers `lines` (event-log lines, oldest first).
    package func request(for lines: [String], context: Context) -> HTTPRequest {
        let events = lines.compactMap { try? JSONValue(parsing: $0) }
        switch kind {
        case .posthog(let posthog):
            // https://posthog.com/docs/api/capture: POST /batch/ {api_key, batch: [...]}, deduplicated by uuid.
            let batch = events.map { Self.posthogEvent($0, context: context) }
            let body: JSONValue = ["api_key": .string(posthog.apiKey), "batch": .array(batch)]
            return .post(posthog.host.appendingPathComponent("batch/"), json: Data(body.jsonText.utf8))
        case .webhook(let webhook):
            let body: JSONValue = ["events": .array(events)]
            return .post(webhook.url, json: Data(body.jsonText.utf8), headers: webhook.headers)
        }
    }

    /// One event of PostHog's batch: its name, the user as `distinct_id`, the params with the
    /// locale, store, versions and OS as `properties`, the timestamp and the `uuid`.
    static func posthogEvent(_ event: JSONValue, context: Context) -> JSONValue {
        var properties = event["params"]?.objectValue ?? [:]
        properties["locale"] = event["locale"] ?? .null
        properties["store"] = .string(context.store)
        properties["runtime_version"] = .string(context.runtimeVersion)
        properties["app_version"] = .string(context.appVersion)
        properties["$os"] = .string(context.osName)
        properties["$os_version"] = .string(context.osVersion)
        properties["$lib"] = .string("paywall-linux")
        properties["$lib_version"] = .string(context.runtimeVersion)
        return [
            "event": event["name"] ?? .null, "distinct_id": event["user_id"] ?? .null, "properties": .object(properties),
            "timestamp": event["timestamp"] ?? .null, "uuid": event["uuid"] ?? .null,
        ]
    }
}
