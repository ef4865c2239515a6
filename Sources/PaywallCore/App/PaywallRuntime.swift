import Foundation

/// The part of the runtime an app configures once and that needs no window: the data
/// directory, purchases through the app's controller or the fake store, the cached customer
/// info and its changes, the user, the app's paywall config and its placements, and the
/// bundle cache. The host's `Paywalls` adds presenting on top; commands without a window use
/// this alone.
@MainActor
public final class PaywallRuntime {
    /// What to set up, as plain data (every field has a JSON form for the sidecar).
    public struct Configuration: Sendable {
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
        /// Opens the entitlement cache read-only when the data directory cannot be written,
        /// and makes no runtime state (for commands that only read).
        public var readOnly: Bool

        public init(
            dataDirectory: String? = nil, store: Store = .none, config: ConfigSource? = nil, configTimeout: Double = 0.3,
            locale: String? = nil, appVersion: String = "", userId: String? = nil, logLevel: LogLevel = .warning,
            readOnly: Bool = false
        ) {
            self.dataDirectory = dataDirectory
            self.store = store
            self.config = config
            self.configTimeout = configTimeout
            self.locale = locale
            self.appVersion = appVersion
            self.userId = userId
            self.logLevel = logLevel
            self.readOnly = readOnly
        }
    }

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

    /// Why configuring failed: the part that could not be set up, and what went wrong.
    public struct ConfigureError: Error, CustomStringConvertible {
        /// `entitlement cache`, `fake store`, `runtime state`, ...; nil when the error names it.
        public let part: String?
        public let underlying: any Error
        public var description: String { part.map { "\($0): \(underlying)" } ?? "\(underlying)" }
    }

    public let configuration: Configuration
    /// Every event of the runtime, of every presentation that shares it.
    public let events: EventDispatcher
    public let dataDirectory: DataDirectory
    public let entitlementCache: EntitlementCache
    /// The products on sale; nil without a store.
    public let catalog: Catalog?
    /// The fake store, when the configuration sells through it.
    public let fakeStore: FakeStore?
    /// The license-key store, when the catalog sells through license keys (`"store": "lemon_squeezy"`).
    public let licenseStore: LicenseKeyStore?
    /// Purchases and the subscription status; nil without a store.
    public let purchases: Purchases?
    /// Install date, view counters, user attributes; nil when configured read-only.
    public let state: RuntimeState?
    /// Told about changes of the customer info, as `customerInfoUpdates` is.
    public weak var delegate: PaywallRuntimeDelegate?

    private var anonymousUserId: String
    private var streams: [UUID: AsyncStream<CustomerInfo>.Continuation] = [:]
    private var configLoad: Task<PaywallConfig?, Never>?
    /// The databases found unusable at start and moved aside (each also reported as
    /// `database_recovered`), in words.
    public private(set) var recoveries: [String] = []
    /// Why the config could not be loaded, once loading ended without one.
    public private(set) var configProblem: String?
    /// The redemption of the redeem links kept from before configuration; nil when none were.
    public internal(set) var deepLinkRedemptions: Task<[DeepLinkOutcome], Never>?

    /// Sets the runtime up: opens (creating) the data directory's databases, the store and
    /// the purchases, reads the cached status (right at once, offline), and starts loading the
    /// config. `controller` is the app's purchase controller for `.controller(catalog:)`. A
    /// catalog with `"store": "lemon_squeezy"` sells through the license-key store instead,
    /// whichever store is named, using `licenseServices` (clock, browser, machine name); a
    /// redeem link kept from before configuration is then redeemed.
    public init(
        _ configuration: Configuration, events: EventDispatcher = EventDispatcher(),
        controller: PurchaseController? = nil, licenseServices: LicenseServices = LicenseServices()
    ) throws(ConfigureError) {
        self.configuration = configuration
        self.events = events
        anonymousUserId = Purchases.anonymousUser
        let userId = configuration.userId ?? Purchases.anonymousUser
        currentUserWithoutPurchases = userId
        Self.log(events, level: configuration.logLevel)
        let directory: DataDirectory
        do {
            directory = try DataDirectory(explicit: configuration.dataDirectory)
        } catch {
            throw ConfigureError(part: nil, underlying: error)
        }
        dataDirectory = directory
        let cache: EntitlementCache
        do {
            cache = try EntitlementCache(
                path: directory.entitlementCache, readOnly: configuration.readOnly && !directory.isWritable)
        } catch {
            throw ConfigureError(part: "entitlement cache", underlying: error)
        }
        entitlementCache = cache
        var recovered = [cache.recovery]
        do {
            state = configuration.readOnly ? nil : try RuntimeState(path: directory.runtimeState)
        } catch {
            throw ConfigureError(part: "runtime state", underlying: error)
        }
        recovered.append(state?.recovery)
        switch configuration.store {
        case .none:
            (catalog, fakeStore, licenseStore, purchases) = (nil, nil, nil, nil)
        case .fakeStore(let path), .controller(let path):
            let catalog: Catalog
            do { catalog = try CatalogLoader.load(path: path) } catch { throw ConfigureError(part: nil, underlying: error) }
            self.catalog = catalog
            var source: FakeStore?
            var licenses: LicenseKeyStore?
            if let licensing = catalog.licensing {
                if controller != nil { throw ConfigureError(part: nil, underlying: ControllerBesideLicenses(catalog: path)) }
                do {
                    licenses = try LicenseKeyStore.make(
                        catalog: catalog, settings: licensing, databasePath: directory.licenses,
                        events: events, services: licenseServices)
                } catch {
                    throw ConfigureError(part: "license store", underlying: error)
                }
                recovered.append(licenses?.recovery)
            } else if case .fakeStore = configuration.store {
                do {
                    source = try FakeStore(catalog: catalog, databasePath: directory.fakeStore)
                } catch {
                    throw ConfigureError(part: "fake store", underlying: error)
                }
                recovered.append(source?.recovery)
            } else if controller == nil {
                throw ConfigureError(part: nil, underlying: MissingController())
            }
            fakeStore = source
            licenseStore = licenses
            let purchases: Purchases
            do {
                let store: (PurchaseController & TransactionSource)? = source ?? licenses
                purchases = try Purchases(
                    controller: store ?? controller!, catalog: catalog, cache: cache,
                    transactionSource: store, events: events, userId: userId)
            } catch {
                throw ConfigureError(part: "entitlement cache", underlying: error)
            }
            do {
                // Also what repairs a cache an earlier write failed on.
                try purchases.refresh()
            } catch {
                throw ConfigureError(part: licenses == nil ? "fake store" : "license store", underlying: error)
            }
            self.purchases = purchases
        }
        for recovery in recovered.compactMap({ $0 }) {
            recoveries.append(recovery.description)
            events.emit(
                .databaseRecovered,
                [
                    "path": .string(recovery.path), "moved_to": .string(recovery.movedTo), "reason": .string(recovery.reason),
                ])
        }
        if let refused = cache.writeRefused {
            events.emit(
                .entitlementCacheWriteFail,
                [
                    "message": .string(
                        "the entitlement cache could not be opened for writing (\(refused)); it is read as it is, "
                            + "and the next start with room on the disk brings it up to date")
                ])
        }
        events.observe { [weak self] event in
            guard let self, event.name == .customerInfoDidChange || event.name == .subscriptionStatusDidChange else { return }
            self.customerInfoChanged()
        }
        if let source = configuration.config { startLoadingConfig(source) }
        if let licenseStore { startLicenses(licenseStore) }
    }

    struct ControllerBesideLicenses: Error, CustomStringConvertible {
        let catalog: String
        var description: String {
            "\(catalog) sells through license keys (\"store\": \"lemon_squeezy\"), but a purchase controller was given too; "
                + "pass no controller, or remove \"store\" from the catalog to sell through the controller"
        }
    }

    struct MissingController: Error, CustomStringConvertible {
        var description: String { "the store is the app's purchase controller, but no controller was given" }
    }

    // MARK: The user and their customer info

    /// The user purchases and attributes belong to.
    public var userId: String { purchases?.userId ?? currentUserWithoutPurchases }
    private var currentUserWithoutPurchases: String

    /// The current user's customer info, right from the cache at start (offline too).
    public var customerInfo: CustomerInfo { current.info }

    /// The current user's subscription status, right from the cache at start.
    public var subscriptionStatus: SubscriptionStatus { current.status }

    /// Both, from the purchases, or without a store from one read of the cache.
    private var current: (status: SubscriptionStatus, info: CustomerInfo) {
        if let purchases { return (purchases.subscriptionStatus, purchases.customerInfo) }
        return (try? entitlementCache.coldStartStatus(user: userId)) ?? (.unknown, CustomerInfo(transactions: [], now: Date()))
    }

    /// Every change of the customer info from now on (a purchase, a restore, a refund, another
    /// user), delivered on the main actor. Ends when the runtime goes.
    public var customerInfoUpdates: AsyncStream<CustomerInfo> {
        let (stream, continuation) = AsyncStream<CustomerInfo>.makeStream(bufferingPolicy: .bufferingNewest(16))
        let id = UUID()
        streams[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { @MainActor in self?.streams[id] = nil }
        }
        return stream
    }

    /// What was last delivered: one change reported as both a status and an info event (or
    /// an `identify` that reports it too) reaches the app once.
    private var delivered: (status: SubscriptionStatus, info: CustomerInfo)?

    private func customerInfoChanged() {
        let current = self.current
        if let delivered, delivered.status == current.status, delivered.info == current.info { return }
        delivered = current
        for continuation in streams.values { continuation.yield(current.info) }
        delegate?.customerInfoDidChange(current.info)
    }

    /// Signs `userId` in: their purchases, cached status and attributes apply at once.
    public func identify(_ userId: String) throws {
        guard userId != self.userId else { return }
        if let purchases {
            try purchases.identify(userId)
            try? purchases.refresh()
        } else {
            currentUserWithoutPurchases = userId
        }
        customerInfoChanged()
    }

    /// Signs out: back to the anonymous user, whose attributes from before are forgotten, so
    /// nothing of the previous user (attributes, customer info) is shown to the next.
    public func reset() throws {
        try state?.removeUserAttributes(user: anonymousUserId)
        if userId == anonymousUserId {
            customerInfoChanged()
        } else {
            try identify(anonymousUserId)
        }
    }

    /// Sets attributes of the current user (a null value removes one), for the pages' `user` variables.
    public func setUserAttributes(_ attributes: [String: JSONValue]) throws {
        try state?.setUserAttributes(attributes, user: userId)
    }

    /// The app's word on the status, when its controller owns it (no fake store).
    public func setSubscriptionStatus(_ status: SubscriptionStatus) throws {
        guard let purchases else { throw ConfigureError(part: nil, underlying: NoStore()) }
        try purchases.setSubscriptionStatus(status)
    }

    struct NoStore: Error, CustomStringConvertible {
        var description: String { "no store is configured: configure the runtime with a purchase controller or the fake store" }
    }

    // MARK: The config and its placements

    private var openedBundleCache: BundleCache?

    /// The data directory's bundle cache (opened, creating it, on first use).
    public func bundleCache() throws -> BundleCache {
        if let openedBundleCache { return openedBundleCache }
        let cache = try BundleCache(directory: dataDirectory.bundleCache)
        openedBundleCache = cache
        return cache
    }

    /// The app's config, once loaded (within `configTimeout` from a URL, else its cached copy);
    /// nil when none is configured or none could be had (`configProblem` says why).
    public func config() async -> PaywallConfig? {
        await configLoad?.value
    }

    /// Where the config's last good copy is kept.
    public var configCachePath: String { dataDirectory.configCache }

    private func startLoadingConfig(_ source: ConfigSource) {
        let location: String
        switch source {
        case .value(let config):
            configLoad = Task { config }
            return
        case .file(let path): location = path
        case .url(let url): location = url.absoluteString
        }
        let loader = ConfigLoader(cachePath: configCachePath, timeout: configuration.configTimeout)
        let fetch = ConfigLoader.fetcher(for: location)
        configLoad = Task { @MainActor [weak self] in
            do {
                return try await loader.load(origin: location, fetch: fetch).0
            } catch {
                self?.configProblem = "\(error)"
                return nil
            }
        }
    }

    /// Brings every paywall of the config into the bundle cache (pinning those marked
    /// `preload`), as `paywall config load` does; a paywall that is not cached shows the
    /// fallback paywall meanwhile. Nothing when there is no config.
    @discardableResult
    public func cacheConfiguredPaywalls() async throws -> [ConfiguredPaywalls.Outcome] {
        guard let config = await config() else { return [] }
        return await ConfiguredPaywalls.cache(config, in: try bundleCache())
    }

    /// What registering `placement` leads to, by the config and the user's status: the
    /// paywall to show and its condition, or why none is.
    public func decide(placement name: String) async -> PlacementDecision {
        guard let config = await config() else {
            return .notFound(reason: configProblem.map { "no config: \($0)" } ?? "no config is configured")
        }
        guard let (placement, paywall, condition) = config.placement(name) else {
            let known = config.placements.keys.sorted()
            return .notFound(
                reason: "no placement \"\(name)\" in the config"
                    + (known.isEmpty ? "" : " (placements: \(known.joined(separator: ", ")))"))
        }
        return .show(paywall: paywall, gated: placement.gated, condition: condition)
    }

    // MARK: Logging

    private static func log(_ events: EventDispatcher, level: LogLevel) {
        guard level > .none else { return }
        events.observe { event in
            let line: String?
            switch event.name {
            case _ where level >= .debug: line = event.jsonLine
            case .databaseRecovered, .entitlementCacheWriteFail:
                line =
                    "warning: \(event.name.rawValue): \(event.params["message"]?.stringValue ?? event.params["reason"]?.stringValue ?? "")"
            default: line = nil
            }
            if let line { FileHandle.standardError.write(Data("paywall: \(line)\n".utf8)) }
        }
    }
}

/// What registering a placement leads to.
public enum PlacementDecision: Equatable, Sendable {
    /// Show `paywall` under `condition`; `gated`: the feature waits for access.
    case show(paywall: PaywallConfig.Entry, gated: Bool, condition: PresentationCondition)
    /// The config has no such placement (or there is no config): Superwall's `placementNotFound`.
    case notFound(reason: String)
}

/// Hears about the runtime's changes (the same as `PaywallRuntime.customerInfoUpdates`).
@MainActor
public protocol PaywallRuntimeDelegate: AnyObject {
    /// The customer info changed: a purchase, restore, refund, renewal or another user.
    func customerInfoDidChange(_ info: CustomerInfo)
}
