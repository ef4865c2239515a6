import Foundation

/// What a page is told after its `ping` (and on each presentation of a loaded page):
/// `products`, `template_variables` and `template_substitutions_prefix`, exactly as
/// `PROTOCOL.md` states them.
package struct TemplateVariables {
    package var slots: ProductSlots
    package var catalog: Catalog?
    package var purchases: Purchases?
    package var device: DeviceInfo
    package var locale: Locale
    /// The runtime's strings in the page's language (its period and trial texts).
    package var strings: StringTable
    /// The bundle's own tables: the page's `t` variable.
    package var bundleStrings: BundleStrings?
    package var userId: String
    package var userAttributes: [String: JSONValue]
    package var params: [String: JSONValue]
    package var totalPaywallViews: Int
    package var installedAt: Date
    /// When a paywall was last shown; nil: never (`device.daysSinceLastPaywallView` is then null).
    package var lastPaywallViewAt: Date?
    package var now: Date

    package init(
        slots: ProductSlots, catalog: Catalog?, purchases: Purchases?, device: DeviceInfo, locale: Locale,
        strings: StringTable, bundleStrings: BundleStrings? = nil, userId: String, userAttributes: [String: JSONValue] = [:],
        params: [String: JSONValue] = [:], totalPaywallViews: Int = 0, installedAt: Date = Date(), lastPaywallViewAt: Date? = nil,
        now: Date = Date()
    ) {
        self.slots = slots
        self.catalog = catalog
        self.purchases = purchases
        self.device = device
        self.locale = locale
        self.strings = strings
        self.bundleStrings = bundleStrings
        self.userId = userId
        self.userAttributes = userAttributes
        self.params = params
        self.totalPaywallViews = totalPaywallViews
        self.installedAt = installedAt
        self.lastPaywallViewAt = lastPaywallViewAt
        self.now = now
    }

    /// The three events, in order.
    @MainActor
    package var events: [JSONValue] {
        [
            slots.productsEvent,
            .object(["event_name": "template_variables", "variables": object]),
            .object(["event_name": "template_substitutions_prefix", "prefix": prefix.map(JSONValue.string) ?? .null]),
        ]
    }

    /// The `template_variables` event's `variables`: `user`, `device`, `params`, `products`,
    /// each slot's product attributes, and `t` (the bundle's texts). `paywall variables` prints it.
    @MainActor
    package var object: JSONValue {
        var slotValues: [String: JSONValue] = [:]
        var productList: [JSONValue] = []
        let savings = Savings(products: slots.entries.compactMap { catalog?.product(id: $0.productId) })
        for (slot, productId) in slots.entries {
            guard let product = catalog?.product(id: productId) else { continue }
            let attributes = ProductAttributes(
                product: product, locale: priceLocale, strings: strings,
                isSubscribed: purchases?.alreadyOwns(product) ?? false, now: now, savings: savings
            ).values
            slotValues[slot] = .object(attributes)
            productList.append(.object([slot: .object(attributes)]))
        }
        var variables: [String: JSONValue] = [
            "user": .object(userAttributes.merging(["id": .string(userId)]) { own, _ in own }),
            "device": .object(deviceVariables),
            "params": .object(params),
            "products": .array(productList),
        ]
        for (slot, value) in slotValues { variables[slot] = value }
        if let bundleStrings { variables["t"] = .object(bundleStrings.variables) }
        return .object(variables)
    }

    /// Prices are written in the page's language with the user's region: a page shown in its
    /// fallback language (a Hebrew user, a bundle with no Hebrew table) writes them as its
    /// English text does, not in Hebrew's order and spacing inside English ("Just  6.00$").
    var priceLocale: Locale {
        if locale.language.languageCode?.identifier == strings.textLanguage { return locale }
        return Locale(identifier: strings.textLanguage + (locale.region.map { "_\($0.identifier)" } ?? ""))
    }

    /// `freeTrial` when the primary product has a free trial the user may still take.
    @MainActor
    package var prefix: String? {
        guard let id = slots.productId(forSlot: "primary"), let product = catalog?.product(id: id),
            product.introductoryOffer?.mode == .freeTrial
        else { return nil }
        let eligible = purchases?.isEligibleForIntroOffer(product) ?? true
        return eligible ? "freeTrial" : nil
    }

    /// The `device` object (also what audience filters read as `device`).
    @MainActor
    package var deviceVariables: [String: JSONValue] {
        let status = purchases?.subscriptionStatus ?? .unknown
        let info = purchases?.customerInfo
        let activeProducts = Set(info?.entitlements.filter(\.isActive).flatMap(\.productIds) ?? []).sorted()
        let currency = locale.currency?.identifier ?? "USD"
        let day = 24.0 * 3600
        return [
            "deviceLocale": .string(locale.identifier),
            "deviceLanguageCode": .string(locale.language.languageCode?.identifier ?? "en"),
            "regionCode": .string(locale.region?.identifier ?? ""),
            "deviceCurrencyCode": .string(currency),
            "deviceCurrencySymbol": .string(locale.currencySymbol(for: currency)),
            "appVersion": .string(device.appVersion),
            "osVersion": .string(device.osVersion),
            "osName": .string(device.osName),
            "deviceModel": .string(device.deviceModel),
            "platform": "Linux",
            "interfaceStyle": .string(device.interfaceStyle),
            "isRTL": .bool(strings.isRightToLeft),
            "layoutDirection": .string(strings.isRightToLeft ? "rtl" : "ltr"),
            "timezoneOffset": .number(Double(TimeZone.current.secondsFromGMT(for: now))),
            "isSandbox": .bool((purchases?.controller as? SubscriptionManaging)?.isSandbox ?? false),
            "activeEntitlements": .array(status.activeEntitlements.sorted().map(JSONValue.string)),
            "activeProducts": .array(activeProducts.map(JSONValue.string)),
            "subscriptionStatus": .string(status.name.uppercased()),
            "subscriptionLapsed": .bool(info?.subscriptionLapsed ?? false),
            "totalPaywallViews": .number(Double(totalPaywallViews)),
            "daysSinceInstall": .number((now.timeIntervalSince(installedAt) / day).rounded(.down)),
            "minutesSinceInstall": .number((now.timeIntervalSince(installedAt) / 60).rounded(.down)),
            "daysSinceLastPaywallView": lastPaywallViewAt.map { .number((now.timeIntervalSince($0) / day).rounded(.down)) }
                ?? .null,
            "localDate": .string(Self.format(now, "yyyy-MM-dd", .current)),
            "localTime": .string(Self.format(now, "HH:mm:ss", .current)),
            "utcDate": .string(Self.format(now, "yyyy-MM-dd", TimeZone(identifier: "UTC")!)),
            "utcTime": .string(Self.format(now, "HH:mm:ss", TimeZone(identifier: "UTC")!)),
            "sdkVersion": .string(DeviceInfo.runtimeVersion),
        ]
    }

    private static func format(_ date: Date, _ pattern: String, _ zone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = pattern
        return formatter.string(from: date)
    }
}
