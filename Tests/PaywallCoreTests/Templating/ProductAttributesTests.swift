import Foundation
import XCTest

@testable import PaywallCore

/// Product attributes as pages see them, in six locales and four currencies, for weekly,
/// monthly and yearly plans with 3-day, 1-week and 1-month free trials.
final class ProductAttributesTests: XCTestCase {
    static let locales = TestPaths.locales
    /// 2027-01-15T08:00:00Z: trial end dates are counted from here.
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    struct Case {
        var locale: String
        var currency: String
        var price: String
        var period: String
        var trial: String
        var expected: [String: String]
    }

    static let cases: [Case] = [
        Case(
            locale: "en_US", currency: "USD", price: "9.99", period: "P1W", trial: "P3D",
            expected: [
                "price": "$9.99",
                "period": "week",
                "periodAlt": "week",
                "localizedPeriod": "1 week",
                "periodly": "weekly",
                "dailyPrice": "$1.42",
                "weeklyPrice": "$9.99",
                "monthlyPrice": "$43.29",
                "yearlyPrice": "$519.48",
                "trialPeriodText": "3-day free trial",
                "trialPeriodDays": "3",
                "trialPeriodEndDate": "Jan 18, 2027",
                "currencySymbol": "$",
                "periodDays": "7",
                "periodWeeks": "1",
                "periodMonths": "0",
                "periodYears": "0",
            ]),
        Case(
            locale: "en_US", currency: "USD", price: "9.99", period: "P1M", trial: "P1W",
            expected: [
                "price": "$9.99",
                "period": "month",
                "periodAlt": "month",
                "localizedPeriod": "1 month",
                "periodly": "monthly",
                "dailyPrice": "$0.33",
                "weeklyPrice": "$2.31",
                "monthlyPrice": "$9.99",
                "yearlyPrice": "$119.88",
                "trialPeriodText": "1-week free trial",
                "trialPeriodDays": "7",
                "trialPeriodEndDate": "Jan 22, 2027",
                "currencySymbol": "$",
                "periodDays": "30",
                "periodWeeks": "4",
                "periodMonths": "1",
                "periodYears": "0",
            ]),
        Case(
            locale: "en_US", currency: "USD", price: "9.99", period: "P1Y", trial: "P1M",
            expected: [
                "price": "$9.99",
                "period": "year",
                "periodAlt": "year",
                "localizedPeriod": "1 year",
                "periodly": "yearly",
                "dailyPrice": "$0.03",
                "weeklyPrice": "$0.19",
                "monthlyPrice": "$0.83",
                "yearlyPrice": "$9.99",
                "trialPeriodText": "1-month free trial",
                "trialPeriodDays": "30",
                "trialPeriodEndDate": "Feb 15, 2027",
                "currencySymbol": "$",
                "periodDays": "365",
                "periodWeeks": "52",
                "periodMonths": "12",
                "periodYears": "1",
            ]),
        Case(
            locale: "de_DE", currency: "EUR", price: "9.99", period: "P1W", trial: "P3D",
            expected: [
                "price": "9,99 €",
                "period": "Woche",
                "periodAlt": "Woche",
                "localizedPeriod": "1 Woche",
                "periodly": "wöchentlich",
                "dailyPrice": "1,42 €",
                "weeklyPrice": "9,99 €",
                "monthlyPrice": "43,29 €",
                "yearlyPrice": "519,48 €",
                "trialPeriodText": "3 Tage kostenlos testen",
                "trialPeriodDays": "3",
                "trialPeriodEndDate": "18. Jan. 2027",
                "currencySymbol": "€",
                "periodDays": "7",
                "periodWeeks": "1",
                "periodMonths": "0",
                "periodYears": "0",
            ]),
        Case(
            locale: "de_DE", currency: "EUR", price: "9.99", period: "P1M", trial: "P1W",
            expected: [
                "price": "9,99 €",
                "period": "Monat",
                "periodAlt": "Monat",
                "localizedPeriod": "1 Monat",
                "periodly": "monatlich",
                "dailyPrice": "0,33 €",
                "weeklyPrice": "2,31 €",
                "monthlyPrice": "9,99 €",
                "yearlyPrice": "119,88 €",
                "trialPeriodText": "1 Woche kostenlos testen",
                "trialPeriodDays": "7",
                "trialPeriodEndDate": "22. Jan. 2027",
                "currencySymbol": "€",
                "periodDays": "30",
                "periodWeeks": "4",
                "periodMonths": "1",
                "periodYears": "0",
            ]),
        Case(
            locale: "de_DE", currency: "EUR", price: "9.99", period: "P1Y", trial: "P1M",
            expected: [
                "price": "9,99 €",
                "period": "Jahr",
                "periodAlt": "Jahr",
                "localizedPeriod": "1 Jahr",
                "periodly": "jährlich",
                "dailyPrice": "0,03 €",
                "weeklyPrice": "0,19 €",
                "monthlyPrice": "0,83 €",
                "yearlyPrice": "9,99 €",
                "trialPeriodText": "1 Monat kostenlos testen",
                "trialPeriodDays": "30",
                "trialPeriodEndDate": "15. Feb. 2027",
                "currencySymbol": "€",
                "periodDays": "365",
                "periodWeeks": "52",
                "periodMonths": "12",
                "periodYears": "1",
            ]),
        Case(
            locale: "fr_FR", currency: "EUR", price: "9.99", period: "P1W", trial: "P3D",
            expected: [
                "price": "9,99 €",
                "period": "semaine",
                "periodAlt": "semaine",
                "localizedPeriod": "1 semaine",
                "periodly": "par semaine",
                "dailyPrice": "1,42 €",
                "weeklyPrice": "9,99 €",
                "monthlyPrice": "43,29 €",
                "yearlyPrice": "519,48 €",
                "trialPeriodText": "3 jours d’essai gratuit",
                "trialPeriodDays": "3",
                "trialPeriodEndDate": "18 janv. 2027",
                "currencySymbol": "€",
                "periodDays": "7",
                "periodWeeks": "1",
                "periodMonths": "0",
                "periodYears": "0",
            ]),
        Case(
            locale: "fr_FR", currency: "EUR", price: "9.99", period: "P1M", trial: "P1W",
            expected: [
                "price": "9,99 €",
                "period": "mois",
                "periodAlt": "mois",
                "localizedPeriod": "1 mois",
                "periodly": "par mois",
                "dailyPrice": "0,33 €",
                "weeklyPrice": "2,31 €",
                "monthlyPrice": "9,99 €",
                "yearlyPrice": "119,88 €",
                "trialPeriodText": "1 semaine d’essai gratuit",
                "trialPeriodDays": "7",
                "trialPeriodEndDate": "22 janv. 2027",
                "currencySymbol": "€",
                "periodDays": "30",
                "periodWeeks": "4",
                "periodMonths": "1",
                "periodYears": "0",
            ]),
        Case(
            locale: "fr_FR", currency: "EUR", price: "9.99", period: "P1Y", trial: "P1M",
            expected: [
                "price": "9,99 €",
                "period": "an",
                "periodAlt": "an",
                "localizedPeriod": "1 an",
                "periodly": "par an",
                "dailyPrice": "0,03 €",
                "weeklyPrice": "0,19 €",
                "monthlyPrice": "0,83 €",
                "yearlyPrice": "9,99 €",
                "trialPeriodText": "1 mois d’essai gratuit",
                "trialPeriodDays": "30",
                "trialPeriodEndDate": "15 févr. 2027",
                "currencySymbol": "€",
                "periodDays": "365",
                "periodWeeks": "52",
                "periodMonths": "12",
                "periodYears": "1",
            ]),
        Case(
            locale: "ja_JP", currency: "JPY", price: "1200", period: "P1W", trial: "P3D",
            expected: [
                "price": "¥1,200",
                "period": "週",
                "periodAlt": "週",
                "localizedPeriod": "1週間",
                "periodly": "毎週",
                "dailyPrice": "¥171",
                "weeklyPrice": "¥1,200",
                "monthlyPrice": "¥5,200",
                "yearlyPrice": "¥62,400",
                "trialPeriodText": "3日間の無料トライアル",
                "trialPeriodDays": "3",
                "trialPeriodEndDate": "2027年1月18日",
                "currencySymbol": "¥",
                "periodDays": "7",
                "periodWeeks": "1",
                "periodMonths": "0",
                "periodYears": "0",
            ]),
        Case(
            locale: "ja_JP", currency: "JPY", price: "1200", period: "P1M", trial: "P1W",
            expected: [
                "price": "¥1,200",
                "period": "月",
                "periodAlt": "月",
                "localizedPeriod": "1か月",
                "periodly": "毎月",
                "dailyPrice": "¥39",
                "weeklyPrice": "¥277",
                "monthlyPrice": "¥1,200",
                "yearlyPrice": "¥14,400",
                "trialPeriodText": "1週間の無料トライアル",
                "trialPeriodDays": "7",
                "trialPeriodEndDate": "2027年1月22日",
                "currencySymbol": "¥",
                "periodDays": "30",
                "periodWeeks": "4",
                "periodMonths": "1",
                "periodYears": "0",
            ]),
        Case(
            locale: "ja_JP", currency: "JPY", price: "1200", period: "P1Y", trial: "P1M",
            expected: [
                "price": "¥1,200",
                "period": "年",
                "periodAlt": "年",
                "localizedPeriod": "1年",
                "periodly": "毎年",
                "dailyPrice": "¥3",
                "weeklyPrice": "¥23",
                "monthlyPrice": "¥100",
                "yearlyPrice": "¥1,200",
                "trialPeriodText": "1か月の無料トライアル",
                "trialPeriodDays": "30",
                "trialPeriodEndDate": "2027年2月15日",
                "currencySymbol": "¥",
                "periodDays": "365",
                "periodWeeks": "52",
                "periodMonths": "12",
                "periodYears": "1",
            ]),
        Case(
            locale: "pt_BR", currency: "BRL", price: "29.90", period: "P1W", trial: "P3D",
            expected: [
                "price": "R$ 29,90",
                "period": "semana",
                "periodAlt": "semana",
                "localizedPeriod": "1 semana",
                "periodly": "por semana",
                "dailyPrice": "R$ 4,26",
                "weeklyPrice": "R$ 29,90",
                "monthlyPrice": "R$ 129,57",
                "yearlyPrice": "R$ 1.554,80",
                "trialPeriodText": "3 dias de teste grátis",
                "trialPeriodDays": "3",
                "trialPeriodEndDate": "18 de jan. de 2027",
                "currencySymbol": "R$",
                "periodDays": "7",
                "periodWeeks": "1",
                "periodMonths": "0",
                "periodYears": "0",
            ]),
        Case(
            locale: "pt_BR", currency: "BRL", price: "29.90", period: "P1M", trial: "P1W",
            expected: [
                "price": "R$ 29,90",
                "period": "mês",
                "periodAlt": "mês",
                "localizedPeriod": "1 mês",
                "periodly": "por mês",
                "dailyPrice": "R$ 0,98",
                "weeklyPrice": "R$ 6,90",
                "monthlyPrice": "R$ 29,90",
                "yearlyPrice": "R$ 358,80",
                "trialPeriodText": "1 semana de teste grátis",
                "trialPeriodDays": "7",
                "trialPeriodEndDate": "22 de jan. de 2027",
                "currencySymbol": "R$",
                "periodDays": "30",
                "periodWeeks": "4",
                "periodMonths": "1",
                "periodYears": "0",
            ]),
        Case(
            locale: "pt_BR", currency: "BRL", price: "29.90", period: "P1Y", trial: "P1M",
            expected: [
                "price": "R$ 29,90",
                "period": "ano",
                "periodAlt": "ano",
                "localizedPeriod": "1 ano",
                "periodly": "por ano",
                "dailyPrice": "R$ 0,08",
                "weeklyPrice": "R$ 0,58",
                "monthlyPrice": "R$ 2,49",
                "yearlyPrice": "R$ 29,90",
                "trialPeriodText": "1 mês de teste grátis",
                "trialPeriodDays": "30",
                "trialPeriodEndDate": "15 de fev. de 2027",
                "currencySymbol": "R$",
                "periodDays": "365",
                "periodWeeks": "52",
                "periodMonths": "12",
                "periodYears": "1",
            ]),
        Case(
            locale: "ar_EG", currency: "USD", price: "9.99", period: "P1W", trial: "P3D",
            expected: [
                "price": "\u{2068}‏٩٫٩٩ \u{2066}US$\u{2069}\u{2069}",
                "period": "أسبوع",
                "periodAlt": "أسبوع",
                "localizedPeriod": "أسبوع واحد",
                "periodly": "أسبوعيًا",
                "dailyPrice": "\u{2068}‏١٫٤٢ \u{2066}US$\u{2069}\u{2069}",
                "weeklyPrice": "\u{2068}‏٩٫٩٩ \u{2066}US$\u{2069}\u{2069}",
                "monthlyPrice": "\u{2068}‏٤٣٫٢٩ \u{2066}US$\u{2069}\u{2069}",
                "yearlyPrice": "\u{2068}‏٥١٩٫٤٨ \u{2066}US$\u{2069}\u{2069}",
                "trialPeriodText": "فترة تجريبية مجانية لمدة ٣ أيام",
                "trialPeriodDays": "3",
                "trialPeriodEndDate": "١٨ يناير، ٢٠٢٧",
                "currencySymbol": "US$",
                "periodDays": "7",
                "periodWeeks": "1",
                "periodMonths": "0",
                "periodYears": "0",
            ]),
        Case(
            locale: "ar_EG", currency: "USD", price: "9.99", period: "P1M", trial: "P1W",
            expected: [
                "price": "\u{2068}‏٩٫٩٩ \u{2066}US$\u{2069}\u{2069}",
                "period": "شهر",
                "periodAlt": "شهر",
                "localizedPeriod": "شهر واحد",
                "periodly": "شهريًا",
                "dailyPrice": "\u{2068}‏٠٫٣٣ \u{2066}US$\u{2069}\u{2069}",
                "weeklyPrice": "\u{2068}‏٢٫٣١ \u{2066}US$\u{2069}\u{2069}",
                "monthlyPrice": "\u{2068}‏٩٫٩٩ \u{2066}US$\u{2069}\u{2069}",
                "yearlyPrice": "\u{2068}‏١١٩٫٨٨ \u{2066}US$\u{2069}\u{2069}",
                "trialPeriodText": "فترة تجريبية مجانية لمدة أسبوع واحد",
                "trialPeriodDays": "7",
                "trialPeriodEndDate": "٢٢ يناير، ٢٠٢٧",
                "currencySymbol": "US$",
                "periodDays": "30",
                "periodWeeks": "4",
                "periodMonths": "1",
                "periodYears": "0",
            ]),
        Case(
            locale: "ar_EG", currency: "USD", price: "9.99", period: "P1Y", trial: "P1M",
            expected: [
                "price": "\u{2068}‏٩٫٩٩ \u{2066}US$\u{2069}\u{2069}",
                "period": "سنة",
                "periodAlt": "سنة",
                "localizedPeriod": "سنة واحدة",
                "periodly": "سنويًا",
                "dailyPrice": "\u{2068}‏٠٫٠٣ \u{2066}US$\u{2069}\u{2069}",
                "weeklyPrice": "\u{2068}‏٠٫١٩ \u{2066}US$\u{2069}\u{2069}",
                "monthlyPrice": "\u{2068}‏٠٫٨٣ \u{2066}US$\u{2069}\u{2069}",
                "yearlyPrice": "\u{2068}‏٩٫٩٩ \u{2066}US$\u{2069}\u{2069}",
                "trialPeriodText": "فترة تجريبية مجانية لمدة شهر واحد",
                "trialPeriodDays": "30",
                "trialPeriodEndDate": "١٥ فبراير، ٢٠٢٧",
                "currencySymbol": "US$",
                "periodDays": "365",
                "periodWeeks": "52",
                "periodMonths": "12",
                "periodYears": "1",
            ]),
    ]

    private func attributes(_ product: Product, locale: String, isSubscribed: Bool = false) throws -> [String: JSONValue] {
        let strings = try StringTable(directory: Self.locales, locale: locale)
        return ProductAttributes(
            product: product, locale: Locale(identifier: locale), strings: strings,
            isSubscribed: isSubscribed, now: Self.now
        ).values
    }

    private func subscription(_ c: Case) -> Product {
        Product(
            id: "pro", displayName: "Pro", price: Decimal(string: c.price)!, currencyCode: c.currency,
            kind: .autoRenewable, period: SubscriptionPeriod(iso8601: c.period), subscriptionGroup: "pro",
            introductoryOffer: IntroductoryOffer(mode: .freeTrial, period: SubscriptionPeriod(iso8601: c.trial)!))
    }

    func testEveryLocaleCurrencyPeriodAndTrial() throws {
        for c in Self.cases {
            let values = try attributes(subscription(c), locale: c.locale)
            for (key, expected) in c.expected {
                XCTAssertEqual(values[key], .string(expected), "\(c.locale) \(c.period) \(key)")
            }
            XCTAssertEqual(values["locale"], .string(c.locale))
            XCTAssertEqual(values["currencyCode"], .string(c.currency))
            XCTAssertEqual(values["rawPrice"], .string("\(Decimal(string: c.price)!)"))
        }
    }

    /// Exactly the attributes PROTOCOL.md lists, all strings but `isSubscribed`.
    func testAttributeNamesMatchTheProtocol() throws {
        let names: Set<String> = [
            "rawPrice", "price", "periodAlt", "localizedPeriod", "period", "periodly", "weeklyPrice", "dailyPrice",
            "monthlyPrice", "yearlyPrice", "rawTrialPeriodPrice", "trialPeriodPrice", "trialPeriodDailyPrice",
            "trialPeriodWeeklyPrice", "trialPeriodMonthlyPrice", "trialPeriodYearlyPrice", "trialPeriodDays",
            "trialPeriodWeeks", "trialPeriodMonths", "trialPeriodYears", "trialPeriodText", "trialPeriodEndDate",
            "periodDays", "periodWeeks", "periodMonths", "periodYears", "locale", "languageCode", "currencyCode",
            "currencySymbol", "identifier", "isSubscribed", "savings",
        ]
        let values = try attributes(subscription(Self.cases[0]), locale: "en_US", isSubscribed: true)
        XCTAssertEqual(Set(values.keys), names)
        XCTAssertEqual(values["isSubscribed"], .bool(true))
        for (key, value) in values where key != "isSubscribed" {
            XCTAssertNotNil(value.stringValue, "\(key) is a string")
        }
        XCTAssertEqual(values["identifier"], "pro")
        XCTAssertEqual(values["languageCode"], "en")
    }

    func testOneTimePurchaseHasNoPeriodOrTrial() throws {
        let lifetime = Product(id: "life", displayName: "Life", price: 99, currencyCode: "USD", kind: .nonConsumable)
        let values = try attributes(lifetime, locale: "en_US")
        XCTAssertEqual(values["price"], "$99.00")
        for key in ["period", "periodly", "localizedPeriod", "monthlyPrice", "trialPeriodText", "trialPeriodEndDate"] {
            XCTAssertEqual(values[key], "", key)
        }
        XCTAssertEqual(values["trialPeriodDays"], "0")
        XCTAssertEqual(values["trialPeriodPrice"], "$0.00")
    }

    func testPaidIntroductoryOfferPrices() throws {
        let weekly = Product(
            id: "w", displayName: "W", price: Decimal(string: "4.99")!, currencyCode: "USD",
            kind: .autoRenewable, period: SubscriptionPeriod(value: 1, unit: .week), subscriptionGroup: "g",
            introductoryOffer: IntroductoryOffer(
                mode: .payAsYouGo, period: SubscriptionPeriod(value: 1, unit: .week),
                count: 3, price: Decimal(string: "0.99")!))
        let values = try attributes(weekly, locale: "en_US")
        XCTAssertEqual(values["rawTrialPeriodPrice"], "0.99")
        XCTAssertEqual(values["trialPeriodPrice"], "$0.99")
        XCTAssertEqual(values["trialPeriodWeeklyPrice"], "$0.99")
        XCTAssertEqual(values["trialPeriodWeeks"], "3", "three intro periods")
        XCTAssertEqual(values["trialPeriodText"], "3-week free trial")
    }

    func testQuarterAndMultiMonthPeriods() throws {
        let quarterly = Product(
            id: "q", displayName: "Q", price: 12, currencyCode: "USD", kind: .autoRenewable,
            period: SubscriptionPeriod(value: 3, unit: .month), subscriptionGroup: "g")
        let values = try attributes(quarterly, locale: "en_US")
        XCTAssertEqual(values["period"], "3 months")
        XCTAssertEqual(values["periodAlt"], "quarter")
        XCTAssertEqual(values["periodly"], "quarterly")
        XCTAssertEqual(values["monthlyPrice"], "$4.00")
        XCTAssertEqual(values["periodMonths"], "3")
        let sixMonths = Product(
            id: "s", displayName: "S", price: 12, currencyCode: "USD", kind: .autoRenewable,
            period: SubscriptionPeriod(value: 6, unit: .month), subscriptionGroup: "g")
        XCTAssertEqual(try attributes(sixMonths, locale: "en_US")["periodly"], "every 6 months")
        XCTAssertEqual(try attributes(sixMonths, locale: "de_DE")["localizedPeriod"], "6 Monate")
    }

    func testArabicPluralFormsAndDigits() throws {
        let strings = try StringTable(directory: Self.locales, locale: "ar_EG")
        XCTAssertEqual(strings.plural("period.day", count: 3), "٣ أيام")
        XCTAssertEqual(strings.plural("period.day", count: 11), "١١ يومًا")
        XCTAssertEqual(strings.plural("period.day", count: 2), "يومين")
    }
}
