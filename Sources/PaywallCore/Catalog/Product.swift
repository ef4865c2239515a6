import Foundation

/// Something a user can buy, as a store catalog describes it.
public struct Product: Hashable, Sendable, Identifiable {
    public enum Kind: String, Sendable, CaseIterable {
        case autoRenewable = "auto_renewable"
        case nonRenewing = "non_renewing"
        case consumable
        case nonConsumable = "non_consumable"
    }

    public var id: String
    public var displayName: String
    public var description: String
    public var price: Decimal
    /// The price as the catalog wrote it (`"49.00"`, JPY `"500"`), which reports and the app
    /// are given; nil when it was not written as text (`priceText` then prints `price`).
    package var catalogPrice: String?
    /// ISO 4217, e.g. `USD`.
    public var currencyCode: String
    public var kind: Kind
    /// The billing period of a subscription (auto-renewable or non-renewing).
    public var period: SubscriptionPeriod?
    /// The subscription group an auto-renewable product belongs to; one subscription per group is active.
    public var subscriptionGroup: String?
    /// Level within the group: 1 is the highest (as in App Store Connect). Moving to a lower
    /// number is an upgrade (immediate), to a higher one a downgrade (at the next renewal).
    public var groupRank: Int?
    public var introductoryOffer: IntroductoryOffer?
    public var familyShareable: Bool
    /// The entitlements buying this product grants.
    public var entitlements: [String]
    /// Where it is bought in the browser (a license-key catalog's `checkout_url`).
    public var checkoutURL: URL?
    /// Its merchant and its ids there, which a license key's purchase is matched by.
    package var merchant: MerchantProduct?

    package init(
        id: String, displayName: String, description: String = "", price: Decimal, currencyCode: String,
        kind: Kind, period: SubscriptionPeriod? = nil, subscriptionGroup: String? = nil, groupRank: Int? = nil,
        introductoryOffer: IntroductoryOffer? = nil, familyShareable: Bool = false, entitlements: [String] = [],
        checkoutURL: URL? = nil, merchant: MerchantProduct? = nil, catalogPrice: String? = nil
    ) {
        self.id = id
        self.displayName = displayName
        self.description = description
        self.price = price
        self.currencyCode = currencyCode
        self.kind = kind
        self.period = period
        self.subscriptionGroup = subscriptionGroup
        self.groupRank = groupRank
        self.introductoryOffer = introductoryOffer
        self.familyShareable = familyShareable
        self.entitlements = entitlements
        self.checkoutURL = checkoutURL
        self.merchant = merchant
        self.catalogPrice = catalogPrice
    }

    public var isSubscription: Bool { kind == .autoRenewable || kind == .nonRenewing }

    /// The price as text: the catalog's own (`"49.00"`), else the amount (`"49"`).
    public var priceText: String { catalogPrice ?? "\(price)" }
}

/// An introductory offer on an auto-renewable subscription.
public struct IntroductoryOffer: Hashable, Sendable {
    public enum Mode: String, Sendable, CaseIterable {
        case freeTrial = "free_trial"
        case payAsYouGo = "pay_as_you_go"
        case payUpFront = "pay_up_front"
    }

    public var mode: Mode
    /// Length of one offer period.
    public var period: SubscriptionPeriod
    /// How many periods the offer lasts (pay as you go bills each one).
    public var count: Int
    /// Price of one offer period (zero for a free trial).
    public var price: Decimal

    package init(mode: Mode, period: SubscriptionPeriod, count: Int = 1, price: Decimal = 0) {
        self.mode = mode
        self.period = period
        self.count = count
        self.price = price
    }

    /// The whole offer's length: `count` periods (billed once up front, each period, or never).
    public var totalPeriod: SubscriptionPeriod {
        SubscriptionPeriod(value: period.value.multipliedReportingOverflow(by: count).partialValue, unit: period.unit)
    }
}
