import Foundation

/// Fans events out to observers (the app's callbacks, the event log, the CLI).
@MainActor
public final class EventDispatcher {
    public typealias Observer = @MainActor (PaywallEvent) -> Void

    private var observers: [Int: Observer] = [:]
    private var nextToken = 0

    /// What the runtime adds to every event before any observer sees it (the user, the locale,
    /// a purchase's price); set by `PaywallRuntime`.
    package var enrich: (@MainActor (inout PaywallEvent) -> Void)?

    public init() {}

    /// Adds an observer; keep the returned token to remove it.
    @discardableResult
    public func observe(_ observer: @escaping Observer) -> Int {
        nextToken += 1
        observers[nextToken] = observer
        return nextToken
    }

    public func removeObserver(_ token: Int) {
        observers[token] = nil
    }

    package func emit(_ event: PaywallEvent) {
        var event = event
        if event.uuid == nil { event.uuid = UUID().uuidString.lowercased() }
        enrich?(&event)
        for token in observers.keys.sorted() { observers[token]?(event) }
    }

    package func emit(_ name: EventName, _ params: [String: JSONValue] = [:]) {
        emit(PaywallEvent(name, params))
    }
}
