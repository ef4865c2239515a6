import Foundation

/// What `Paywalls.configure(_:)` sets up, as plain data (every field has a JSON form for the
/// sidecar's `initialize`).
///
/// ```swift
/// let paywalls = try Paywalls.configure(.init(store: .controller(catalog: "products.json"), config: .url(configURL)),
///                                       purchaseController: myController)
/// ```
public struct PaywallsConfiguration: Sendable {
    /// Where the databases and the bundle cache live; nil: `$XDG_DATA_HOME/paywall`.
    public var dataDirectory: String?
    /// Where purchases go.
    public var store: Store
    /// The app's paywall config (paywalls and placements); nil: none.
    public var config: ConfigSource?
    /// How long loading the config from a URL may hold up what needs it before the cached
    /// copy is used (seconds).
    public var configTimeout: Double
    /// The user's locale (`de_DE`); nil: from `LC_ALL`/`LC_MESSAGES`/`LANG`.
    public var locale: String?
    /// The app's version, for the page's `device.appVersion` and support emails.
    public var appVersion: String
    /// The user at start; nil: the anonymous user.
    public var userId: String?
    /// What the runtime writes to stderr on its own.
    public var logLevel: LogLevel
    /// Where events are sent (PostHog, a webhook); nil: the config's `"analytics"`, if any.
    public var analytics: AnalyticsSettings?
    /// Opens the entitlement cache read-only when the data directory cannot be written,
    /// and makes no runtime state (for the CLI's commands that only read).
    package var readOnly = false

    public init(
        dataDirectory: String? = nil, store: Store = .none, config: ConfigSource? = nil, configTimeout: Double = 0.3,
        locale: String? = nil, appVersion: String = "", userId: String? = nil, logLevel: LogLevel = .warning,
        analytics: AnalyticsSettings? = nil
    ) {
        self.analytics = analytics
        self.dataDirectory = dataDirectory
        self.store = store
        self.config = config
        self.configTimeout = configTimeout
        self.locale = locale
        self.appVersion = appVersion
        self.userId = userId
        self.logLevel = logLevel
    }
}

extension PaywallsConfiguration {
    /// Where purchases go.
    public enum Store: Sendable, Equatable {
        /// No purchases (previews): the cached status is read, nothing is bought.
        case none
        /// The runtime's fake store, with the products of this catalog file (testers).
        case fakeStore(catalog: String)
        /// The app's own `PurchaseController`, selling the products of this catalog file.
        case controller(catalog: String)
    }

    /// The app's paywall config: a file, a URL fetched within `configTimeout` (its last good
    /// copy is used meanwhile, and offline), or one built in code.
    public enum ConfigSource: Sendable, Equatable {
        case file(String)
        case url(URL)
        case value(PaywallConfig)
    }

    /// What the runtime writes to stderr by itself (events always reach observers).
    public enum LogLevel: String, Sendable, CaseIterable, Comparable {
        /// Nothing.
        case none
        /// Problems that lose nothing: a moved-aside database, a cache write that failed.
        case warning
        /// Every event, one line each.
        case debug

        public static func < (a: LogLevel, b: LogLevel) -> Bool {
            allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
        }
    }
}
