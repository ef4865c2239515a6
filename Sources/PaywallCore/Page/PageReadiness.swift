/// Tracks when a page is ready to be shown, scripted or captured: it has finished loading and
/// has sent its `ping`, or finished loading and no ping came within the grace period.
public struct PageReadiness: Equatable, Sendable {
    /// How long to wait for a ping after the load finished, in seconds.
    public static let pingGracePeriod = 2.0

    public private(set) var loadFinished = false
    public private(set) var pingReceived = false
    public private(set) var graceElapsed = false
    /// Set once `isReady` was first reported, so readiness fires once per load.
    private var reported = false

    public init() {}

    public var isReady: Bool { loadFinished && (pingReceived || graceElapsed) }

    /// A new load (first load or reload) starts over.
    public mutating func loadStarted() { self = PageReadiness() }

    /// Returns true when this change made the page ready for the first time in this load.
    public mutating func loadDidFinish() -> Bool {
        loadFinished = true
        return takeReady()
    }

    public mutating func pingDidArrive() -> Bool {
        pingReceived = true
        return takeReady()
    }

    public mutating func graceDidElapse() -> Bool {
        graceElapsed = true
        return takeReady()
    }

    private mutating func takeReady() -> Bool {
        guard isReady, !reported else { return false }
        reported = true
        return true
    }
}
