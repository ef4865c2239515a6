/// Tracks when a page is ready to be shown, scripted or captured: it has finished loading and
/// has sent its `ping`, or finished loading and no ping came within the grace period.
package struct PageReadiness: Equatable, Sendable {
    /// How long to wait for a ping after the load finished, in seconds.
    package static let pingGracePeriod = 2.0

    package private(set) var loadFinished = false
    package private(set) var pingReceived = false
    package private(set) var graceElapsed = false
    /// Set once `isReady` was first reported, so readiness fires once per load.
    private var reported = false

    package init() {}

    package var isReady: Bool { loadFinished && (pingReceived || graceElapsed) }

    /// A new load (first load or reload) starts over.
    package mutating func loadStarted() { self = PageReadiness() }

    /// Returns true when this change made the page ready for the first time in this load.
    package mutating func loadDidFinish() -> Bool {
        loadFinished = true
        return takeReady()
    }

    package mutating func pingDidArrive() -> Bool {
        pingReceived = true
        return takeReady()
    }

    package mutating func graceDidElapse() -> Bool {
        graceElapsed = true
        return takeReady()
    }

    private mutating func takeReady() -> Bool {
        guard isReady, !reported else { return false }
        reported = true
        return true
    }
}
