import Foundation

/// Our catalog format: a JSON file (snake_case keys) listing the products a paywall sells.
///
/// ```json
/// {
///   "products": [
///     {"id": "lumen.pro.yearly", "display_name": "Lumen Pro Yearly", "description": "All of Lumen, billed yearly",
///      "price": "39.99", "currency": "USD", "kind": "auto_renewable", "period": "P1Y",
///      "group": "pro", "group_rank": 1,
///      "intro_offer": {"mode": "free_trial", "period": "P1W", "count": 1, "price": "0"},
///      "family_shareable": false, "entitlements": ["pro"]}
///   ],
///   "groups": {"pro": "Lumen Pro"},
///   "settings": {"grace_period_days": 16, "billing_retry_days": 60, "ask_to_buy": false}
/// }
/// ```
///
/// A product:
/// - `id` (required): unique within the file.
/// - `display_name` (required), `description` (default `""`).
/// - `price` (required): a decimal string such as `"39.99"` (a JSON number is accepted too), never
///   negative. It is read exactly, so `"0.1"` is 0.1 and not the nearest binary fraction.
/// - `currency` (required): an ISO 4217 code, three uppercase letters (`USD`).
/// - `kind` (required): `auto_renewable`, `non_renewing`, `consumable` or `non_consumable`.
/// - `period`: an ISO 8601 period of one unit (`P3D`, `P1W`, `P1M`, `P1Y`); required for
///   `auto_renewable` and `non_renewing`, not allowed on the other kinds.
/// - `group`: the subscription group; required for `auto_renewable`, not allowed on other kinds.
///   `group_rank` (default 1) is the level in the group, 1 the highest.
/// - `intro_offer`: only on `auto_renewable`. `mode` (required) is `free_trial`, `pay_as_you_go`
///   or `pay_up_front`; `period` (required) the length of one offer period; `count` (default 1)
///   how many; `price` (default 0) the price of one period, which must be 0 for a free trial.
/// - `family_shareable` (default `false`), `entitlements` (default `[]`): what buying it unlocks.
///
/// At the top level, `products` is required and must not be empty; `groups` (group id -> display name) and `settings`
/// are optional. Settings default to `StoreSettings()`: `grace_period_days` (0),
/// `billing_retry_days` (60), `ask_to_buy` (false).
///
/// Selling through license keys (`LicenseKeyStore`): `"store": "lemon_squeezy"` at the top
/// level, with the optional `license_api_base_url` (default `https://api.lemonsqueezy.com`;
/// `https`, or `http` to a loopback address), `offline_grace_days` (default 14) and
/// `customer_portal_url`, and `lemon_squeezy: {"store_id": ...}` (keys from another store are
/// refused); each product then needs `checkout_url` and `lemon_squeezy:
/// {"product_id": ..., "variant_id": ...}` (`variant_id` optional), which other catalogs may not have.
///
/// Keys this format does not define are ignored, so files can carry notes or tool-specific data;
/// a key written twice in one object is an error.
/// Errors name the product (by index and id) and the field, e.g.
/// `products[2] ("lumen.x"): "period" must be an ISO 8601 period like P1M, got "monthly"`.
package enum CatalogFile {
    /// Parses and validates a catalog file.
    package static func parse(_ data: Data) throws(CatalogError) -> Catalog {
        let root = try CatalogJSON.parseObject(data)
        try refuseStoreKitShape(root)
        let entries = try root.required("products", root.array("products"))
        var products: [Product] = []
        var indexByID: [String: Int] = [:]
        for (index, entry) in entries.enumerated() {
            let product = try parseProduct(entry, index: index)
            if let first = indexByID[product.id] {
                throw CatalogError("products[\(index)] (\"\(product.id)\"): \"id\" is already used by products[\(first)]")
            }
            indexByID[product.id] = index
            products.append(product)
        }
        let groupNames = try parseGroups(root)
        let settings = try parseSettings(root)
        let licensing = try parseLicensing(root)
        try checkLicenseFields(products, entries: entries, licensing: licensing)
        // An empty catalog would load and then sell nothing, which is never what was meant.
        guard !products.isEmpty else {
            throw root.error(
                "products",
                "is empty; list at least one product, for example "
                    + #"{"id": "pro.monthly", "display_name": "Pro", "price": "4.99", "currency": "USD", "kind": "consumable"}"#)
        }
        return Catalog(products: products, groupNames: groupNames, settings: settings, licensing: licensing)
    }

    /// A `.storekit` file saved as `.json` would otherwise fail on its first product's missing
    /// `id`, which does not say what is wrong.
    private static func refuseStoreKitShape(_ root: CatalogObject) throws(CatalogError) {
        let storeKitKeys = ["subscriptionGroups", "nonRenewingSubscriptions"]
        let productsUseProductID =
            (try? root.array("products"))??.contains { item in
                guard case .object(let fields) = item else { return false }
                return fields["productID"] != nil && fields["id"] == nil
            } ?? false
        guard productsUseProductID || (root.fields["products"] == nil && storeKitKeys.contains { root.fields[$0] != nil })
        else { return }
        throw CatalogError(
            "looks like an Xcode .storekit file (it has \"productID\" or \"subscriptionGroups\"), not a catalog in "
                + "this JSON format; rename it to end in .storekit so it is read as one, or rewrite it in this format")
    }

    private static func parseProduct(_ entry: CatalogJSON, index: Int) throws(CatalogError) -> Product {
        let unnamed = try CatalogObject.element(entry, at: "products[\(index)]")
        let id = try unnamed.required("id", unnamed.nonEmptyString("id"))
        let fields = unnamed.located(at: "products[\(index)] (\"\(id)\")")

        let kindText = try fields.required("kind", fields.string("kind"))
        guard let kind = Product.Kind(rawValue: kindText) else {
            throw fields.error("kind", "must be one of \(names(of: Product.Kind.self)), got \"\(kindText)\"")
        }
        let currency = try fields.required("currency", fields.string("currency"))
        guard currency.count == 3, currency.allSatisfy({ $0.isASCII && $0.isUppercase }) else {
            throw fields.error("currency", "must be an ISO 4217 code of three uppercase letters like USD, got \"\(currency)\"")
        }

        var product = Product(
            id: id,
            displayName: try fields.required("display_name", fields.nonEmptyString("display_name")),
            description: try fields.string("description") ?? "",
            price: try fields.required("price", fields.price("price")),
            currencyCode: currency,
            kind: kind,
            familyShareable: try fields.bool("family_shareable") ?? false,
            entitlements: try fields.stringArray("entitlements") ?? [],
            checkoutURL: try fields.url("checkout_url"))
        product.catalogPrice = fields.priceText("price")
        if let ids = try fields.object("lemon_squeezy") {
            product.lemonSqueezy = LemonSqueezyProduct(
                productId: try ids.required("product_id", ids.identifier("product_id")),
                variantId: try ids.identifier("variant_id"))
        }

        // Fields that only make sense for some kinds are rejected elsewhere rather than dropped,
        // so a product whose kind was mistyped does not silently lose its subscription terms.
        let period = try fields.period("period")
        let group = try fields.nonEmptyString("group")
        let groupRank = try fields.integer("group_rank", minimum: 1)
        let introOffer = try fields.object("intro_offer")
        switch kind {
        case .autoRenewable:
            product.period = try fields.required("period", period)
            product.subscriptionGroup = try fields.required("group", group)
            product.groupRank = groupRank ?? 1
            product.introductoryOffer = try introOffer.map { (offer) throws(CatalogError) in try parseIntroOffer(offer) }
        case .nonRenewing, .consumable, .nonConsumable:
            if kind == .nonRenewing {
                product.period = try fields.required("period", period)
            } else if period != nil {
                throw fields.error("period", "is only allowed on auto_renewable and non_renewing products")
            }
            for (key, present) in [("group", group != nil), ("group_rank", groupRank != nil), ("intro_offer", introOffer != nil)]
            where present {
                throw fields.error(key, "is only allowed on auto_renewable products, not \(kind.rawValue)")
            }
        }
        return product
    }

    private static func parseIntroOffer(_ fields: CatalogObject) throws(CatalogError) -> IntroductoryOffer {
        let modeText = try fields.required("mode", fields.string("mode"))
        guard let mode = IntroductoryOffer.Mode(rawValue: modeText) else {
            throw fields.error("mode", "must be one of \(names(of: IntroductoryOffer.Mode.self)), got \"\(modeText)\"")
        }
        let price = try fields.price("price") ?? 0
        if mode == .freeTrial, price != 0 {
            throw fields.error("price", "must be 0 for a free_trial, got \(price)")
        }
        return IntroductoryOffer(
            mode: mode,
            period: try fields.required("period", fields.period("period")),
            count: try fields.integer("count", minimum: 1) ?? 1,
            price: price)
    }

    private static func parseGroups(_ root: CatalogObject) throws(CatalogError) -> [String: String] {
        guard let groups = try root.object("groups") else { return [:] }
        var names: [String: String] = [:]
        for key in groups.fields.keys.sorted() {
            names[key] = try groups.required(key, groups.string(key))
        }
        return names
    }

    private static func parseSettings(_ root: CatalogObject) throws(CatalogError) -> StoreSettings {
        let defaults = StoreSettings()
        guard let settings = try root.object("settings") else { return defaults }
        return StoreSettings(
            gracePeriodDays: try settings.integer("grace_period_days", minimum: 0) ?? defaults.gracePeriodDays,
            billingRetryDays: try settings.integer("billing_retry_days", minimum: 0) ?? defaults.billingRetryDays,
            askToBuy: try settings.bool("ask_to_buy") ?? defaults.askToBuy)
    }

    /// `"store": "lemon_squeezy"` and its settings; nil for a catalog the configured store sells.
    private static func parseLicensing(_ root: CatalogObject) throws(CatalogError) -> LicenseSettings? {
        let licenseKeys = ["license_api_base_url", "offline_grace_days", "customer_portal_url", "lemon_squeezy"]
        guard let name = try root.string("store") else {
            if let key = licenseKeys.first(where: { root.value($0) != nil }) {
                throw root.error(key, "is only allowed with \"store\": \"lemon_squeezy\"; add that, or remove it")
            }
            return nil
        }
        guard let provider = LicenseSettings.Provider(rawValue: name) else {
            throw root.error(
                "store",
                "must be \(names(of: LicenseSettings.Provider.self)) (or left out for the store the "
                    + "app configures), got \"\(name)\"")
        }
        let defaults = LicenseSettings()
        let seller = try root.object("lemon_squeezy")
        return LicenseSettings(
            provider: provider, apiBaseURL: try root.url("license_api_base_url") ?? defaults.apiBaseURL,
            offlineGraceDays: try root.integer("offline_grace_days", minimum: 0, maximum: 3650) ?? defaults.offlineGraceDays,
            customerPortalURL: try root.url("customer_portal_url"),
            storeId: try seller.map { seller throws(CatalogError) in
                try seller.required("store_id", seller.identifier("store_id"))
            })
    }

    /// A license-key catalog's products each need a checkout and their Lemon Squeezy ids; other
    /// catalogs may not have them (they would do nothing there).
    private static func checkLicenseFields(_ products: [Product], entries: [CatalogJSON], licensing: LicenseSettings?)
        throws(CatalogError)
    {
        for (index, product) in products.enumerated() {
            let fields = try CatalogObject.element(entries[index], at: "products[\(index)] (\"\(product.id)\")")
            if licensing == nil {
                for key in ["checkout_url", "lemon_squeezy"] where fields.value(key) != nil {
                    throw fields.error(key, "is only allowed in a catalog with \"store\": \"lemon_squeezy\"")
                }
                continue
            }
            if product.checkoutURL == nil { throw fields.error("checkout_url", "is required with \"store\": \"lemon_squeezy\"") }
            if product.lemonSqueezy == nil {
                throw fields.error(
                    "lemon_squeezy",
                    "is required with \"store\": \"lemon_squeezy\": "
                        + #"{"product_id": 12345, "variant_id": 67890} from the product's page in the Lemon Squeezy dashboard"#)
            }
        }
    }

    /// The raw values of an enum, for "must be one of ..." messages.
    private static func names<T: CaseIterable & RawRepresentable>(of _: T.Type) -> String
    where T.RawValue == String {
        T.allCases.map(\.rawValue).joined(separator: ", ")
    }
}
