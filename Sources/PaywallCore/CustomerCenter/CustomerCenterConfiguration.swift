import Foundation

/// What the customer center shows and how it behaves. `CustomerCenterConfiguration.default`
/// works with zero configuration; a configuration an app supplies replaces it whole.
/// Titles left nil use the runtime's localized defaults; titles an app sets are shown as given.
public struct CustomerCenterConfiguration: Equatable, Sendable {
    /// Shown when the user has at least one purchase or active entitlement.
    public var managementScreen: Screen
    /// Shown when the user has nothing.
    public var noPurchasesScreen: Screen
    public var support: Support
    public var appearance: Appearance
    /// Shows the user id and the date the app was first run.
    public var showsAccountDetails: Bool
    /// Warns a user who pays twice for the same entitlement through two stores.
    public var warnsAboutDuplicateSubscriptions: Bool

    public init(
        managementScreen: Screen = CustomerCenterConfiguration.defaultManagementScreen,
        noPurchasesScreen: Screen = CustomerCenterConfiguration.defaultNoPurchasesScreen,
        support: Support = Support(), appearance: Appearance = Appearance(),
        showsAccountDetails: Bool = true, warnsAboutDuplicateSubscriptions: Bool = true
    ) {
        self.managementScreen = managementScreen
        self.noPurchasesScreen = noPurchasesScreen
        self.support = support
        self.appearance = appearance
        self.showsAccountDetails = showsAccountDetails
        self.warnsAboutDuplicateSubscriptions = warnsAboutDuplicateSubscriptions
    }

    public static let `default` = CustomerCenterConfiguration()

    /// What in this configuration cannot work with `catalog`: change-plan product ids the
    /// catalog does not sell (the path would never appear).
    package func problems(with catalog: Catalog) -> [String] {
        var paths: [String] = []
        var unknown: [String: [String]] = [:]
        for missing in missingProducts(in: catalog) {
            if unknown[missing.slot] == nil { paths.append(missing.slot) }
            unknown[missing.slot, default: []].append(missing.productId)
        }
        return paths.map {
            "customer center path \($0): product_ids \(unknown[$0]!.joined(separator: ", ")) are not in the catalog"
        }
    }

    /// Each change-plan product id the catalog does not sell; the slot is the path
    /// (`management/change_plan`). `customer-center --strict` ends the run on the first.
    package func missingProducts(in catalog: Catalog) -> [MissingProduct] {
        [("management", managementScreen), ("no_purchases", noPurchasesScreen)].flatMap { name, screen in
            screen.paths.flatMap { path -> [MissingProduct] in
                guard case .changePlan(let ids?) = path.type else { return [] }
                return ids.filter { catalog.product(id: $0) == nil }
                    .map { MissingProduct(slot: "\(name)/\(path.id)", productId: $0, reason: .notInCatalog) }
            }
        }
    }

    /// The built-in cancellation survey; its option titles come from the string tables.
    public static let cancellationSurvey = Survey(
        id: "cancel_survey",
        options: [
            .init(id: "too_expensive"), .init(id: "dont_use"), .init(id: "bought_by_mistake"),
        ])

    public static let defaultManagementScreen = Screen(paths: [
        Path(id: "restore", type: .restore),
        Path(id: "change_plan", type: .changePlan()),
        Path(id: "refund", type: .refund()),
        Path(id: "manage_subscription", type: .manageSubscription, survey: cancellationSurvey),
        Path(id: "contact_support", type: .contactSupport),
    ])

    public static let defaultNoPurchasesScreen = Screen(paths: [
        Path(id: "restore", type: .restore),
        Path(id: "contact_support", type: .contactSupport),
    ])

    /// A screen: optional title and subtitle, and its action rows in order.
    public struct Screen: Equatable, Sendable {
        public var title: String?
        public var subtitle: String?
        public var paths: [Path]

        public init(title: String? = nil, subtitle: String? = nil, paths: [Path]) {
            self.title = title
            self.subtitle = subtitle
            self.paths = paths
        }
    }

    /// An action row. `id` is reported as `path_id` in events.
    public struct Path: Equatable, Sendable {
        public var id: String
        public var type: PathType
        /// Overrides the type's localized default title (a URL path has none and needs one).
        public var title: String?
        /// Asked before the action runs (skipped when the action opens a web management page).
        public var survey: Survey?

        public init(id: String, type: PathType, title: String? = nil, survey: Survey? = nil) {
            self.id = id
            self.type = type
            self.title = title
            self.survey = survey
        }
    }

    public enum PathType: Equatable, Sendable {
        case restore
        /// Turns off renewal of one subscription; labelled "Cancel subscription".
        case manageSubscription
        /// Requests a refund for one purchase; `window` (seconds since purchase) limits when.
        case refund(window: TimeInterval? = nil)
        /// Switches one subscription to another plan of its group (`productIds`: a subset to offer).
        case changePlan(productIds: [String]? = nil)
        /// A support email with diagnostics; hidden until `support.email` is set.
        case contactSupport
        case url(URL, title: String, openMethod: OpenMethod)
        /// Does nothing itself: the app handles it in its delegate.
        case custom(identifier: String)

        /// Acts on one purchase, so it lives on that purchase's detail screen.
        package var actsOnPurchase: Bool {
            switch self {
            case .manageSubscription, .refund, .changePlan: true
            default: false
            }
        }
    }

    public enum OpenMethod: String, Equatable, Sendable {
        /// The runtime's browser window.
        case inApp = "in_app"
        /// The system's browser.
        case external
    }

    /// A question asked before a path's action. Built-in option ids (`too_expensive`,
    /// `dont_use`, `bought_by_mistake`) are localized when their title is nil.
    public struct Survey: Equatable, Sendable {
        public var id: String
        public var title: String?
        public var options: [Option]

        public init(id: String, title: String? = nil, options: [Option]) {
            self.id = id
            self.title = title
            self.options = options
        }

        public struct Option: Equatable, Sendable {
            public var id: String
            public var title: String?
            public init(id: String, title: String? = nil) {
                self.id = id
                self.title = title
            }
        }
    }

    public struct Support: Equatable, Sendable {
        /// Enables the Contact support path.
        public var email: String?
        /// The latest published version; set it to control the update banner yourself.
        public var latestAppVersion: String?
        /// Shows a banner when the installed version is older than the latest.
        public var shouldWarnToUpdate: Bool
        /// Looks the latest version up at `updateFeedURL` (Linux has no app store to ask).
        public var checksForUpdates: Bool
        /// A JSON document `{"version": "2.1.0"}` naming the latest release.
        public var updateFeedURL: URL?
        /// Where web purchases (Stripe, Paddle, Superwall) are managed.
        public var webManagementURL: URL?

        public init(
            email: String? = nil, latestAppVersion: String? = nil, shouldWarnToUpdate: Bool = true,
            checksForUpdates: Bool = true, updateFeedURL: URL? = nil, webManagementURL: URL? = nil
        ) {
            self.email = email
            self.latestAppVersion = latestAppVersion
            self.shouldWarnToUpdate = shouldWarnToUpdate
            self.checksForUpdates = checksForUpdates
            self.updateFeedURL = updateFeedURL
            self.webManagementURL = webManagementURL
        }
    }

    public struct Appearance: Equatable, Sendable {
        /// Tints the controls; nil uses GNOME's default blue.
        public var accent: ColorPair?
        public init(accent: ColorPair? = nil) { self.accent = accent }
    }

    /// A colour for light and one for dark appearance, as `#RRGGBB` hex.
    public struct ColorPair: Equatable, Sendable {
        public var light: String
        public var dark: String
        public init(light: String, dark: String) {
            self.light = light
            self.dark = dark
        }
    }
}
