import Foundation
import XCTest

@testable import PaywallCore

final class CatalogFileTests: XCTestCase {
    /// templates/classic/store.json, found from this file so the tests run from any directory.
    private let templateCatalogPath = TestPaths.repository.appendingPathComponent("templates/classic/store.json").path

    private func decimal(_ text: String) -> Decimal {
        Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))!
    }

    /// A catalog holding one product: `fields` are the product's members after `"id": "lumen.x"`.
    private func catalog(product fields: String, id: String = "lumen.x") -> String {
        #"{"products": [{"id": "\#(id)", \#(fields)}]}"#
    }

    /// The product fields every kind needs, so tests only spell out what they are about.
    private let basics = #""display_name": "X", "price": "1.99", "currency": "USD""#

    private func parse(_ json: String) throws -> Catalog {
        try CatalogFile.parse(Data(json.utf8))
    }

    /// The message `CatalogFile.parse` fails with, or nil when it succeeds.
    private func parseError(_ json: String) -> String? {
        do {
            _ = try CatalogFile.parse(Data(json.utf8))
            return nil
        } catch {
            return error.message
        }
    }

    // MARK: - Loading

    func testTemplateCatalogLoadsWithEveryField() throws {
        let catalog = try CatalogFile.parse(Data(contentsOf: URL(fileURLWithPath: templateCatalogPath)))

        XCTAssertEqual(
            catalog.products.map(\.id),
            [
                "lumen.pro.yearly", "lumen.pro.monthly", "lumen.pro.lifetime", "lumen.credits.100", "lumen.pass.month",
            ])
        XCTAssertEqual(
            catalog.products[0],
            Product(
                id: "lumen.pro.yearly", displayName: "Lumen Pro Yearly",
                description: "Every Lumen Pro feature, billed once a year.",
                price: decimal("39.99"), currencyCode: "USD", kind: .autoRenewable,
                period: SubscriptionPeriod(value: 1, unit: .year), subscriptionGroup: "pro", groupRank: 1,
                introductoryOffer: IntroductoryOffer(
                    mode: .freeTrial, period: SubscriptionPeriod(value: 1, unit: .week), count: 1, price: 0),
                familyShareable: false, entitlements: ["pro"], catalogPrice: "39.99"))
        XCTAssertEqual(
            catalog.products[1],
            Product(
                id: "lumen.pro.monthly", displayName: "Lumen Pro Monthly",
                description: "Every Lumen Pro feature, billed monthly.",
                price: decimal("7.99"), currencyCode: "USD", kind: .autoRenewable,
                period: SubscriptionPeriod(value: 1, unit: .month), subscriptionGroup: "pro", groupRank: 2,
                introductoryOffer: nil, familyShareable: false, entitlements: ["pro"], catalogPrice: "7.99"))
        XCTAssertEqual(
            catalog.products[2],
            Product(
                id: "lumen.pro.lifetime", displayName: "Lumen Pro Lifetime",
                description: "Every Lumen Pro feature, paid once.",
                price: decimal("99.99"), currencyCode: "USD", kind: .nonConsumable,
                period: nil, subscriptionGroup: nil, groupRank: nil, introductoryOffer: nil,
                familyShareable: false, entitlements: ["pro"], catalogPrice: "99.99"))
        XCTAssertEqual(
            catalog.products[3],
            Product(
                id: "lumen.credits.100", displayName: "100 AI Credits", description: "100 credits for AI features.",
                price: decimal("4.99"), currencyCode: "USD", kind: .consumable,
                period: nil, subscriptionGroup: nil, groupRank: nil, introductoryOffer: nil,
                familyShareable: false, entitlements: [], catalogPrice: "4.99"))
        XCTAssertEqual(
            catalog.products[4],
            Product(
                id: "lumen.pass.month", displayName: "Lumen Pass (1 month)",
                description: "Lumen Pro for one month, no renewal.",
                price: decimal("9.99"), currencyCode: "USD", kind: .nonRenewing,
                period: SubscriptionPeriod(value: 1, unit: .month), subscriptionGroup: nil, groupRank: nil,
                introductoryOffer: nil, familyShareable: false, entitlements: ["pro"], catalogPrice: "9.99"))
        XCTAssertEqual(catalog.groupNames, ["pro": "Lumen Pro"])
        XCTAssertEqual(catalog.settings, StoreSettings(gracePeriodDays: 16, billingRetryDays: 60, askToBuy: false))
    }

    func testOptionalFieldsTakeTheirDefaults() throws {
        let catalog = try parse(
            catalog(
                product: #"""
                    \#(basics), "kind": "auto_renewable", "period": "P1M", "group": "g",
                    "intro_offer": {"mode": "free_trial", "period": "P3D"}
                    """#))

        XCTAssertEqual(
            catalog.products,
            [
                Product(
                    id: "lumen.x", displayName: "X", description: "", price: decimal("1.99"), currencyCode: "USD",
                    kind: .autoRenewable, period: SubscriptionPeriod(value: 1, unit: .month), subscriptionGroup: "g",
                    groupRank: 1,
                    introductoryOffer: IntroductoryOffer(
                        mode: .freeTrial, period: SubscriptionPeriod(value: 3, unit: .day), count: 1, price: 0),
                    familyShareable: false, entitlements: [], catalogPrice: "1.99")
            ])
        XCTAssertEqual(catalog.groupNames, [:])
        XCTAssertEqual(catalog.settings, StoreSettings())
    }

    func testPaidIntroOfferKeepsCountAndPrice() throws {
        let catalog = try parse(
            catalog(
                product: #"""
                    \#(basics), "kind": "auto_renewable", "period": "P1M", "group": "g", "group_rank": 3,
                    "intro_offer": {"mode": "pay_as_you_go", "period": "P1M", "count": 3, "price": "0.99"}
                    """#))

        XCTAssertEqual(catalog.products.first?.groupRank, 3)
        XCTAssertEqual(
            catalog.products.first?.introductoryOffer,
            IntroductoryOffer(
                mode: .payAsYouGo, period: SubscriptionPeriod(value: 1, unit: .month), count: 3, price: decimal("0.99")))
    }

    func testPriceMayBeAJSONNumberAndStaysExact() throws {
        let catalog = try parse(catalog(product: #""display_name": "X", "price": 4.99, "currency": "USD", "kind": "consumable""#))

        XCTAssertEqual(catalog.products.first?.price, decimal("4.99"))
    }

    /// Reports and the app get the price as written: `Decimal` alone would make "49.00" "49".
    func testPriceKeepsTheCatalogsText() throws {
        let catalog = try parse(
            #"""
            {"products": [
              {"id": "a", "display_name": "A", "price": "49.00", "currency": "USD", "kind": "non_consumable"},
              {"id": "b", "display_name": "B", "price": "500", "currency": "JPY", "kind": "non_consumable"},
              {"id": "c", "display_name": "C", "price": 4.90, "currency": "USD", "kind": "consumable"}
            ]}
            """#)

        XCTAssertEqual(catalog.products.map(\.priceText), ["49.00", "500", "4.9"])
        XCTAssertEqual(catalog.products[0].price, decimal("49"))
    }

    func testNumberPriceNeverPassesThroughDouble() throws {
        // More significant digits than a Double holds: any trip through Double would round them.
        let catalog = try parse(
            catalog(product: #""display_name": "X", "price": 1234567890.123456789, "currency": "USD", "kind": "consumable""#))

        XCTAssertEqual(catalog.products.first?.price, decimal("1234567890.123456789"))
    }

    func testDecimalPricesAddUpExactly() throws {
        let catalog = try parse(
            #"""
            {"products": [
              {"id": "a", "display_name": "A", "price": "0.1", "currency": "USD", "kind": "consumable"},
              {"id": "b", "display_name": "B", "price": "0.2", "currency": "USD", "kind": "consumable"}
            ]}
            """#)

        XCTAssertEqual(catalog.products[0].price + catalog.products[1].price, decimal("0.3"))
    }

    func testUnknownKeysAreIgnored() throws {
        let catalog = try parse(
            #"""
            {"$schema": "x", "notes": ["anything"],
             "products": [{"id": "a", "display_name": "A", "price": "1", "currency": "USD", "kind": "consumable",
                           "color": "red", "tiers": {"x": 1}}]}
            """#)

        XCTAssertEqual(catalog.products.map(\.id), ["a"])
    }

    func testSettingsAndGroupsAreRead() throws {
        let catalog = try parse(
            #"""
            {"products": [{"id": "a", "display_name": "A", "price": "1", "currency": "USD", "kind": "consumable"}],
             "groups": {"pro": "Lumen Pro", "team": "Lumen Team"},
             "settings": {"grace_period_days": 3, "billing_retry_days": 30, "ask_to_buy": true}}
            """#)

        XCTAssertEqual(catalog.groupNames, ["pro": "Lumen Pro", "team": "Lumen Team"])
        XCTAssertEqual(catalog.settings, StoreSettings(gracePeriodDays: 3, billingRetryDays: 30, askToBuy: true))
    }

    // MARK: - Validation errors

    func testBadPeriodNamesProductAndField() {
        let json = #"""
            {"products": [
              {"id": "a", "display_name": "A", "price": "1", "currency": "USD", "kind": "consumable"},
              {"id": "b", "display_name": "B", "price": "1", "currency": "USD", "kind": "consumable"},
              {"id": "lumen.x", "display_name": "X", "price": "1", "currency": "USD", "kind": "auto_renewable",
               "period": "monthly", "group": "g"}
            ]}
            """#

        XCTAssertEqual(parseError(json), #"products[2] ("lumen.x"): "period" must be an ISO 8601 period like P1M, got "monthly""#)
    }

    func testMissingIdNamesProductByIndex() {
        XCTAssertEqual(
            parseError(#"{"products": [{"display_name": "X", "price": "1", "currency": "USD", "kind": "consumable"}]}"#),
            #"products[0]: "id" is required"#)
    }

    func testMissingRequiredFieldsAreNamed() {
        XCTAssertEqual(
            parseError(catalog(product: #""price": "1", "currency": "USD", "kind": "consumable""#)),
            #"products[0] ("lumen.x"): "display_name" is required"#)
        XCTAssertEqual(
            parseError(catalog(product: #""display_name": "X", "currency": "USD", "kind": "consumable""#)),
            #"products[0] ("lumen.x"): "price" is required"#)
        XCTAssertEqual(
            parseError(catalog(product: #""display_name": "X", "price": "1", "kind": "consumable""#)),
            #"products[0] ("lumen.x"): "currency" is required"#)
        XCTAssertEqual(
            parseError(catalog(product: basics)),
            #"products[0] ("lumen.x"): "kind" is required"#)
        XCTAssertEqual(parseError(#"{"groups": {}}"#), #""products" is required"#)
    }

    func testUnknownKindListsTheKinds() {
        XCTAssertEqual(
            parseError(catalog(product: #"\#(basics), "kind": "subscription""#)),
            #"products[0] ("lumen.x"): "kind" must be one of auto_renewable, non_renewing, consumable, non_consumable, got "subscription""#
        )
    }

    func testUnknownIntroModeListsTheModes() {
        XCTAssertEqual(
            parseError(
                catalog(
                    product: #"""
                        \#(basics), "kind": "auto_renewable", "period": "P1M", "group": "g",
                        "intro_offer": {"mode": "trial", "period": "P1W"}
                        """#)),
            #"products[0] ("lumen.x"): "intro_offer.mode" must be one of free_trial, pay_as_you_go, pay_up_front, got "trial""#)
    }

    func testBadIntroPeriodAndCountAreNamed() {
        XCTAssertEqual(
            parseError(
                catalog(
                    product: #"""
                        \#(basics), "kind": "auto_renewable", "period": "P1M", "group": "g",
                        "intro_offer": {"mode": "free_trial", "period": "1 week"}
                        """#)),
            #"products[0] ("lumen.x"): "intro_offer.period" must be an ISO 8601 period like P1M, got "1 week""#)
        XCTAssertEqual(
            parseError(
                catalog(
                    product: #"""
                        \#(basics), "kind": "auto_renewable", "period": "P1M", "group": "g",
                        "intro_offer": {"mode": "pay_as_you_go", "period": "P1M", "count": 0, "price": "0.99"}
                        """#)),
            #"products[0] ("lumen.x"): "intro_offer.count" must be a whole number from 1 to 10000, got 0"#)
    }

    func testFreeTrialMustBeFree() {
        XCTAssertEqual(
            parseError(
                catalog(
                    product: #"""
                        \#(basics), "kind": "auto_renewable", "period": "P1M", "group": "g",
                        "intro_offer": {"mode": "free_trial", "period": "P1W", "price": "0.99"}
                        """#)),
            #"products[0] ("lumen.x"): "intro_offer.price" must be 0 for a free_trial, got 0.99"#)
    }

    func testDuplicateIdsAreRejected() {
        let json = #"""
            {"products": [
              {"id": "lumen.x", "display_name": "A", "price": "1", "currency": "USD", "kind": "consumable"},
              {"id": "lumen.y", "display_name": "B", "price": "1", "currency": "USD", "kind": "consumable"},
              {"id": "lumen.x", "display_name": "C", "price": "1", "currency": "USD", "kind": "consumable"}
            ]}
            """#

        XCTAssertEqual(parseError(json), #"products[2] ("lumen.x"): "id" is already used by products[0]"#)
    }

    func testIntroOfferOnlyOnAutoRenewable() {
        XCTAssertEqual(
            parseError(
                catalog(
                    product: #"""
                        \#(basics), "kind": "non_renewing", "period": "P1M",
                        "intro_offer": {"mode": "free_trial", "period": "P1W"}
                        """#)),
            #"products[0] ("lumen.x"): "intro_offer" is only allowed on auto_renewable products, not non_renewing"#)
    }

    func testGroupOnlyOnAutoRenewable() {
        XCTAssertEqual(
            parseError(catalog(product: #"\#(basics), "kind": "non_consumable", "group": "pro""#)),
            #"products[0] ("lumen.x"): "group" is only allowed on auto_renewable products, not non_consumable"#)
    }

    func testPeriodNotAllowedOnOneTimePurchases() {
        XCTAssertEqual(
            parseError(catalog(product: #"\#(basics), "kind": "consumable", "period": "P1M""#)),
            #"products[0] ("lumen.x"): "period" is only allowed on auto_renewable and non_renewing products"#)
    }

    func testNegativePriceIsRejected() {
        XCTAssertEqual(
            parseError(catalog(product: #""display_name": "X", "price": "-1.99", "currency": "USD", "kind": "consumable""#)),
            #"products[0] ("lumen.x"): "price" must not be negative, got "-1.99""#)
        XCTAssertEqual(
            parseError(catalog(product: #""display_name": "X", "price": -2, "currency": "USD", "kind": "consumable""#)),
            #"products[0] ("lumen.x"): "price" must not be negative, got -2"#)
    }

    func testMalformedPriceIsRejected() {
        for (price, shown) in [
            (#""4,99""#, #""4,99""#), (#""$4.99""#, #""$4.99""#), (#""4.99abc""#, #""4.99abc""#), ("true", "true"),
        ] {
            XCTAssertEqual(
                parseError(
                    catalog(product: #""display_name": "X", "price": \#(price), "currency": "USD", "kind": "consumable""#)),
                #"products[0] ("lumen.x"): "price" must be a decimal amount like "4.99", got \#(shown)"#)
        }
    }

    func testCurrencyMustBeThreeUppercaseLetters() {
        for currency in ["usd", "US", "USDT", "U$D"] {
            XCTAssertEqual(
                parseError(
                    catalog(product: #""display_name": "X", "price": "1", "currency": "\#(currency)", "kind": "consumable""#)),
                #"products[0] ("lumen.x"): "currency" must be an ISO 4217 code of three uppercase letters like USD, got "\#(currency)""#
            )
        }
    }

    func testSubscriptionsNeedPeriodAndAutoRenewableNeedsGroup() {
        XCTAssertEqual(
            parseError(catalog(product: #"\#(basics), "kind": "non_renewing""#)),
            #"products[0] ("lumen.x"): "period" is required"#)
        XCTAssertEqual(
            parseError(catalog(product: #"\#(basics), "kind": "auto_renewable", "group": "g""#)),
            #"products[0] ("lumen.x"): "period" is required"#)
        XCTAssertEqual(
            parseError(catalog(product: #"\#(basics), "kind": "auto_renewable", "period": "P1Y""#)),
            #"products[0] ("lumen.x"): "group" is required"#)
    }

    func testWrongTypesAreNamed() {
        XCTAssertEqual(
            parseError(catalog(product: #"\#(basics), "kind": "consumable", "entitlements": "pro""#)),
            #"products[0] ("lumen.x"): "entitlements" must be an array, got "pro""#)
        XCTAssertEqual(
            parseError(catalog(product: #"\#(basics), "kind": "consumable", "family_shareable": "yes""#)),
            #"products[0] ("lumen.x"): "family_shareable" must be true or false, got "yes""#)
        XCTAssertEqual(
            parseError(
                catalog(product: #"\#(basics), "kind": "auto_renewable", "period": "P1M", "group": "g", "group_rank": 1.5"#)),
            #"products[0] ("lumen.x"): "group_rank" must be a whole number from 1 to 10000, got 1.5"#)
        XCTAssertEqual(
            parseError(#"{"products": [], "settings": {"grace_period_days": -1}}"#),
            #""settings.grace_period_days" must be a whole number from 0 to 10000, got -1"#)
        XCTAssertEqual(
            parseError(#"{"products": [], "groups": {"pro": 1}}"#),
            #""groups.pro" must be a string, got 1"#)
        XCTAssertEqual(parseError(#"{"products": [42]}"#), "products[0]: must be an object, got 42")
    }

    func testNotJSONAndNotAnObject() {
        XCTAssertEqual(parseError(#"{"products": [}"#), "is not valid JSON (unexpected character at line 1, column 15)")
        XCTAssertEqual(
            parseError("{\n  \"products\": [\n    1 2]}"), "is not valid JSON (expected ',' or ']' at line 3, column 7)")
        XCTAssertEqual(parseError("[]"), "must hold a JSON object at the top level, got an array")
    }

    func testDeepNestingIsRefusedWithADepthError() throws {
        let message = try XCTUnwrap(parseError(Fuzz.deeplyNested))
        XCTAssertTrue(message.contains("nested more than 512 levels"), message)
        XCTAssertEqual(parseError(Fuzz.wideAndDeep), "must hold a JSON object at the top level, got an array")
    }

    func testDuplicateKeysAreRefusedWhereTheyAre() {
        XCTAssertEqual(
            parseError(#"{"products": [], "products": 5}"#),
            #"is not valid JSON (duplicate key "products" (each key may appear once in an object; remove one) at line 1, column 18)"#
        )
        // A bad value after a good one must not win (nor a good one after a bad one).
        XCTAssertEqual(
            parseError(catalog(product: #"\#(basics), "kind": "consumable", "price": "-1""#)),
            #"is not valid JSON (duplicate key "price" (each key may appear once in an object; remove one) at line 1, column 112)"#
        )
    }

    func testEmptyCatalogIsRefusedWithAnExample() throws {
        let message = try XCTUnwrap(parseError(#"{"products": []}"#))
        XCTAssertTrue(message.hasPrefix(#""products" is empty; list at least one product, for example {"id": "#), message)
    }

    func testStoreKitFileInOurFormatIsRecognised() throws {
        let storeKit = try String(contentsOf: TestPaths.fixtures.appendingPathComponent("Lumen.storekit"), encoding: .utf8)
        for text in [storeKit, #"{"subscriptionGroups": []}"#, #"{"products": [{"productID": "a", "type": "Consumable"}]}"#] {
            let message = try XCTUnwrap(parseError(text))
            XCTAssertTrue(message.hasPrefix("looks like an Xcode .storekit file"), message)
            XCTAssertTrue(message.contains("rename it to end in .storekit"), message)
        }
    }

    func testNumbersWithExponentsAndManyDigitsStayExact() throws {
        let catalog = try parse(
            #"""
            {"products": [
              {"id": "a", "display_name": "A", "price": 0.1, "currency": "USD", "kind": "consumable"},
              {"id": "b", "display_name": "B", "price": 2.5e1, "currency": "USD", "kind": "consumable"},
              {"id": "c", "display_name": "C", "price": 0.30000000000000000001, "currency": "USD", "kind": "consumable"}
            ]}
            """#)
        XCTAssertEqual(catalog.products.map(\.price), [decimal("0.1"), decimal("25"), decimal("0.30000000000000000001")])
    }

    // MARK: - CatalogLoader

    func testLoaderReadsTheTemplateCatalog() throws {
        let catalog = try CatalogLoader.load(path: templateCatalogPath)

        XCTAssertEqual(catalog.products.count, 5)
        XCTAssertEqual(catalog.product(id: "lumen.pro.yearly")?.price, decimal("39.99"))
    }

    func testLoaderNamesAMissingFileAndSaysWhatToPass() {
        XCTAssertThrowsError(try CatalogLoader.load(path: "/nonexistent/store.json")) { error in
            XCTAssertEqual(
                (error as? CatalogError)?.message,
                "/nonexistent/store.json: no such file; pass the path of a catalog file "
                    + "(a .json catalog in our format, or an Xcode .storekit file)")
        }
    }

    func testLoaderRejectsADirectory() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }

        XCTAssertThrowsError(try CatalogLoader.load(path: directory.path)) { error in
            XCTAssertEqual(
                (error as? CatalogError)?.message,
                "\(directory.path): is a directory; pass the path of the catalog file inside it (for example store.json)")
        }
    }

    func testLoaderPrefixesParseErrorsWithThePath() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        // Any extension other than .storekit means our format.
        let file = try writeFile(catalog(product: #"\#(basics), "kind": "hourly""#), to: "catalog.txt", in: directory)

        XCTAssertThrowsError(try CatalogLoader.load(path: file.path)) { error in
            XCTAssertEqual(
                (error as? CatalogError)?.message,
                #"\#(file.path): products[0] ("lumen.x"): "kind" must be one of auto_renewable, non_renewing, consumable, non_consumable, got "hourly""#
            )
        }
    }

    func testCatalogErrorDescriptionIsItsMessage() {
        XCTAssertEqual(CatalogError("x: y").description, "x: y")
    }
}

// MARK: - Selling through license keys

extension CatalogFileTests {
    private var licenseProduct: String {
        #""display_name": "Pro", "price": "49", "currency": "USD", "kind": "non_consumable", "entitlements": ["pro"], "checkout_url": "https://s.lemonsqueezy.com/buy/1", "lemon_squeezy": {"product_id": 10, "variant_id": "11"}"#
    }

    func testALemonSqueezyCatalogReadsItsLicenseSettingsAndProductIds() throws {
        let catalog = try parse(
            #"{"store": "lemon_squeezy", "offline_grace_days": 3, "customer_portal_url": "https://s.lemonsqueezy.com/billing", "products": [{"id": "pro", \#(licenseProduct)}]}"#
        )
        let licensing = try XCTUnwrap(catalog.licensing)
        XCTAssertEqual(licensing.provider, .lemonSqueezy)
        XCTAssertEqual(licensing.apiBaseURL.absoluteString, "https://api.lemonsqueezy.com")
        XCTAssertEqual(licensing.offlineGraceDays, 3)
        XCTAssertEqual(licensing.customerPortalURL?.absoluteString, "https://s.lemonsqueezy.com/billing")
        XCTAssertEqual(catalog.products[0].merchant, MerchantProduct(store: .lemonSqueezy, productId: "10", variantId: "11"))
        XCTAssertEqual(catalog.products[0].checkoutURL?.absoluteString, "https://s.lemonsqueezy.com/buy/1")
        XCTAssertEqual(
            try parse(#"{"store": "lemon_squeezy", "products": [{"id": "pro", \#(licenseProduct)}]}"#).licensing?
                .offlineGraceDays, 14)
    }

    func testLicenseFieldsAreCheckedWithMessagesSayingWhereAndHow() {
        let cases: [(String, String)] = [
            (
                #"{"store": "paddle", "products": [{"id": "pro", \#(licenseProduct)}]}"#,
                #""store" must be lemon_squeezy, polar, keygen, gumroad, signed_license"#
            ),
            (
                #"{"store": "gumroad", "products": [{"id": "pro", \#(licenseProduct)}]}"#,
                #"products[0] ("pro"): "lemon_squeezy" is only allowed on a product sold through lemon_squeezy; this one's store is gumroad"#
            ),
            (
                #"{"store": "lemon_squeezy", "products": [{"id": "pro", \#(licenseProduct), "store": "polar"}]}"#,
                #""polar" is required when a product sells through Polar"#
            ),
            (
                #"{"store": "polar", "polar": {"organization_id": "org"}, "products": [{"id": "pro", \#(basics), "kind": "consumable", "checkout_url": "https://x.y/buy"}]}"#,
                #"products[0] ("pro"): "polar" is required on a product sold through Polar: {"benefit_id""#
            ),
            (
                #"{"store": "keygen", "keygen": {"api_base_url": "https://keygen.example"}, "products": [{"id": "pro", \#(licenseProduct)}]}"#,
                #""keygen.account" is required"#
            ),
            (
                #"{"store": "signed_license", "products": [{"id": "pro", \#(basics), "kind": "consumable", "checkout_url": "https://x.y/buy"}]}"#,
                #""license_public_key" is required with "store": "signed_license""#
            ),
            (
                #"{"store": "signed_license", "license_public_key": "abc", "products": [{"id": "pro", \#(basics), "kind": "consumable", "checkout_url": "https://x.y/buy"}]}"#,
                #"license_public_key is neither a PEM public key (-----BEGIN PUBLIC KEY-----) nor 64 hex digits (got 3 characters)"#
            ),
            (
                #"{"store": "lemon_squeezy", "license_public_key": "-----BEGIN PRIVATE KEY-----\nMC4=\n-----END PRIVATE KEY-----", "products": [{"id": "pro", \#(licenseProduct)}]}"#,
                #"license_public_key is PEM but not a public key (-----BEGIN PRIVATE KEY-----): a private key must never be in a catalog"#
            ),
            (
                #"{"store": "gumroad", "products": [{"id": "pro", \#(basics), "kind": "consumable", "checkout_url": "https://x.y/buy", "gumroad": {"product_id": "abc", "max_uses": 0}}]}"#,
                #""gumroad.max_uses" must be a whole number from 1"#
            ),
            (
                #"{"store": "lemon_squeezy", "products": [{"id": "pro", \#(licenseProduct), "store": "stripe"}]}"#,
                #"products[0]: "store" must be lemon_squeezy, polar"#
            ),
            (
                #"{"store": "lemon_squeezy", "license_api_base_url": "http://api.example.com", "products": [{"id": "pro", \#(licenseProduct)}]}"#,
                #""license_api_base_url" must be https"#
            ),
            (
                #"{"store": "lemon_squeezy", "offline_grace_days": -1, "products": [{"id": "pro", \#(licenseProduct)}]}"#,
                #""offline_grace_days" must be a whole number from 0 to 3650"#
            ),
            (
                #"{"store": "lemon_squeezy", "products": [{"id": "pro", \#(basics), "kind": "consumable", "lemon_squeezy": {"product_id": 1}}]}"#,
                #"products[0] ("pro"): "checkout_url" is required on a product sold through license keys"#
            ),
            (
                #"{"store": "lemon_squeezy", "products": [{"id": "pro", \#(basics), "kind": "consumable", "checkout_url": "https://x.y/buy"}]}"#,
                #"products[0] ("pro"): "lemon_squeezy" is required"#
            ),
            (
                #"{"store": "lemon_squeezy", "products": [{"id": "pro", \#(basics), "kind": "consumable", "checkout_url": "https://x.y/buy", "lemon_squeezy": {"product_id": 1.5}}]}"#,
                #""lemon_squeezy.product_id" must be an id"#
            ),
            (
                catalog(product: #"\#(basics), "kind": "consumable", "checkout_url": "https://x.y/buy""#),
                #""checkout_url" is only allowed in a catalog with a license "store" such as "lemon_squeezy""#
            ),
            (
                #"{"offline_grace_days": 3, "products": [{"id": "pro", \#(basics), "kind": "consumable"}]}"#,
                #""offline_grace_days" is only allowed in a catalog that sells through license keys"#
            ),
            (
                #"{"lemon_squeezy": {"store_id": 1}, "products": [{"id": "pro", \#(basics), "kind": "consumable"}]}"#,
                #""lemon_squeezy" is only allowed in a catalog that sells through license keys"#
            ),
            (
                #"{"store": "lemon_squeezy", "lemon_squeezy": {}, "products": [{"id": "pro", \#(licenseProduct)}]}"#,
                #""lemon_squeezy.store_id" is required"#
            ),
        ]
        for (json, expected) in cases {
            let message = parseError(json)
            XCTAssertTrue(message?.contains(expected) == true, "\(json)\n-> \(message ?? "no error"), expected \(expected)")
        }
    }

    func testEachProductSellsThroughItsOwnMerchantInCatalogOrder() throws {
        let product = { (id: String, store: String, ids: String) in
            #"{"id": "\#(id)", \#(self.basics), "kind": "non_consumable", "checkout_url": "https://x.y/\#(id)", "store": "\#(store)", \#(ids)}"#
        }
        let catalog = try parse(
            #"{"store": "lemon_squeezy", "polar": {"organization_id": "org-1", "api_base_url": "http://127.0.0.1:9"},"#
                + #""keygen": {"account": "acme"}, "license_public_key": "\#(String(repeating: "ab", count: 32))", "app_id": "com.example.App","#
                + #""products": [\#(product("old", "lemon_squeezy", #""lemon_squeezy": {"product_id": 1}"#)),"#
                + #"\#(product("gum", "gumroad", #""gumroad": {"product_id": "abc", "max_uses": 3}"#)),"#
                + #"\#(product("new", "polar", #""polar": {"benefit_id": "b-1"}"#)),"#
                + #"\#(product("kg", "keygen", #""keygen": {"product": "p-1", "policy": "pol-1"}"#)),"#
                + #"\#(product("file", "signed_license", #""entitlements": ["pro"]"#))]}"#)
        let licensing = try XCTUnwrap(catalog.licensing)
        XCTAssertEqual(licensing.merchants, [.lemonSqueezy, .gumroad, .polar, .keygen, .signedLicense])
        XCTAssertEqual(
            licensing.polar, LicenseSettings.Polar(organizationId: "org-1", apiBaseURL: URL(string: "http://127.0.0.1:9")!))
        XCTAssertEqual(licensing.keygen, LicenseSettings.Keygen(account: "acme"))
        XCTAssertEqual(licensing.keygen?.apiBaseURL.absoluteString, "https://api.keygen.sh")
        XCTAssertEqual(licensing.appId, "com.example.App")
        XCTAssertEqual(
            catalog.products.map(\.merchant),
            [
                MerchantProduct(store: .lemonSqueezy, productId: "1"),
                MerchantProduct(store: .gumroad, productId: "abc", maxUses: 3),
                MerchantProduct(store: .polar, productId: "b-1"),
                MerchantProduct(store: .keygen, productId: "p-1", variantId: "pol-1"),
                MerchantProduct(store: .signedLicense),
            ])
    }

    func testTheAppIdDefaultsToTheCatalogsFileName() throws {
        let dir = try makeTemporaryDirectory("CatalogAppId")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("lumen.json").path
        try #"{"store": "lemon_squeezy", "products": [{"id": "pro", \#(licenseProduct)}]}"#.write(
            toFile: path, atomically: true, encoding: .utf8)
        XCTAssertEqual(try CatalogLoader.load(path: path).licensing?.appId, "lumen.json")
    }

    func testLoopbackHTTPIsAllowedForTests() throws {
        let catalog = try parse(
            #"{"store": "lemon_squeezy", "license_api_base_url": "http://127.0.0.1:8080", "products": [{"id": "pro", \#(licenseProduct)}]}"#
        )
        XCTAssertEqual(catalog.licensing?.apiBaseURL.absoluteString, "http://127.0.0.1:8080")
    }

    func testTheSellersStoreIdIsOptional() throws {
        let product = #"{"id": "pro", \#(licenseProduct)}"#
        XCTAssertNil(try parse(#"{"store": "lemon_squeezy", "products": [\#(product)]}"#).licensing?.storeId)
        let catalog = try parse(#"{"store": "lemon_squeezy", "lemon_squeezy": {"store_id": 42}, "products": [\#(product)]}"#)
        XCTAssertEqual(catalog.licensing?.storeId, "42")
    }
}
