import Foundation

/// One place events go, and how a batch of queued events (event-log lines) becomes its request.
package struct AnalyticsSink: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        case posthog(AnalyticsSettings.PostHog)
        case webhook(AnalyticsSettings.Webhook)
    }

    package let kind: Kind

    package init(kind: Kind) {
        self.kind = kind
    }

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
        return [
            settings.posthog.map { AnalyticsSink(kind: .posthog($0)) },
            settings.webhook.map { AnalyticsSink(kind: .webhook($0)) },
        ]
        .compactMap { $0 }
    }

    /// What every PostHog event's properties carry besides its params, kept with each queued
    /// event (a later `paywall analytics flush` sends it as the app emitted it).
    package struct Context: Sendable, Equatable {
        package var runtimeVersion: String
        package var appVersion: String
        package var osName: String
        package var osVersion: String
        /// `fake_store`, `controller`, `none`, or a license catalog's `store` (`lemon_squeezy`, `polar`, ...).
        package var store: String

        package init(runtimeVersion: String, appVersion: String, osName: String, osVersion: String, store: String) {
            self.runtimeVersion = runtimeVersion
            self.appVersion = appVersion
            self.osName = osName
            self.osVersion = osVersion
            self.store = store
        }

        /// As kept in the outbox.
        package var json: JSONValue {
            [
                "runtime_version": .string(runtimeVersion), "app_version": .string(appVersion), "os_name": .string(osName),
                "os_version": .string(osVersion), "store": .string(store),
            ]
        }

        package init(json: JSONValue) {
            self.init(
                runtimeVersion: json["runtime_version"]?.stringValue ?? "", appVersion: json["app_version"]?.stringValue ?? "",
                osName: json["os_name"]?.stringValue ?? "", osVersion: json["os_version"]?.stringValue ?? "",
                store: json["store"]?.stringValue ?? "")
        }
    }

    /// The request that delivers `rows` (oldest first).
    package func request(for rows: [AnalyticsOutbox.Row]) -> HTTPRequest {
        let parsed = rows.compactMap { row -> (JSONValue, Context)? in
            guard let event = try? JSONValue(parsing: row.line) else { return nil }
            return (event, Context(json: (try? JSONValue(parsing: row.context)) ?? [:]))
        }
        let events = parsed.map(\.0)
        switch kind {
        case .posthog(let posthog):
            // https://posthog.com/docs/api/capture: POST /batch/ {api_key, batch: [...]}, deduplicated by uuid.
            let batch = parsed.map { Self.posthogEvent($0.0, context: $0.1) }
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
