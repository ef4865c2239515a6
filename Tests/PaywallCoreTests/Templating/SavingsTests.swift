import Foundation
import XCTest

@testable import PaywallCore

/// `savings`: the percent saved per month against the slots' most expensive per-month
/// subscription, rounded down, as the locale writes it.
final class SavingsTests: XCTestCase {
    private func subscription(_ id: String, _ price: String, _ period: String, currency: String = "USD") -> Product {
        Product(
            id: id, displayName: id, price: Decimal(string: price)!, currencyCode: currency, kind: .autoRenewable,
            period: SubscriptionPeriod(iso8601: period), subscriptionGroup: "pro")
    }

    private let lifetime = Product(id: "life", displayName: "Life", price: 99, currencyCode: "USD", kind: .nonConsumable)

    func testYearlyAgainstMonthlyIsRoundedDown() {
        let yearly = subscription("y", "39.99", "P1Y")
        let monthly = subscription("m", "7.99", "P1M")
        let savings = Savings(products: [yearly, monthly, lifetime])
        // 39.99 / 12 = 3.3325 a month against 7.99: 58.29 % saved.
        XCTAssertEqual(savings.percent(for: yearly), 58)
        XCTAssertEqual(savings.percent(for: monthly), 0, "the most expensive saves nothing")
        XCTAssertNil(savings.percent(for: lifetime), "a one-time purchase has no price per month")
        XCTAssertEqual(savings.text(for: yearly, locale: Locale(identifier: "en_US")), "58%")
        XCTAssertEqual(savings.text(for: monthly, locale: Locale(identifier: "en_US")), "", "nothing saved: no badge text")
        XCTAssertEqual(savings.text(for: lifetime, locale: Locale(identifier: "en_US")), "")
    }

    func testAnExactWholePercentIsNotLostToDivision() {
        // 60 a year is 5 a month, half of 10; 100 over 3 months against 50 a month is 33.33 %.
        let half = Savings(products: [subscription("y", "60", "P1Y"), subscription("m", "10", "P1M")])
        XCTAssertEqual(half.percent(for: subscription("y", "60", "P1Y")), 50)
        let third = Savings(products: [subscription("q", "100", "P3M"), subscription("m", "50", "P1M")])
        XCTAssertEqual(third.percent(for: subscription("q", "100", "P3M")), 33)
        // Weekly 2.99 is 12.96 a month: the monthly 9.99 is then the one saving (22.9 %).
        let weekly = Savings(products: [subscription("w", "2.99", "P1W"), subscription("m", "9.99", "P1M")])
        XCTAssertEqual(weekly.percent(for: subscription("m", "9.99", "P1M")), 22)
        XCTAssertEqual(weekly.percent(for: subscription("w", "2.99", "P1W")), 0)
    }

    func testOnlyTheSameCurrencyIsCompared() {
        let euro = subscription("e", "3", "P1M", currency: "EUR")
        let savings = Savings(products: [subscription("y", "39.99", "P1Y"), subscription("m", "7.99", "P1M"), euro])
        XCTAssertEqual(savings.percent(for: euro), 0, "alone in its currency: it is its own reference")
        XCTAssertNil(Savings(products: [lifetime]).percent(for: lifetime))
    }

    func testTheLocaleWritesThePercent() {
        let yearly = subscription("y", "39.99", "P1Y")
        let savings = Savings(products: [yearly, subscription("m", "7.99", "P1M")])
        XCTAssertEqual(savings.text(for: yearly, locale: Locale(identifier: "de_DE")), "58\u{a0}%")
        XCTAssertEqual(savings.text(for: yearly, locale: Locale(identifier: "ar_EG")), "٥٨٪؜")
        XCTAssertEqual(savings.text(for: yearly, locale: Locale(identifier: "fr_FR")), "58\u{a0}%")
    }

    @MainActor
    func testEverySlotGetsItsSavingsAttribute() async throws {
        let catalog = Catalog(products: [subscription("y", "39.99", "P1Y"), subscription("m", "7.99", "P1M"), lifetime])
        let variables = TemplateVariables(
            slots: try ProductSlots(parsing: "primary=y,secondary=m,tertiary=life"), catalog: catalog, purchases: nil,
            device: DeviceInfo(osName: "L", osVersion: "1", deviceModel: "PC", interfaceStyle: "light", appVersion: ""),
            locale: Locale(identifier: "en_US"),
            strings: try StringTable(directory: ProductAttributesTests.locales, locale: "en_US"), userId: "u")
        let object = variables.object
        XCTAssertEqual(object["primary"]?["savings"], "58%")
        XCTAssertEqual(object["secondary"]?["savings"], "")
        XCTAssertEqual(object["tertiary"]?["savings"], "")
        // Without the monthly slot, the yearly plan is the most expensive per month: no saving.
        let alone = TemplateVariables(
            slots: try ProductSlots(parsing: "primary=y,tertiary=life"), catalog: catalog, purchases: nil,
            device: variables.device, locale: variables.locale, strings: variables.strings, userId: "u")
        XCTAssertEqual(alone.object["primary"]?["savings"], "")
    }
}
