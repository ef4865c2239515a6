import Foundation

/// Something that happened during a presentation, delivered to observers and the event log.
/// Names follow `PROTOCOL.md`; `EventName` lists them all.
public struct PaywallEvent: Equatable, Sendable {
    public var name: EventName
    public var params: [String: JSONValue]
    public var timestamp: Date

    package init(_ name: EventName, _ params: [String: JSONValue] = [:], timestamp: Date = Date()) {
        self.name = name
        self.params = params
        self.timestamp = timestamp
    }

    /// One line of the event log: `{"name": ..., "params": {...}, "timestamp": "ISO 8601"}`.
    public var jsonLine: String {
        json.jsonText
    }

    /// The event as the event log writes it (and `paywall serve`'s `event` notification carries it).
    public var json: JSONValue {
        let stamp = timestamp.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        return ["name": .string(name.rawValue), "params": .object(params), "timestamp": .string(stamp)]
    }
}
