import Foundation

/// Something that happened during a presentation, delivered to observers and the event log.
/// Names follow `PROTOCOL.md`; `EventName` lists them all.
public struct PaywallEvent: Equatable, Sendable {
    public var name: EventName
    public var params: [String: JSONValue]
    public var timestamp: Date

    public init(_ name: EventName, _ params: [String: JSONValue] = [:], timestamp: Date = Date()) {
        self.name = name
        self.params = params
        self.timestamp = timestamp
    }

    /// One line of the event log: `{"name": ..., "params": {...}, "timestamp": "ISO 8601"}`.
    public var jsonLine: String {
        let stamp = timestamp.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        let object: JSONValue = ["name": .string(name.rawValue), "params": .object(params), "timestamp": .string(stamp)]
        return object.jsonText
    }
}
