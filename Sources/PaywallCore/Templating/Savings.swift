import Foundation

/// What each product of a page saves per month against the most expensive per-month
/// subscription among the page's slots: the `savings` template attribute ("58%" for a yearly
/// plan at $39.99 beside a monthly one at $7.99). Whole percents, rounded down, so a badge
/// never promises more than the prices give.
package struct Savings {
    /// The slots' products; the reference is picked among those in the measured product's currency.
    private let products: [Product]

    package init(products: [Product]) {
        self.products = products
    }

    /// The whole percent `product` saves per month, rounded down: 0 for the most expensive
    /// one itself; nil when it is not a subscription with a period (a one-time purchase) or
    /// no subscription in its currency costs anything.
    package func percent(for product: Product) -> Int? {
        guard product.isSubscription, let period = product.period else { return nil }
        let references = products.filter { $0.isSubscription && $0.period != nil && $0.currencyCode == product.currencyCode }
        guard let reference = references.max(by: { Self.yearly($0) < Self.yearly($1) }), let referencePeriod = reference.period
        else { return nil }
        // Per month is per year over 12 for both, so the ratio of their yearly prices decides;
        // cross-multiplied, both sides are exact decimals (no repeating 1/3 of a period).
        let own = product.price * period.timesPerYear * Decimal(referencePeriod.value)
        let most = reference.price * referencePeriod.timesPerYear * Decimal(period.value)
        guard most > 0, own < most else { return 0 }
        let saved = (most - own) * 100
        var whole = Int(truncating: NSDecimalNumber(decimal: saved / most))
        // The division rounds at 38 digits; the exact products settle the whole percent.
        while Decimal(whole + 1) * most <= saved { whole += 1 }
        while whole > 0, Decimal(whole) * most > saved { whole -= 1 }
        return min(whole, 100)
    }

    /// `percent(for:)` as `locale` writes a percentage ("58%", "58 %", "٥٨٪"); "" when the
    /// product saves nothing or is not a subscription, so a page can hide an empty badge.
    package func text(for product: Product, locale: Locale) -> String {
        guard let percent = percent(for: product), percent > 0 else { return "" }
        return percent.formatted(.percent.locale(locale))
    }

    private static func yearly(_ product: Product) -> Decimal {
        guard let period = product.period else { return 0 }
        return product.price * period.timesPerYear / Decimal(period.value)
    }
}

extension SubscriptionPeriod {
    /// How many of this period's units make a year (a year is 12 months, 52 weeks, 365 days):
    /// the runtime's per-period prices all go through the price per year.
    package var timesPerYear: Decimal {
        switch unit {
        case .day: 365
        case .week: 52
        case .month: 12
        case .year: 1
        }
    }
}
