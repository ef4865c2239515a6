import Foundation

/// What the runtime adds to its events (the user, the locale, a purchase's price and the
/// user's variants) and its analytics: consent and the last send at shutdown.
extension PaywallRuntime {
    /// Adds `user_id`, `locale`, and to `transaction_*` events the catalog's `price` text,
    /// `currency`, and the user's kept `assignments` (experiment -> variant), so a holdout
    /// user's purchase counts for the holdout.
    func enrich(_ event: inout PaywallEvent) {
        // The anonymous user is this install's key (`install:UUID`), as in experiments: one
        // `$anonymous` for every machine would count every anonymous install as one user.
        let store = assignmentStore()
        let userKey = store?.assignmentKey(user: userId) ?? userId
        event.userId = userKey
        event.locale = configuration.locale ?? SystemLocale.identifier(environment: ProcessInfo.processInfo.environment)
        guard event.name.rawValue.hasPrefix("transaction_") else { return }
        if let id = event.params["product_identifier"]?.stringValue, let product = catalog?.product(id: id) {
            event.params["price"] = event.params["price"] ?? .string(product.priceText)
            event.params["currency"] = event.params["currency"] ?? .string(product.currencyCode)
        }
        let assignments = store?.assignments(userKey: userKey) ?? [:]
        event.params["assignments"] = .object(assignments.mapValues(JSONValue.string))
    }

    /// The sinks of the config last loaded into the data directory (`paywall config load`, an
    /// app's run): a command given no config still sends what it and earlier runs queued.
    var cachedAnalytics: AnalyticsSettings? {
        guard let data = FileManager.default.contents(atPath: configCachePath) else { return nil }
        return (try? PaywallConfig(data: data, origin: configCachePath))?.analytics
    }

    /// What PostHog's events carry besides their params: versions, OS and store.
    var analyticsContext: AnalyticsSink.Context {
        let device = DeviceInfo.current(interfaceStyle: "", appVersion: configuration.appVersion)
        // A catalog selling through license keys does so whichever store is configured.
        let store =
            switch configuration.store {
            case _ where licenseStore != nil: licenseStore!.settings.provider.rawValue
            case .none: "none"
            case .fakeStore: "fake_store"
            case .controller: "controller"
            }
        return AnalyticsSink.Context(
            runtimeVersion: DeviceInfo.runtimeVersion, appVersion: configuration.appVersion, osName: device.osName,
            osVersion: device.osVersion, store: store)
    }

    /// Keeps the user's analytics consent for this data directory: off, nothing is queued or
    /// sent and the queue is emptied.
    package func setAnalyticsConsent(_ consent: Bool) throws {
        guard let analytics else { throw ConfigureError(part: "analytics", underlying: NoOutbox()) }
        try analytics.setConsent(consent)
    }

    /// Sends what is queued within `seconds` and stops sending: true when nothing is left.
    @discardableResult
    package func shutdownAnalytics(within seconds: TimeInterval = 2) async -> Bool {
        await analytics?.shutdown(within: seconds) ?? true
    }

    struct NoOutbox: Error, CustomStringConvertible {
        var description: String {
            "the analytics outbox is not open (the runtime is read-only, or analytics.sqlite could not be opened)"
        }
    }
}
