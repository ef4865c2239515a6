import Foundation

/// The template attributes of one product (`PROTOCOL.md`, "Product ATTRS"), formatted for a
/// locale: prices in the product's currency as the locale writes them, per-day/week/month/year
/// prices derived from the period, trial lengths and a human trial text.
package struct ProductAttributes {
    package let product: Product
    package let locale: Locale
    package let strings: StringTable
    /// The user is subscribed to what this product grants.
    package let isSubscribed: Bool
    /// For `trialPeriodEndDate`: when a trial taken now would end.
    package let now: Date
    /// For `savings`: the products this one is compared with (the page's slots).
    package let savings: Savings

    package init(
        product: Product, locale: Locale, strings: StringTable, isSubscribed: Bool, now: Date,
        savings: Savings = Savings(products: [])
    ) {
        self.product = product
        self.locale = locale
        self.strings = strings
        self.isSubscribed = isSubscribed
        self.now = now
        self.savings = savings
    }

    /// Every attribute: all strings, except `isSubscribed` (a boolean).
    package var values: [String: JSONValue] {
        var a: [String: String] = [
            "identifier": product.id,
            "rawPrice": raw(product.price),
            "price": money(product.price),
            "locale": locale.identifier,
            "languageCode": locale.language.languageCode?.identifier ?? "en",
            "currencyCode": product.currencyCode,
            "currencySymbol": locale.currencySymbol(for: product.currencyCode),
            "savings": savings.text(for: product, locale: locale),
        ]
        let period = product.period
        a["period"] = period.map(unitName) ?? ""
        a["periodAlt"] = period.map(altName) ?? ""
        a["localizedPeriod"] = period.map(countedName) ?? ""
        a["periodly"] = period.map(periodly) ?? ""
        for (key, value) in perPeriodPrices(of: product.price, over: period) { a[key + "Price"] = value }
        for (key, value) in lengths(of: period) { a["period" + key] = value }

        let offer = product.introductoryOffer
        let trialPeriod = offer?.totalPeriod
        a["rawTrialPeriodPrice"] = raw(offer?.price ?? 0)
        a["trialPeriodPrice"] = money(offer?.price ?? 0)
        for (key, value) in perPeriodPrices(of: offer?.price ?? 0, over: offer?.period) {
            a["trialPeriod" + key.prefix(1).uppercased() + key.dropFirst() + "Price"] = value
        }
        for (key, value) in lengths(of: trialPeriod) { a["trialPeriod" + key] = value }
        a["trialPeriodText"] = trialPeriod.map { strings.plural("trial.\($0.unit.name)", count: $0.value) } ?? ""
        a["trialPeriodEndDate"] =
            trialPeriod.map {
                $0.advance(now).formatted(Date.FormatStyle(date: .abbreviated, time: .omitted).locale(locale))
            } ?? ""
        var values = a.mapValues(JSONValue.string)
        values["isSubscribed"] = .bool(isSubscribed)
        return values
    }

    // MARK: Prices

    /// A price as the locale writes it. In a right-to-left page it is a Unicode isolate (FSI ...
    /// PDI), as a page fills it into running text, and a Latin currency symbol inside it is a
    /// left-to-right isolate of its own: otherwise its "$" takes the right-to-left side and
    /// "US$" reads "$US".
    private func money(_ amount: Decimal) -> String {
        let text = amount.formatted(.currency(code: product.currencyCode).locale(locale))
        guard strings.isRightToLeft else { return text }
        let symbol = text.replacing(/[A-Za-z]+\p{Sc}?|\p{Sc}[A-Za-z]+/) { "\u{2066}\($0.output)\u{2069}" }
        return "\u{2068}\(symbol)\u{2069}"
    }

    private func raw(_ amount: Decimal) -> String {
        "\(amount)"
    }

    /// `daily`, `weekly`, `monthly`, `yearly` prices for `amount` paid once per `period`;
    /// empty strings when there is no period (one-time purchases).
    private func perPeriodPrices(of amount: Decimal, over period: SubscriptionPeriod?) -> [String: String] {
        guard let period else { return ["daily": "", "weekly": "", "monthly": "", "yearly": ""] }
        let yearly = amount * period.timesPerYear / Decimal(period.value)
        return [
            "daily": money(yearly / 365), "weekly": money(yearly / 52), "monthly": money(yearly / 12),
            "yearly": money(yearly),
        ]
    }

    // MARK: Periods

    /// Whole `Days`, `Weeks`, `Months`, `Years` in a period (a month is 30 days, a year 365);
    /// "0" for none.
    private func lengths(of period: SubscriptionPeriod?) -> [String: String] {
        guard let period else { return ["Days": "0", "Weeks": "0", "Months": "0", "Years": "0"] }
        let days =
            switch period.unit {
            case .day: period.value
            case .week: period.value * 7
            case .month: period.value * 30
            case .year: period.value * 365
            }
        let months =
            switch period.unit {
            case .day, .week: days / 30
            case .month: period.value
            case .year: period.value * 12
            }
        return ["Days": String(days), "Weeks": String(days / 7), "Months": String(months), "Years": String(months / 12)]
    }

    /// `month` for P1M, `3 months` for P3M.
    private func unitName(_ period: SubscriptionPeriod) -> String {
        period.value == 1 ? strings.text("unit.\(period.unit.name)") : countedName(period)
    }

    /// Like `unitName`, but P3M is a quarter.
    private func altName(_ period: SubscriptionPeriod) -> String {
        period == SubscriptionPeriod(value: 3, unit: .month) ? strings.text("unit.quarter") : unitName(period)
    }

    /// `1 month`, `3 months`, in the locale's words and plural forms.
    private func countedName(_ period: SubscriptionPeriod) -> String {
        strings.plural("period.\(period.unit.name)", count: period.value)
    }

    /// `monthly`, or `every 3 months`.
    private func periodly(_ period: SubscriptionPeriod) -> String {
        if period.value == 1 { return strings.text("periodly.\(period.unit.name)") }
        if period == SubscriptionPeriod(value: 3, unit: .month) { return strings.text("periodly.quarter") }
        return strings.text("periodly.every", ["period": countedName(period)])
    }
}

extension SubscriptionPeriod.Unit {
    /// The unit's name in string-table keys.
    var name: String {
        switch self {
        case .day: "day"
        case .week: "week"
        case .month: "month"
        case .year: "year"
        }
    }
}
