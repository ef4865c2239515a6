import Foundation

/// What the license-key store needs from the machine, injectable for tests: the clock, the
/// browser, this machine's name, and how often validation refreshes.
package struct LicenseServices: Sendable {
    /// The time now (tests move it to pass the offline grace period).
    package var now: @Sendable () -> Date
    /// Opens a checkout in the system browser; false when nothing could open it.
    package var openURL: @MainActor @Sendable (URL) -> Bool
    /// The instance name a key is activated under (the machine's pretty hostname).
    package var instanceName: @Sendable () -> String
    /// Seconds between background validations (6 hours): "at most every few hours".
    package var refreshInterval: Double
    /// Whether the store validates again by itself every `refreshInterval` while it lives
    /// (tests ask for refreshes instead).
    package var refreshesPeriodically: Bool

    package init(
        now: @escaping @Sendable () -> Date = { Date() },
        openURL: @escaping @MainActor @Sendable (URL) -> Bool = { SystemURLOpener.open($0) },
        instanceName: @escaping @Sendable () -> String = { InstanceName.current() },
        refreshInterval: Double = 6 * 3600, refreshesPeriodically: Bool = true
    ) {
        self.now = now
        self.openURL = openURL
        self.instanceName = instanceName
        self.refreshInterval = refreshInterval
        self.refreshesPeriodically = refreshesPeriodically
    }
}
