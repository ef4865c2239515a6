import Foundation
import XCTest

@testable import PaywallCore

final class StoreKitConfigurationTests: XCTestCase {
    private let fixturePath = TestPaths.fixtures.appendingPathComponent("Lumen.storekit").path

    private func fixtureText() throws -> String {
        try String(contentsOfFile: fixturePath, encoding: .utf8)
    }

    /// The fixture with `original` replaced by `replacement` (which must occur).
    private func fixture(replacing original: String, with replacement: String) throws -> String {
        let text = try fixtureText()
        XCTAssertTrue(text.contains(original), "fixture lacks \(original)")
        return text.replacingOccurrences(of: original, with: replacement)
    }

    private func parse(_ text: String) throws -> Catalog {
        try StoreKitConfiguration.parse(Data(text.utf8))
    }

    private func parseError(_ text: String) -> String? {
        do {
            _ = try StoreKitConfiguration.parse(Data(text.utf8))
            return nil
        } catch {
            return error.message
        }
    }

    /// A minimal `.storekit` file holding `product` (JSON object text) in `products[]`.
    private func storekit(product: String) -> String {
        #"{"products": [\#(product)], "settings": {"_locale": "en_US"}}"#
    }

    /// A minimal `.storekit` file holding `subscription` (JSON object text) in group "G" named "Gold".
    private func storekit(subscription: String) -> String {
        #"{"subscriptionGroups": [{"id": "G", "name": "Gold", "subscriptions": [\#(subscription)]}]}"#
    }

    private func decimal(_ text: String) -> Decimal {
        Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))!
    }

    private let week = SubscriptionPeriod(value: 1, unit: .week)
    private let month = SubscriptionPeriod(value: 1, unit: .month)

    // MARK: - The fixture

    func testFixtureMapsEveryProduct() throws {
        let catalog = try parse(fixtureText())

        // Subscriptions group by group, then products[], then nonRenewingSubscriptions[].
        XCTAssertEqual(
            catalog.products.map(\.id),
            [
                "lumen.pro.yearly", "lumen.pro.monthly", "lumen.team.weekly",
                "lumen.credits.100", "lumen.pro.lifetime", "lumen.pass.month",
            ])
        XCTAssertEqual(
            catalog.products[0],
            Product(
                id: "lumen.pro.yearly", displayName: "Lumen Pro Yearly",
                description: "Every Lumen Pro feature, billed once a year.",
                price: decimal("39.99"), currencyCode: "USD", kind: .autoRenewable,
                period: SubscriptionPeriod(value: 1, unit: .year), subscriptionGroup: "21482756", groupRank: 1,
                introductoryOffer: IntroductoryOffer(
                    mode: .payUpFront, period: SubscriptionPeriod(value: 3, unit: .month), count: 1, price: decimal("19.99")),
                familyShareable: true, entitlements: ["Pro"], catalogPrice: "39.99"))
        XCTAssertEqual(
            catalog.products[1],
            Product(
                id: "lumen.pro.monthly", displayName: "Lumen Pro Monthly",
                description: "Every Lumen Pro feature, billed monthly.",
                price: decimal("7.99"), currencyCode: "USD", kind: .autoRenewable,
                period: month, subscriptionGroup: "21482756", groupRank: 2,
                introductoryOffer: IntroductoryOffer(mode: .freeTrial, period: week, count: 1, price: 0),
                familyShareable: false, entitlements: ["Pro"], catalogPrice: "7.99"))
        // Its only localization is fr_FR: with no en_US one, the first localization is used.
        XCTAssertEqual(
            catalog.products[2],
            Product(
                id: "lumen.team.weekly", displayName: "Lumen Équipe Hebdo",
                description: "Lumen pour toute l'équipe, facturé chaque semaine.",
                price: decimal("4.99"), currencyCode: "USD", kind: .autoRenewable,
                period: week, subscriptionGroup: "21482790", groupRank: 1,
                introductoryOffer: IntroductoryOffer(mode: .payAsYouGo, period: week, count: 3, price: decimal("0.99")),
                familyShareable: false, entitlements: ["Team"], catalogPrice: "4.99"))
        // No localizations: the reference name is the display name.
        XCTAssertEqual(
            catalog.products[3],
            Product(
                id: "lumen.credits.100", displayName: "100 AI Credits", description: "",
                price: decimal("4.99"), currencyCode: "USD", kind: .consumable,
                period: nil, subscriptionGroup: nil, groupRank: nil, introductoryOffer: nil,
                familyShareable: false, entitlements: [], catalogPrice: "4.99"))
        // de_DE comes first in the file, but the en_US localization matches _locale.
        XCTAssertEqual(
            catalog.products[4],
            Product(
                id: "lumen.pro.lifetime", displayName: "Lumen Pro Lifetime",
                description: "Every Lumen Pro feature, paid once.",
                price: decimal("99.99"), currencyCode: "USD", kind: .nonConsumable,
                period: nil, subscriptionGroup: nil, groupRank: nil, introductoryOffer: nil,
                familyShareable: true, entitlements: ["lumen.pro.lifetime"], catalogPrice: "99.99"))
        XCTAssertEqual(
            catalog.products[5],
            Product(
                id: "lumen.pass.month", displayName: "Lumen Pass (1 month)",
                description: "Lumen Pro for one month, no renewal.",
                price: decimal("9.99"), currencyCode: "USD", kind: .nonRenewing,
                period: month, subscriptionGroup: nil, groupRank: nil, introductoryOffer: nil,
                familyShareable: false, entitlements: ["lumen.pass.month"], catalogPrice: "9.99"))
    }

    func testEntitlementRuleForEachKind() throws {
        let catalog = try parse(fixtureText())

        func entitlements(_ id: String) -> [String]? { catalog.product(id: id)?.entitlements }
        // Auto-renewable: the group's name, the same for every level of the group.
        XCTAssertEqual(entitlements("lumen.pro.yearly"), ["Pro"])
        XCTAssertEqual(entitlements("lumen.pro.monthly"), ["Pro"])
        XCTAssertEqual(entitlements("lumen.team.weekly"), ["Team"])
        // Non-consumable and non-renewing: their own product id.
        XCTAssertEqual(entitlements("lumen.pro.lifetime"), ["lumen.pro.lifetime"])
        XCTAssertEqual(entitlements("lumen.pass.month"), ["lumen.pass.month"])
        // Consumable: nothing.
        XCTAssertEqual(entitlements("lumen.credits.100"), [])
    }

    func testFixtureGroupNamesAndSettings() throws {
        let catalog = try parse(fixtureText())

        XCTAssertEqual(catalog.groupNames, ["21482756": "Pro", "21482790": "Team"])
        // _billingGracePeriodEnabled is on; _timeRate (6) and the offers are ignored.
        XCTAssertEqual(catalog.settings, StoreSettings(gracePeriodDays: 16, billingRetryDays: 60, askToBuy: false))
    }

    func testGracePeriodOffAndAskToBuyOn() throws {
        let text = try fixture(replacing: #""_askToBuyEnabled" : false"#, with: #""_askToBuyEnabled" : true"#)
            .replacingOccurrences(of: #""_billingGracePeriodEnabled" : true"#, with: #""_billingGracePeriodEnabled" : false"#)

        XCTAssertEqual(try parse(text).settings, StoreSettings(gracePeriodDays: 0, billingRetryDays: 60, askToBuy: true))
    }

    func testGermanLocaleGivesEurosAndGermanNames() throws {
        let catalog = try parse(fixture(replacing: #""_locale" : "en_US""#, with: #""_locale" : "de_DE""#))

        XCTAssertEqual(Set(catalog.products.map(\.currencyCode)), ["EUR"])
        // The de_DE localization comes second in the file.
        XCTAssertEqual(catalog.product(id: "lumen.pro.monthly")?.displayName, "Lumen Pro Monatlich")
        XCTAssertEqual(
            catalog.product(id: "lumen.pro.monthly")?.description, "Alle Lumen-Pro-Funktionen, monatlich abgerechnet.")
        XCTAssertEqual(catalog.product(id: "lumen.pro.lifetime")?.displayName, "Lumen Pro für immer")
        // Only en_US exists: the first localization.
        XCTAssertEqual(catalog.product(id: "lumen.pro.yearly")?.displayName, "Lumen Pro Yearly")
        // Prices are the file's numbers, whatever the currency.
        XCTAssertEqual(catalog.product(id: "lumen.pro.monthly")?.price, decimal("7.99"))
    }

    func testWithoutSettingsCurrencyIsUSDAndFirstLocalizationWins() throws {
        let catalog = try parse(
            #"""
            {"products": [{"productID": "p", "referenceName": "P", "type": "NonConsumable", "displayPrice": "2.50",
              "localizations": [{"locale": "de_DE", "displayName": "Deutsch", "description": "D"},
                                {"locale": "en_US", "displayName": "English", "description": "E"}]}]}
            """#)

        XCTAssertEqual(
            catalog.products,
            [
                Product(
                    id: "p", displayName: "Deutsch", description: "D", price: decimal("2.50"), currencyCode: "USD",
                    kind: .nonConsumable, entitlements: ["p"], catalogPrice: "2.50")
            ])
        XCTAssertEqual(catalog.settings, StoreSettings())
        XCTAssertEqual(catalog.groupNames, [:])
    }

    func testNonRenewingSubscriptionInProductsIsAMonthLong() throws {
        let catalog = try parse(
            storekit(
                product: #"""
                    {"productID": "pass", "referenceName": "Pass", "type": "NonRenewingSubscription", "displayPrice": "3"}
                    """#))

        XCTAssertEqual(
            catalog.products,
            [
                Product(
                    id: "pass", displayName: "Pass", price: 3, currencyCode: "USD", kind: .nonRenewing,
                    period: StoreKitConfiguration.nonRenewingPeriod, entitlements: ["pass"], catalogPrice: "3")
            ])
        XCTAssertEqual(StoreKitConfiguration.nonRenewingPeriod, month)
    }

    func testNullIntroductoryOfferMeansNone() throws {
        let catalog = try parse(
            storekit(
                subscription: #"""
                    {"productID": "s", "referenceName": "S", "type": "RecurringSubscription", "displayPrice": "1.99",
                     "groupNumber": 1, "recurringSubscriptionPeriod": "P1M", "introductoryOffer": null}
                    """#))

        XCTAssertEqual(catalog.products.first?.introductoryOffer, nil)
        XCTAssertEqual(catalog.products.first?.entitlements, ["Gold"])
        XCTAssertEqual(catalog.groupNames, ["G": "Gold"])
    }

    // MARK: - Errors

    func testNotJSON() {
        XCTAssertEqual(parseError("<plist></plist>"), "is not valid JSON (unexpected character at line 1, column 1)")
    }

    func testDeepNestingIsRefusedWithADepthError() throws {
        let message = try XCTUnwrap(parseError(Fuzz.deeplyNested))
        XCTAssertTrue(message.contains("nested more than 512 levels"), message)
        XCTAssertEqual(parseError(Fuzz.wideAndDeep), "must hold a JSON object at the top level, got an array")
    }

    func testDuplicateKeysAreRefused() throws {
        let message = try XCTUnwrap(parseError(#"{"products": [], "settings": {}, "products": []}"#))
        XCTAssertTrue(message.contains(#"duplicate key "products""#), message)
    }

    func testFileWithoutProductsIsRefused() throws {
        for text in ["{}", #"{"products": [], "subscriptionGroups": [{"id": "G", "name": "Gold", "subscriptions": []}]}"#] {
            let message = try XCTUnwrap(parseError(text))
            XCTAssertTrue(message.hasPrefix("has no products; add some in Xcode's StoreKit configuration editor"), message)
        }
    }

    func testMissingProductID() {
        XCTAssertEqual(
            parseError(storekit(product: #"{"referenceName": "X", "type": "Consumable", "displayPrice": "1"}"#)),
            #"products[0]: "productID" is required"#)
        XCTAssertEqual(
            parseError(storekit(subscription: #"{"referenceName": "X", "displayPrice": "1", "groupNumber": 1}"#)),
            #"subscriptionGroups[0] ("G").subscriptions[0]: "productID" is required"#)
    }

    func testUnknownType() {
        XCTAssertEqual(
            parseError(storekit(product: #"{"productID": "x", "referenceName": "X", "type": "Bundle", "displayPrice": "1"}"#)),
            #"products[0] ("x"): "type" must be one of Consumable, NonConsumable, NonRenewingSubscription, got "Bundle""#)
        XCTAssertEqual(
            parseError(
                storekit(
                    product: #"{"productID": "x", "referenceName": "X", "type": "RecurringSubscription", "displayPrice": "1"}"#)),
            #"products[0] ("x"): "type" must be one of Consumable, NonConsumable, NonRenewingSubscription, "#
                + #"got "RecurringSubscription" (auto-renewable subscriptions belong in subscriptionGroups)"#)
        XCTAssertEqual(
            parseError(
                #"{"nonRenewingSubscriptions": [{"productID": "x", "referenceName": "X", "type": "Consumable", "displayPrice": "1"}]}"#
            ),
            #"nonRenewingSubscriptions[0] ("x"): "type" must be NonRenewingSubscription in nonRenewingSubscriptions, got "Consumable""#
        )
    }

    func testBadPeriod() throws {
        XCTAssertEqual(
            parseError(
                try fixture(
                    replacing: #""recurringSubscriptionPeriod" : "P1M""#, with: #""recurringSubscriptionPeriod" : "1 month""#)),
            #"subscriptionGroups[0] ("21482756").subscriptions[1] ("lumen.pro.monthly"): "#
                + #""recurringSubscriptionPeriod" must be an ISO 8601 period like P1M, got "1 month""#)
        XCTAssertEqual(
            parseError(try fixture(replacing: #""subscriptionPeriod" : "P3M""#, with: #""subscriptionPeriod" : "P3Q""#)),
            #"subscriptionGroups[0] ("21482756").subscriptions[0] ("lumen.pro.yearly"): "#
                + #""introductoryOffer.subscriptionPeriod" must be an ISO 8601 period like P1M, got "P3Q""#)
    }

    func testBadPrice() throws {
        XCTAssertEqual(
            parseError(try fixture(replacing: #""displayPrice" : "99.99""#, with: #""displayPrice" : "99,99""#)),
            #"products[1] ("lumen.pro.lifetime"): "displayPrice" must be a decimal amount like "4.99", got "99,99""#)
        XCTAssertEqual(
            parseError(storekit(product: #"{"productID": "x", "referenceName": "X", "type": "Consumable"}"#)),
            #"products[0] ("x"): "displayPrice" is required"#)
    }

    func testUnknownPaymentMode() throws {
        XCTAssertEqual(
            parseError(try fixture(replacing: #""paymentMode" : "payAsYouGo""#, with: #""paymentMode" : "discount""#)),
            #"subscriptionGroups[1] ("21482790").subscriptions[0] ("lumen.team.weekly"): "#
                + #""introductoryOffer.paymentMode" must be one of free, payAsYouGo, payUpFront, got "discount""#)
    }

    func testDuplicateProductID() throws {
        XCTAssertEqual(
            parseError(try fixture(replacing: #""productID" : "lumen.pass.month""#, with: #""productID" : "lumen.pro.monthly""#)),
            #"nonRenewingSubscriptions[0] ("lumen.pro.monthly"): "productID" is already used by "#
                + #"subscriptionGroups[0] ("21482756").subscriptions[1]"#)
    }

    func testNoNameAnywhere() {
        XCTAssertEqual(
            parseError(storekit(product: #"{"productID": "x", "type": "Consumable", "displayPrice": "1", "localizations": []}"#)),
            #"products[0] ("x"): "referenceName" is required when no localization has a displayName"#)
    }

    // MARK: - CatalogLoader dispatch

    func testLoaderReadsStoreKitFilesByExtension() throws {
        let catalog = try CatalogLoader.load(path: fixturePath)

        XCTAssertEqual(catalog, try parse(fixtureText()))
    }

    func testLoaderReadsOtherExtensionsAsOurFormat() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let file = try writeFile(try fixtureText(), to: "Lumen.json", in: directory)

        // The same content under .json is read as our format, which says what the file looks like.
        XCTAssertThrowsError(try CatalogLoader.load(path: file.path)) { error in
            let message = (error as? CatalogError)?.message ?? ""
            XCTAssertTrue(message.hasPrefix("\(file.path): looks like an Xcode .storekit file"), message)
        }
    }

    func testLoaderPrefixesStoreKitErrorsWithThePath() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let file = try writeFile("<plist></plist>", to: "Broken.storekit", in: directory)

        XCTAssertThrowsError(try CatalogLoader.load(path: file.path)) { error in
            XCTAssertEqual(
                (error as? CatalogError)?.message,
                "\(file.path): is not valid JSON (unexpected character at line 1, column 1)")
        }
    }
}
