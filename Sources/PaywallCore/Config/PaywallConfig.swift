import Foundation

/// The paywalls an app uses and the placements that show them, as a JSON document (a file or
/// a URL):
///
/// ```json
/// {"paywalls": [{"id": "promo", "manifest_url": "https://cdn.example.com/promo/manifest.json",
///                "products": {"primary": "pro.yearly"}, "preload": true,
///                "presentation_condition": "always"}],
///  "placements": {"export_pdf": {"paywall": "promo", "gated": true,
///                                "presentation_condition": "entitlements", "entitlements": ["pro"]}}}
/// ```
///
/// `manifest_url` may also be a local directory. `products` overrides the bundle's own slots;
/// `preload` (default false) keeps the bundle pinned in the cache and loaded ahead of time.
/// `presentation_condition` (`check_user_subscription`, the default; `always`; or
/// `entitlements` with an `entitlements` list) says who is shown it; a placement's own
/// condition wins over its paywall's. Every key but `id` and `manifest_url` is optional.
/// `survey` (optional) attaches a `PaywallSurvey`. `campaigns` (optional, `Campaign`) decide by
/// audience and experiment which paywall a placement shows.
public struct PaywallConfig: Equatable, Sendable {
    public struct Entry: Equatable, Sendable {
        public var id: String
        public var source: String
        public var slots: ProductSlots
        public var preload: Bool
        /// Who is shown it; nil: the default (`check_user_subscription`).
        public var condition: PresentationCondition?

        /// Asked when the paywall closes (`survey`, see `PaywallSurvey(json:path:)`).
        public var survey: PaywallSurvey?

        public init(
            id: String, source: String, slots: ProductSlots = ProductSlots(), preload: Bool = false,
            condition: PresentationCondition? = nil, survey: PaywallSurvey? = nil
        ) {
            self.id = id
            self.source = source
            self.slots = slots
            self.preload = preload
            self.condition = condition
            self.survey = survey
        }
    }

    /// A place in the app that may show a paywall (Superwall's placements).
    public struct Placement: Equatable, Sendable {
        /// The config id of the paywall it shows.
        public var paywall: String
        /// The feature behind it runs only once the user has access (after a purchase or a
        /// restore, or at once for a user the condition skips); otherwise it runs after the
        /// paywall closes, whatever happened.
        public var gated: Bool
        /// Overrides the paywall's condition.
        public var condition: PresentationCondition?

        public init(paywall: String, gated: Bool = false, condition: PresentationCondition? = nil) {
            self.paywall = paywall
            self.gated = gated
            self.condition = condition
        }
    }

    public var paywalls: [Entry]
    /// Placements by name.
    public var placements: [String: Placement] = [:]
    /// The campaigns that decide which paywall a placement shows (`Campaign`); those with a
    /// problem are left out and listed in `problems`.
    package var campaigns: [Campaign] = []
    /// Why campaigns were refused: each with its path (`campaigns[0].audiences[0].filter`).
    package var problems: [ConfigProblem] = []
    /// Where events are sent (`"analytics"`); nil when the config names no sink.
    package var analytics: AnalyticsSettings?

    public struct ParseError: Error, CustomStringConvertible {
        public let description: String
    }

    public init(paywalls: [Entry], placements: [String: Placement] = [:]) {
        self.paywalls = paywalls
        self.placements = placements
    }

    public init(data: Data, origin: String) throws(ParseError) {
        func fail(_ message: String) -> ParseError { ParseError(description: "\(origin): \(message)") }
        let root: JSONValue
        do {
            root = try JSONParser.parseFile(Array(data))
        } catch {
            throw fail("not a config: not valid JSON (\(error)); expected {\"paywalls\": [...]}")
        }
        guard let list = root["paywalls"]?.arrayValue else { throw fail("not a config: expected {\"paywalls\": [...]}") }
        var entries: [Entry] = []
        for (index, item) in list.enumerated() {
            guard let id = item["id"]?.stringValue, !id.isEmpty else { throw fail("paywalls[\(index)] needs an \"id\"") }
            guard let source = item["manifest_url"]?.stringValue, !source.isEmpty else {
                throw fail("paywalls[\(index)] (\"\(id)\") needs a \"manifest_url\"")
            }
            guard !entries.contains(where: { $0.id == id }) else { throw fail("paywall id \"\(id)\" appears twice") }
            var slots = ProductSlots()
            if let products = item["products"] {
                // null drops the manifest's slot (an empty id is how ProductSlots says it).
                guard let map = products.objectValue, map.values.allSatisfy({ $0.stringValue != nil || $0 == .null })
                else {
                    throw fail(
                        "paywalls[\(index)] (\"\(id)\"): \"products\" must be an object of slot -> product id "
                            + "(or null to drop the slot)")
                }
                slots = ProductSlots(inPageOrder: map.mapValues { $0.stringValue ?? "" })
            }
            if let preload = item["preload"], preload.boolValue == nil {
                throw fail("paywalls[\(index)] (\"\(id)\"): \"preload\" must be true or false")
            }
            let condition = try Self.condition(in: item, at: "paywalls[\(index)] (\"\(id)\")", fail: fail)
            var survey: PaywallSurvey?
            do {
                survey = try item["survey"].map { json throws(ParseError) in
                    try PaywallSurvey(json: json, path: "paywalls[\(index)].survey")
                }
            } catch {
                throw fail(error.description)
            }
            entries.append(
                Entry(
                    id: id, source: source, slots: slots, preload: item["preload"]?.boolValue ?? false,
                    condition: condition, survey: survey))
        }
        var placements: [String: Placement] = [:]
        if let value = root["placements"] {
            guard let map = value.objectValue else { throw fail("\"placements\" must be an object of name -> placement") }
            for (name, item) in map.sorted(by: { $0.key < $1.key }) {
                let at = "placements.\(name)"
                guard item.objectValue != nil else { throw fail("\(at) must be an object with a \"paywall\"") }
                guard let paywall = item["paywall"]?.stringValue, !paywall.isEmpty else {
                    throw fail("\(at) needs a \"paywall\": the id of one of \"paywalls\"")
                }
                guard entries.contains(where: { $0.id == paywall }) else {
                    throw fail(
                        "\(at): no paywall \"\(paywall)\" in \"paywalls\" (ids: \(entries.map(\.id).joined(separator: ", ")))")
                }
                if let gated = item["gated"], gated.boolValue == nil { throw fail("\(at): \"gated\" must be true or false") }
                placements[name] = Placement(
                    paywall: paywall, gated: item["gated"]?.boolValue ?? false,
                    condition: try Self.condition(in: item, at: at, fail: fail))
            }
        }
        self.init(paywalls: entries, placements: placements)
        do {
            analytics = try root["analytics"].map { json throws(AnalyticsSettings.Problem) in
                try AnalyticsSettings(json: json, path: "analytics")
            }
        } catch {
            throw fail(error.description)
        }
        (campaigns, problems) = CampaignReader.read(root["campaigns"], paywalls: Set(entries.map(\.id)))
    }

    /// The campaign that lists `placement`, if any.
    package func campaign(for placement: String) -> Campaign? {
        campaigns.first { $0.placements.contains(placement) }
    }

    /// An item's `presentation_condition` and `entitlements`, checked.
    private static func condition(in item: JSONValue, at path: String, fail: (String) -> ParseError) throws(ParseError)
        -> PresentationCondition?
    {
        var entitlements: [String] = []
        if let list = item["entitlements"] {
            guard let values = list.arrayValue?.compactMap(\.stringValue), values.count == list.arrayValue?.count, !values.isEmpty
            else { throw fail("\(path): \"entitlements\" must be a non-empty list of entitlement ids") }
            entitlements = values
        }
        guard let value = item["presentation_condition"] else {
            if !entitlements.isEmpty { return .entitlements(entitlements) }
            return nil
        }
        guard let name = value.stringValue, let condition = PresentationCondition(name: name, entitlements: entitlements) else {
            if value.stringValue == "entitlements" {
                throw fail("\(path): \"presentation_condition\": \"entitlements\" needs an \"entitlements\" list")
            }
            throw fail("\(path): \"presentation_condition\" must be check_user_subscription, always or entitlements")
        }
        if !entitlements.isEmpty, name != "entitlements" {
            throw fail("\(path): \"entitlements\" goes with \"presentation_condition\": \"entitlements\", not \"\(name)\"")
        }
        return condition
    }

    /// The placement called `name`, with the paywall it shows and the condition that applies.
    public func placement(_ name: String) -> (placement: Placement, paywall: Entry, condition: PresentationCondition)? {
        guard let placement = placements[name], let paywall = entry(id: placement.paywall) else { return nil }
        return (placement, paywall, placement.condition ?? paywall.condition ?? .checkUserSubscription)
    }

    public func entry(id: String) -> Entry? {
        paywalls.first { $0.id == id }
    }
}
