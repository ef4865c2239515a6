import Foundation
import PaywallCore

/// How presenting behaves, and the paywalls of the app's config in the bundle cache: the
/// status wait, preload budgets, web-process recycling and download limits.
extension Paywalls {
    /// How long presenting waits for an unknown subscription status, in seconds (2 by
    /// default); then the paywall is shown anyway.
    public var statusTimeout: Double {
        get { presenter.statusTimeout }
        set { presenter.statusTimeout = newValue }
    }

    /// How many paywalls stay loaded in hidden windows (`preload(paywall:)`); the least
    /// recently preloaded goes first (4 by default).
    public var maxPreloaded: Int {
        get { presenter.maxPreloaded }
        set { presenter.maxPreloaded = newValue }
    }

    /// How much memory (MB) the preloaded paywalls may hold together (120 by default): each is
    /// charged what the process tree's resident memory grew by while it loaded; over the
    /// budget the least recently preloaded go first, the newest always stays.
    public var preloadMemoryBudgetMB: Double {
        get { presenter.preloadMemoryBudgetMB }
        set { presenter.preloadMemoryBudgetMB = newValue }
    }

    /// How much (MB) WebKit's web process may grow in a long-running process before paywalls
    /// get a fresh one, once nothing is on screen (reported as `webProcess_recycle`); nil or
    /// 0: never recycled (32 by default).
    public var webProcessGrowthBudgetMB: Double? {
        get { presenter.webProcessGrowthBudgetMB }
        set { presenter.webProcessGrowthBudgetMB = newValue }
    }

    /// What the bundle cache may download for one paywall (file and bundle sizes, the
    /// deadline, the idle timeout); a download past a limit stops with an error naming it.
    public var downloadLimits: DownloadLimits {
        get { runtime.downloadLimits }
        set { runtime.downloadLimits = newValue }
    }

    /// Brings every paywall of the config into the bundle cache (pinning those marked
    /// `preload`), as `paywall config load` does, so it shows offline from then on; a paywall
    /// not cached shows the fallback paywall meanwhile. Each entry's outcome, in the config's
    /// order; none when there is no config (`configProblem` says why).
    @discardableResult
    public func cacheConfiguredPaywalls() async throws -> [ConfiguredPaywalls.Outcome] {
        try await runtime.cacheConfiguredPaywalls()
    }

    /// Why the app's config could not be loaded, once loading ended without one.
    public var configProblem: String? { runtime.configProblem }
}
