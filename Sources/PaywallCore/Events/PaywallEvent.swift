import Foundation

/// Something that happened during a presentation, delivered to observers and the event log.
/// Names follow `PROTOCOL.md`; `EventName` lists them all.
public struct PaywallEvent: Equatable, Sendable {
    public var name: EventName
    public var params: [String: JSONValue]
    public var timestamp: Date
    /// The event's own id (lowercase UUID), set when it is emitted: a sink that gets it twice
    /// (a send repeated after a kill) keeps it once.
    public var uuid: String?
    /// The user it happened to (the runtime's user id; `$anonymous` before any identify).
    public var userId: String?
    /// The user's locale (`de_DE`).
    public var locale: String?

    package init(_ name: EventName, _ params: [String: JSONValue] = [:], timestamp: Date = Date()) {
        self.name = name
        self.params = params
        self.timestamp = timestamp
    }

    /// One line of the event log: `{"name": ..., "params": {...}, "timestamp": "ISO 8601", "uuid": ...,
    /// "user_id": ..., "locale": ...}` (the last three once a runtime emitted it).
    public var jsonLine: String {
        json.jsonText
    }

    /// The event as the event log writes it (and `paywall serve`'s `event` notification carries it).
    public var json: JSONValue {
        let stamp = timestamp.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        var line: [String: JSONValue] = [
            "name": .string(name.rawValue), "params": .object(params), "timestamp": .string(stamp),
        ]
        if let uuid { line["uuid"] = .string(uuid) }
        if let userId { line["user_id"] = .string(userId) }
        if let locale { line["locale"] = .string(locale) }
        return .object(line)
    }
}
