import Foundation

/// The part of the runtime an app configures once and that needs no window: the data
/// directory, purchases through the app's controller or the fake store, the cached customer
/// info and its changes, the user, the app's paywall config and its placements, and the
/// bundle cache. The host's `Paywalls` adds presenting on top; commands without a window use
/// this alone.
@MainActor
package final class PaywallRuntime {
    package typealias Configuration = PaywallsConfiguration
    package typealias Store = PaywallsConfiguration.Store
    package typealias ConfigSource = PaywallsConfiguration.ConfigSource
    package typealias LogLevel = PaywallsConfiguration.LogLevel

    /// Why configuring failed: the part that could not be set up, and what went wrong.
    package struct ConfigureError: Error, CustomStringConvertible {
        /// `entitlement cache`, `fake store`, `runtime state`, ...; nil when the error names it.
        package let part: String?
        package let underlying: any Error
        package var description: String { part.map { "\($0): \(underlying)" } ?? "\(underlying)" }
    }

    package let configuration: Configuration
    /// Every event of the runtime, of every presentation that shares it.
    package let events: EventDispatcher
    package let dataDirectory: DataDirectory
    package let entitlementCache: EntitlementCache
    /// The products on sale; nil without a store.
    package let catalog: Catalog?
    /// The fake store, when the configuration sells through it.
    package let fakeStore: FakeStore?
    /// The license-key store, when the catalog sells through license keys (a license `"store"`).
    package let licenseStore: LicenseKeyStore?
    /// Purchases and the subscription status; nil without a store.
    package let purchases: Purchases?
    /// Install date, view counters, user attributes; nil when configured read-only.
    package let state: RuntimeState?
    /// The events' way to the seller's sinks; nil when configured read-only or the outbox
    /// cannot be opened.
    package private(set) var analytics: AnalyticsPipeline?
    /// Told about changes of the customer info, as `customerInfoUpdates` is.
    package weak var delegate: PaywallRuntimeDelegate?

    private var anonymousUserId: String
    private var streams: [UUID: AsyncStream<CustomerInfo>.Continuation] = [:]
    private var configLoad: Task<PaywallConfig?, Never>?
    /// The databases found unusable at start and moved aside (each also reported as
    /// `database_recovered`), in words.
    package private(set) var recoveries: [String] = []
    /// Why the config could not be loaded, once loading ended without one.
    package private(set) var configProblem: String?
    /// The redemption of the redeem links kept from before configuration; nil when none were.
    package internal(set) var deepLinkRedemptions: Task<[DeepLinkOutcome], Never>?

    /// Sets the runtime up: opens (creating) the data directory's databases, the store and
    /// the purchases, reads the cached status (right at once, offline), and starts loading the
    /// config. `controller` is the app's purchase controller for `.controller(catalog:)`. A
    /// catalog with a license `"store"` sells through the license-key store instead,
    /// whichever store is named, using `licenseServices` (clock, browser, machine name); a
    /// redeem link kept from before configuration is then redeemed.
    package init(
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
                if controller != nil {
                    throw ConfigureError(
                        part: nil, underlying: ControllerBesideLicenses(catalog: path, store: licensing.provider.rawValue))
                }
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
            self.purchases = purchases
        }
        // Before the first refresh, so its events carry the user and locale too.
        events.enrich = { [weak self] event in self?.enrich(&event) }
        if let purchases {
            do {
                // Also what repairs a cache an earlier write failed on.
                try purchases.refresh()
            } catch {
                throw ConfigureError(part: licenseStore == nil ? "fake store" : "license store", underlying: error)
            }
        }
        if !configuration.readOnly {
            do {
                let outbox = try AnalyticsOutbox(path: directory.analytics)
                recovered.append(outbox.recovery)
                analytics = AnalyticsPipeline(
                    outbox: outbox, events: events, context: analyticsContext, sandbox: fakeStore != nil)
            } catch {
                FileHandle.standardError.write(Data("paywall: warning: analytics outbox: \(error); no events are sent\n".utf8))
            }
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
        if let settings = configuration.analytics { analytics?.resolve(settings) }
        if let source = configuration.config { startLoadingConfig(source) } else { analytics?.resolve(cachedAnalytics) }
        if let licenseStore { startLicenses(licenseStore) }
    }

    struct ControllerBesideLicenses: Error, CustomStringConvertible {
        let catalog: String
        let store: String
        var description: String {
            "\(catalog) sells through license keys (\"store\": \"\(store)\"), but a purchase controller was given too; "
                + "pass no controller, or remove \"store\" from the catalog to sell through the controller"
        }
    }

    struct MissingController: Error, CustomStringConvertible {
        var description: String { "the store is the app's purchase controller, but no controller was given" }
    }

    // MARK: The user and their customer info

    /// The user purchases and attributes belong to.
    package var userId: String { purchases?.userId ?? currentUserWithoutPurchases }
    private var currentUserWithoutPurchases: String

    /// The current user's customer info, right from the cache at start (offline too).
    package var customerInfo: CustomerInfo { current.info }

    /// The current user's subscription status, right from the cache at start.
    package var subscriptionStatus: SubscriptionStatus { current.status }

    /// Both, from the purchases, or without a store from one read of the cache.
    private var current: (status: SubscriptionStatus, info: CustomerInfo) {
        if let purchases { return (purchases.subscriptionStatus, purchases.customerInfo) }
        return (try? entitlementCache.coldStartStatus(user: userId)) ?? (.unknown, CustomerInfo(transactions: [], now: Date()))
    }

    /// Every change of the customer info from now on (a purchase, a restore, a refund, another
    /// user), delivered on the main actor. Ends when the runtime goes.
    package var customerInfoUpdates: AsyncStream<CustomerInfo> {
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
    package func identify(_ userId: String) throws {
        guard userId != self.userId else { return }
        if let purchases {
            try purchases.identify(userId)
            try? purchases.refresh()
        } else {
            currentUserWithoutPurchases = userId
        }
        // The install's anonymous variants stay the user's through their first identify.
        try? assignmentStore()?.carryOverOnFirstIdentify(to: userId)
        customerInfoChanged()
    }

    /// Signs out: back to the anonymous user, whose attributes from before are forgotten, so
    /// nothing of the previous user (attributes, customer info) is shown to the next.
    package func reset() throws {
        try state?.removeUserAttributes(user: anonymousUserId)
        if userId == anonymousUserId {
            customerInfoChanged()
        } else {
            try identify(anonymousUserId)
        }
    }

    /// Sets attributes of the current user (a null value removes one), for the pages' `user` variables.
    package func setUserAttributes(_ attributes: [String: JSONValue]) throws {
        try state?.setUserAttributes(attributes, user: userId)
    }

    /// The app's word on the status, when its controller owns it (no fake store).
    package func setSubscriptionStatus(_ status: SubscriptionStatus) throws {
        guard let purchases else { throw ConfigureError(part: nil, underlying: NoStore()) }
        try purchases.setSubscriptionStatus(status)
    }

    struct NoStore: Error, CustomStringConvertible {
        var description: String { "no store is configured: configure the runtime with a purchase controller or the fake store" }
    }

    // MARK: The config and its placements

    private var openedBundleCache: BundleCache?
    /// What the bundle cache may download (`Paywalls.downloadLimits`).
    package var downloadLimits = DownloadLimits() {
        didSet { openedBundleCache?.limits = downloadLimits }
    }
    /// The data directory's `experiments.sqlite` once opened (`assignmentStore()`).
    var openedAssignmentStore: AssignmentStore?

    /// The data directory's bundle cache (opened, creating it, on first use).
    package func bundleCache() throws -> BundleCache {
        if let openedBundleCache { return openedBundleCache }
        let cache = try BundleCache(directory: dataDirectory.bundleCache)
        cache.limits = downloadLimits
        openedBundleCache = cache
        return cache
    }

    /// The app's config, once loaded (within `configTimeout` from a URL, else its cached copy);
    /// nil when none is configured or none could be had (`configProblem` says why).
    package func config() async -> PaywallConfig? {
        await configLoad?.value
    }

    /// Where the config's last good copy is kept.
    package var configCachePath: String { dataDirectory.configCache }

    private func startLoadingConfig(_ source: ConfigSource) {
        let location: String
        switch source {
        case .value(let config):
            reportRefusedCampaigns(config)
            analytics?.resolve(config.analytics)
            configLoad = Task { config }
            return
        case .file(let path): location = path
        case .url(let url): location = url.absoluteString
        }
        let loader = ConfigLoader(cachePath: configCachePath, timeout: configuration.configTimeout)
        let fetch = ConfigLoader.fetcher(for: location)
        configLoad = Task { @MainActor [weak self] in
            do {
                let config = try await loader.load(origin: location, fetch: fetch).0
                self?.reportRefusedCampaigns(config)
                self?.analytics?.resolve(config.analytics)
                return config
            } catch {
                self?.analytics?.resolve(nil)
                self?.configProblem = "\(error)"
                return nil
            }
        }
    }

    /// Brings every paywall of the config into the bundle cache (pinning those marked
    /// `preload`), as `paywall config load` does; a paywall that is not cached shows the
    /// fallback paywall meanwhile. Nothing when there is no config.
    @discardableResult
    package func cacheConfiguredPaywalls() async throws -> [ConfiguredPaywalls.Outcome] {
        guard let config = await config() else { return [] }
        return await ConfiguredPaywalls.cache(config, in: try bundleCache())
    }

    /// What registering `placement` leads to, by the config and the user's status: the
    /// paywall to show and its condition, or why none is.
    package func decide(placement name: String) async -> PlacementDecision {
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
package enum PlacementDecision: Equatable, Sendable {
    /// Show `paywall` under `condition`; `gated`: the feature waits for access.
    case show(paywall: PaywallConfig.Entry, gated: Bool, condition: PresentationCondition)
    /// The config has no such placement (or there is no config): Superwall's `placementNotFound`.
    case notFound(reason: String)
}

/// Hears about the customer info's changes (`Paywalls.customerInfoDelegate`; the same as
/// `Paywalls.customerInfoUpdates`).
@MainActor
public protocol PaywallRuntimeDelegate: AnyObject {
    /// The customer info changed: a purchase, restore, refund, renewal or another user.
    func customerInfoDidChange(_ info: CustomerInfo)
}
