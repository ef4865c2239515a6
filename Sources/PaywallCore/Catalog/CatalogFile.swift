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
/// Selling through license keys (`LicenseKeyStore`): `"store"` at the top level names the
/// merchant (`lemon_squeezy`, `polar`, `keygen`, `gumroad`, `signed_license`), which a product's
/// own `store` overrides, so one catalog may sell through several. Catalog-wide: the optional
/// `license_api_base_url` (Lemon Squeezy's, default `https://api.lemonsqueezy.com`; every API URL
/// is `https`, or `http` to a loopback address), `offline_grace_days` (default 14),
/// `customer_portal_url`, `lemon_squeezy: {"store_id": ...}` (keys from another store are
/// refused), `polar: {organization_id, api_base_url}`, `keygen: {account, api_base_url}`,
/// `gumroad: {api_base_url}`, `license_public_key` (Ed25519, PEM or hex: signed licenses) and
/// `app_id` (the machine fingerprint's key; default the catalog's file name). Each product then
/// needs `checkout_url` and its ids at its merchant: `lemon_squeezy: {product_id, variant_id?}`,
/// `polar: {benefit_id}`, `keygen: {product, policy?}`, `gumroad: {product_id, max_uses?}`
/// (none for `signed_license`), which other catalogs may not have.
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
        let licensing = try parseLicensing(root, entries: entries)
        try addMerchants(to: &products, entries: entries, licensing: licensing)
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

    /// The catalog-wide license fields; a product's `store` and merchant ids are `merchantProduct`'s.
    private static let licenseKeys = [
        "license_api_base_url", "offline_grace_days", "customer_portal_url", "lemon_squeezy", "polar", "keygen", "gumroad",
        "license_public_key", "app_id",
    ]
    /// The merchant-id blocks a product may carry, by its store.
    private static let productBlocks: [LicenseSettings.Provider: String] = [
        .lemonSqueezy: "lemon_squeezy", .polar: "polar", .keygen: "keygen", .gumroad: "gumroad",
    ]

    /// `"store"` and the merchants' settings; nil for a catalog the configured store sells.
    private static func parseLicensing(_ root: CatalogObject, entries: [CatalogJSON]) throws(CatalogError)
        -> LicenseSettings?
    {
        guard let name = try root.string("store") else {
            if let key = licenseKeys.first(where: { root.value($0) != nil }) {
                throw root.error(
                    key,
                    "is only allowed in a catalog that sells through license keys, with \"store\": "
                        + "\"lemon_squeezy\" (or polar, keygen, gumroad, signed_license); add that, or remove it")
            }
            return nil
        }
        let provider = try store(named: name, in: root, key: "store")
        var merchants = [provider]
        for (index, entry) in entries.enumerated() {
            let fields = try CatalogObject.element(entry, at: "products[\(index)]")
            if let own = try fields.string("store") {
                let store = try store(named: own, in: fields, key: "store")
                if !merchants.contains(store) { merchants.append(store) }
            }
        }
        let defaults = LicenseSettings()
        let seller = try root.object("lemon_squeezy")
        let polar = try root.object("polar")
        let keygen = try root.object("keygen")
        let gumroad = try root.object("gumroad")
        let publicKey = try root.nonEmptyString("license_public_key")
        // A wrong key is found here, where the file is named, not at the first license it refuses.
        if let publicKey {
            do throws(LicenseError) { _ = try LicensePublicKey(parsing: publicKey) } catch { throw CatalogError(error.message) }
        }
        let settings = LicenseSettings(
            provider: provider, apiBaseURL: try root.url("license_api_base_url") ?? defaults.apiBaseURL,
            offlineGraceDays: try root.integer("offline_grace_days", minimum: 0, maximum: 3650) ?? defaults.offlineGraceDays,
            customerPortalURL: try root.url("customer_portal_url"),
            storeId: try seller.map { seller throws(CatalogError) in
                try seller.required("store_id", seller.identifier("store_id"))
            },
            polar: try polar.map { polar throws(CatalogError) in
                LicenseSettings.Polar(
                    organizationId: try polar.required("organization_id", polar.identifier("organization_id")),
                    apiBaseURL: try polar.url("api_base_url") ?? LicenseSettings.polarAPI)
            },
            keygen: try keygen.map { keygen throws(CatalogError) in
                LicenseSettings.Keygen(
                    account: try keygen.required("account", keygen.identifier("account")),
                    apiBaseURL: try keygen.url("api_base_url") ?? LicenseSettings.keygenAPI)
            },
            gumroadAPIBaseURL: try gumroad?.url("api_base_url") ?? LicenseSettings.gumroadAPI,
            publicKey: publicKey, appId: try root.nonEmptyString("app_id"), merchants: merchants)
        for store in merchants {
            switch store {
            case .polar where settings.polar == nil:
                throw root.error(
                    "polar",
                    "is required when a product sells through Polar: {\"organization_id\": \"...\"} "
                        + "from your organization's settings in the Polar dashboard")
            case .keygen where settings.keygen == nil:
                throw root.error(
                    "keygen",
                    "is required when a product sells through Keygen: {\"account\": \"...\"}, your account's "
                        + "id or slug (and \"api_base_url\" for a self-hosted server)")
            case .signedLicense where publicKey == nil:
                throw root.error(
                    "license_public_key",
                    "is required with \"store\": \"signed_license\": the Ed25519 public key licenses are signed with, "
                        + "PEM (openssl pkey -in PRIVATE.pem -pubout) or 64 hex digits")
            default: break
            }
        }
        return settings
    }

    private static func store(named name: String, in fields: CatalogObject, key: String) throws(CatalogError)
        -> LicenseSettings.Provider
    {
        guard let store = LicenseSettings.Provider(rawValue: name) else {
            throw fields.error(
                key,
                "must be \(names(of: LicenseSettings.Provider.self)) (or left out for the store the "
                    + "app configures), got \"\(name)\"")
        }
        return store
    }

    /// A license-key catalog's products each need a checkout and their ids at their merchant
    /// (its `store`, else the catalog's); other catalogs may not have them (they would do nothing there).
    private static func addMerchants(to products: inout [Product], entries: [CatalogJSON], licensing: LicenseSettings?)
        throws(CatalogError)
    {
        for (index, product) in products.enumerated() {
            let fields = try CatalogObject.element(entries[index], at: "products[\(index)] (\"\(product.id)\")")
            guard let licensing else {
                for key in ["checkout_url", "store"] + productBlocks.values.sorted() where fields.value(key) != nil {
                    throw fields.error(key, "is only allowed in a catalog with a license \"store\" such as \"lemon_squeezy\"")
                }
                continue
            }
            let store =
                try fields.string("store").map { (name) throws(CatalogError) in
                    try Self.store(named: name, in: fields, key: "store")
                } ?? licensing.provider
            for (other, key) in productBlocks where other != store && fields.value(key) != nil {
                throw fields.error(
                    key, "is only allowed on a product sold through \(other.rawValue); this one's store is \(store.rawValue)")
            }
            if product.checkoutURL == nil {
                throw fields.error("checkout_url", "is required on a product sold through license keys: where it is bought")
            }
            products[index].merchant = try merchantProduct(store, fields)
        }
    }

    private static func merchantProduct(_ store: LicenseSettings.Provider, _ fields: CatalogObject) throws(CatalogError)
        -> MerchantProduct
    {
        guard let key = productBlocks[store] else { return MerchantProduct(store: store) }
        let example =
            switch store {
            case .lemonSqueezy:
                #"{"product_id": 12345, "variant_id": 67890} from the product's page in the Lemon Squeezy dashboard"#
            case .polar: #"{"benefit_id": "..."}, the id of the product's License Keys benefit in the Polar dashboard"#
            case .keygen: #"{"product": "...", "policy": "..."}, the ids of the product (and policy) in the Keygen dashboard"#
            default: #"{"product_id": "...", "max_uses": 3}, the product's id from its Gumroad edit page"#
            }
        guard let ids = try fields.object(key) else {
            throw fields.error(key, "is required on a product sold through \(store.displayName): \(example)")
        }
        switch store {
        case .lemonSqueezy:
            return MerchantProduct(
                store: store, productId: try ids.required("product_id", ids.identifier("product_id")),
                variantId: try ids.identifier("variant_id"))
        case .polar:
            return MerchantProduct(store: store, productId: try ids.required("benefit_id", ids.identifier("benefit_id")))
        case .keygen:
            return MerchantProduct(
                store: store, productId: try ids.required("product", ids.identifier("product")),
                variantId: try ids.identifier("policy"))
        default:
            return MerchantProduct(
                store: store, productId: try ids.required("product_id", ids.identifier("product_id")),
                maxUses: try ids.integer("max_uses", minimum: 1))
        }
    }

    /// The raw values of an enum, for "must be one of ..." messages.
    private static func names<T: CaseIterable & RawRepresentable>(of _: T.Type) -> String
    where T.RawValue == String {
        T.allCases.map(\.rawValue).joined(separator: ", ")
    }
}
