import Foundation

/// Imports Apple's StoreKit configuration files (`.storekit`, the JSON Xcode writes), so testers can
/// reuse the catalog they already keep for Xcode.
///
/// Where products come from:
/// - `subscriptionGroups[].subscriptions[]` become auto-renewable products: the group's `id` is their
///   `subscriptionGroup`, `groupNumber` their `groupRank`, `recurringSubscriptionPeriod` their period,
///   and `introductoryOffer` (`paymentMode` `free` / `payAsYouGo` / `payUpFront`,
///   `subscriptionPeriod`, `numberOfPeriods`, `displayPrice`) their introductory offer.
/// - `products[]` of type `Consumable` and `NonConsumable` become consumables and non-consumables;
///   `NonRenewingSubscription`, there or in `nonRenewingSubscriptions[]`, become non-renewing
///   subscriptions. A `.storekit` file gives a non-renewing subscription no length (the app decides
///   it), so they are given `nonRenewingPeriod`, one month.
///
/// The catalog lists the subscriptions (group by group, in file order), then `products[]`, then
/// `nonRenewingSubscriptions[]`.
///
/// Names and prices: `displayName` and `description` come from the first localization whose `locale`
/// is the settings' `_locale`, else from the first localization, else `referenceName` (and an empty
/// description). `displayPrice` is read exactly as a decimal. The file has no currency: it is the
/// currency of `_locale` (`de_DE` -> EUR), USD when there is no `_locale` or it names no region.
///
/// Entitlements (a contract apps rely on): an auto-renewable subscription unlocks one entitlement
/// named after its subscription group's `name`, so every level of a group unlocks the same thing; a
/// non-consumable and a non-renewing subscription each unlock one named after their `productID`; a
/// consumable unlocks none.
///
/// Settings: `_billingGracePeriodEnabled` gives a 16-day grace period (the file only says on or off;
/// 16 days is one of the durations App Store Connect offers), `_askToBuyEnabled` turns on Ask to Buy.
///
/// Ignored: `_timeRate`, `_storefront`, `_failTransactionsEnabled`, `_storeKitErrors`, `adHocOffers`,
/// `codeOffers`, group `localizations`, `appPolicies`, and any other key: the fake store has its own
/// controls for time, failures and offers.
package enum StoreKitConfiguration {
    /// The period given to non-renewing subscriptions, whose length a `.storekit` file does not record.
    package static let nonRenewingPeriod = SubscriptionPeriod(value: 1, unit: .month)

    /// Grace period used when the file turns `_billingGracePeriodEnabled` on.
    package static let gracePeriodDays = 16

    /// Converts a `.storekit` file into a catalog.
    package static func parse(_ data: Data) throws(CatalogError) -> Catalog {
        let root = try CatalogJSON.parseObject(data)
        let settings = try root.object("settings")
        let locale = try settings?.string("_locale")
        let currency = locale.flatMap { Locale(identifier: $0).currency?.identifier } ?? "USD"
        var builder = Builder(locale: locale, currency: currency)

        var groupLocations: [String: String] = [:]
        for (groupIndex, entry) in (try root.array("subscriptionGroups") ?? []).enumerated() {
            let unnamed = try CatalogObject.element(entry, at: "subscriptionGroups[\(groupIndex)]")
            let groupID = try unnamed.required("id", unnamed.nonEmptyString("id"))
            let group = unnamed.located(at: "subscriptionGroups[\(groupIndex)] (\"\(groupID)\")")
            if let first = groupLocations[groupID] {
                throw group.error("id", "is already used by \(first)")
            }
            groupLocations[groupID] = "subscriptionGroups[\(groupIndex)]"
            let groupName = try group.required("name", group.nonEmptyString("name"))
            builder.groupNames[groupID] = groupName
            for (index, subscription) in (try group.array("subscriptions") ?? []).enumerated() {
                try builder.addSubscription(
                    subscription, at: "\(group.location).subscriptions[\(index)]", groupID: groupID, groupName: groupName)
            }
        }
        for (index, entry) in (try root.array("products") ?? []).enumerated() {
            try builder.addProduct(entry, at: "products[\(index)]")
        }
        for (index, entry) in (try root.array("nonRenewingSubscriptions") ?? []).enumerated() {
            try builder.addNonRenewingSubscription(entry, at: "nonRenewingSubscriptions[\(index)]")
        }

        guard !builder.products.isEmpty else {
            throw CatalogError(
                "has no products; add some in Xcode's StoreKit configuration editor (subscription "
                    + "groups, consumables, non-consumables or non-renewing subscriptions) and save it again")
        }
        return Catalog(
            products: builder.products,
            groupNames: builder.groupNames,
            settings: StoreSettings(
                gracePeriodDays: try settings?.bool("_billingGracePeriodEnabled") == true ? gracePeriodDays : 0,
                askToBuy: try settings?.bool("_askToBuyEnabled") ?? false))
    }

    /// The entitlements a product unlocks (see the type's documentation: this rule is a contract).
    private static func entitlements(kind: Product.Kind, productID: String, groupName: String?) -> [String] {
        switch kind {
        // Every level of a group unlocks the same thing, so the group names it.
        case .autoRenewable: groupName.map { [$0] } ?? []
        case .nonConsumable, .nonRenewing: [productID]
        case .consumable: []
        }
    }

    /// Collects products as they are read, checking that product ids stay unique across the file.
    private struct Builder {
        let locale: String?
        let currency: String
        var products: [Product] = []
        var groupNames: [String: String] = [:]
        /// Product id -> where it was first defined, for duplicate errors.
        private var locations: [String: String] = [:]

        init(locale: String?, currency: String) {
            self.locale = locale
            self.currency = currency
        }

        mutating func addSubscription(
            _ entry: CatalogJSON, at location: String, groupID: String, groupName: String
        ) throws(CatalogError) {
            let fields = try identify(entry, at: location)
            if let type = try fields.string("type"), type != "RecurringSubscription" {
                throw fields.error("type", "must be RecurringSubscription in subscriptionGroups, got \"\(type)\"")
            }
            var product = try common(fields, kind: .autoRenewable, groupName: groupName)
            product.period = try fields.required("recurringSubscriptionPeriod", fields.period("recurringSubscriptionPeriod"))
            product.subscriptionGroup = groupID
            product.groupRank = try fields.required("groupNumber", fields.integer("groupNumber", minimum: 1))
            if let offer = try fields.object("introductoryOffer") {
                product.introductoryOffer = try introductoryOffer(offer)
            }
            products.append(product)
        }

        mutating func addProduct(_ entry: CatalogJSON, at location: String) throws(CatalogError) {
            let fields = try identify(entry, at: location)
            let type = try fields.required("type", fields.string("type"))
            let product: Product
            switch type {
            case "Consumable":
                product = try common(fields, kind: .consumable)
            case "NonConsumable":
                product = try common(fields, kind: .nonConsumable)
            case "NonRenewingSubscription":
                product = try nonRenewing(fields)
            default:
                let hint = type == "RecurringSubscription" ? " (auto-renewable subscriptions belong in subscriptionGroups)" : ""
                throw fields.error(
                    "type", "must be one of Consumable, NonConsumable, NonRenewingSubscription, got \"\(type)\"\(hint)")
            }
            products.append(product)
        }

        mutating func addNonRenewingSubscription(_ entry: CatalogJSON, at location: String) throws(CatalogError) {
            let fields = try identify(entry, at: location)
            if let type = try fields.string("type"), type != "NonRenewingSubscription" {
                throw fields.error("type", "must be NonRenewingSubscription in nonRenewingSubscriptions, got \"\(type)\"")
            }
            products.append(try nonRenewing(fields))
        }

        /// Reads the product's id and returns its fields located by it, rejecting an id seen before.
        private mutating func identify(_ entry: CatalogJSON, at location: String) throws(CatalogError) -> CatalogObject {
            let unnamed = try CatalogObject.element(entry, at: location)
            let id = try unnamed.required("productID", unnamed.nonEmptyString("productID"))
            let fields = unnamed.located(at: "\(location) (\"\(id)\")")
            if let first = locations[id] {
                throw fields.error("productID", "is already used by \(first)")
            }
            locations[id] = location
            return fields
        }

        private func nonRenewing(_ fields: CatalogObject) throws(CatalogError) -> Product {
            var product = try common(fields, kind: .nonRenewing)
            product.period = StoreKitConfiguration.nonRenewingPeriod
            return product
        }

        /// The fields every kind shares; `groupName` is the subscription group of an auto-renewable one.
        private func common(
            _ fields: CatalogObject, kind: Product.Kind, groupName: String? = nil
        ) throws(CatalogError) -> Product {
            let id = try fields.required("productID", fields.string("productID"))
            let (displayName, description) = try names(fields)
            var product = Product(
                id: id,
                displayName: displayName,
                description: description,
                price: try fields.required("displayPrice", fields.price("displayPrice")),
                currencyCode: currency,
                kind: kind,
                familyShareable: try fields.bool("familyShareable") ?? false,
                entitlements: StoreKitConfiguration.entitlements(kind: kind, productID: id, groupName: groupName))
            product.catalogPrice = fields.priceText("displayPrice")
            return product
        }

        /// Display name and description from the localization for `locale`, else the first, else `referenceName`.
        private func names(_ fields: CatalogObject) throws(CatalogError) -> (String, String) {
            let localizations = try fields.objects("localizations") ?? []
            var chosen = localizations.first
            if let locale {
                for localization in localizations {
                    if Self.sameLocale(try localization.string("locale"), locale) {
                        chosen = localization
                        break
                    }
                }
            }
            // Xcode leaves an unfinished localization's displayName empty: treat that as missing.
            if let chosen, let displayName = try chosen.string("displayName"), !displayName.isEmpty {
                return (displayName, try chosen.string("description") ?? "")
            }
            guard let referenceName = try fields.nonEmptyString("referenceName") else {
                throw fields.error("referenceName", "is required when no localization has a displayName")
            }
            return (referenceName, try chosen?.string("description") ?? "")
        }

        private func introductoryOffer(_ fields: CatalogObject) throws(CatalogError) -> IntroductoryOffer {
            let modeText = try fields.required("paymentMode", fields.string("paymentMode"))
            let mode: IntroductoryOffer.Mode
            switch modeText {
            case "free": mode = .freeTrial
            case "payAsYouGo": mode = .payAsYouGo
            case "payUpFront": mode = .payUpFront
            default: throw fields.error("paymentMode", "must be one of free, payAsYouGo, payUpFront, got \"\(modeText)\"")
            }
            return IntroductoryOffer(
                mode: mode,
                period: try fields.required("subscriptionPeriod", fields.period("subscriptionPeriod")),
                count: try fields.integer("numberOfPeriods", minimum: 1) ?? 1,
                // A free trial costs nothing whatever price the file left behind; paid offers must say.
                price: mode == .freeTrial ? 0 : try fields.required("displayPrice", fields.price("displayPrice")))
        }

        /// Locales match ignoring case and `-` versus `_` (`en-US` is `en_US`).
        private static func sameLocale(_ candidate: String?, _ locale: String) -> Bool {
            guard let candidate else { return false }
            func normalized(_ text: String) -> String { text.replacingOccurrences(of: "-", with: "_").lowercased() }
            return normalized(candidate) == normalized(locale)
        }
    }
}
