import Foundation

/// `paywall report`'s numbers: per experiment and variant (or per paywall, placement or
/// locale), the funnel from presentation requests to purchases, conversion and trial-start
/// rates per unique user with 95% Wilson intervals, revenue per impression per currency, and
/// for each treatment the probability that it converts better than the first variant.
///
/// Users: a line's `user_id`; a line without one belongs to the presentation it is part of
/// (each `trigger_fire`, or a `paywallPresentationRequest` that no `trigger_fire` led to,
/// starts one per file), so such a log counts presentations as users. A line repeated with
/// the same `uuid` (a webhook delivers at least once) counts once.
///
/// A variant's users are those who saw its paywall (`paywall_open`); a holdout's (a variant
/// whose `trigger_fire` said `holdout`) are those held out, and its conversions are their
/// purchases anywhere (`transaction_*` lines carry the user's `assignments`; without them a
/// user's experiments are those their `trigger_fire` lines named). Conversions are users
/// with a `transaction_complete` (restores are `transaction_restore`: not counted); revenue
/// is the `price` of each purchase that did not start a free trial.
package struct ConversionReport {
    /// What the report groups by (`--by`).
    package enum Grouping: String, CaseIterable, Sendable {
        case variant, paywall, placement, locale
    }

    /// The fewest impressions each side needs before a verdict is given.
    package static let verdictMinimumImpressions = 100
    /// The probability a verdict needs.
    package static let verdictProbability = 0.95

    package let grouping: Grouping
    private var tallies: [GroupKey: Tally] = [:]
    private var actors: [String: Actor] = [:]
    private var anonymous: [String: (counter: Int, afterTrigger: Bool)] = [:]
    private var seen: Set<String> = []

    package init(grouping: Grouping = .variant) {
        self.grouping = grouping
    }

    private struct GroupKey: Hashable {
        var experiment: String?
        var id: String
    }

    /// What is known of a user: their experiments' variants and the presentation they are in.
    private struct Actor {
        var assignments: [String: String] = [:]
        var placement: String?
        var paywall: String?
        var locale: String?
        var experiment: String?
        var variant: String?
        var afterTrigger = false
    }

    fileprivate struct Tally {
        var requests = 0
        var impressions = 0
        var purchaseStarts = 0
        var seers: Set<String> = []
        var held: Set<String> = []
        var converted: [String: Date] = [:]
        var trialists: Set<String> = []
        var sales: [String: (currency: String, amount: Double)] = [:]
    }

    /// Adds one event; `source` names its log (a file), which tells apart presentations of
    /// lines without a `user_id`.
    package mutating func add(_ line: ReportLine, source: String) {
        if let uuid = line.uuid, !seen.insert(uuid).inserted { return }
        let actorKey = actorKey(line, source: source)
        // Taken out while it changes, so its dictionary is not copied on every line.
        var actor = actors.removeValue(forKey: actorKey) ?? Actor()
        let params = line.params
        let ownExperiment = params["experiment_id"]?.stringValue
        let ownVariant = params["variant_id"]?.stringValue
        switch line.name {
        case .triggerFire:
            actor.placement = params["placement_name"]?.stringValue
            actor.experiment = ownExperiment
            actor.variant = ownVariant
            actor.paywall = nil
        case .paywallPresentationRequest where !actor.afterTrigger:
            actor.placement = nil
            actor.experiment = ownExperiment
            actor.variant = ownVariant
            actor.paywall = params["paywall_identifier"]?.stringValue
        case .paywallPresentationRequest:
            actor.paywall = params["paywall_identifier"]?.stringValue
        default: break
        }
        actor.locale = line.locale ?? actor.locale
        if let ownExperiment, let ownVariant { actor.assignments[ownExperiment] = ownVariant }
        actor.assignments.merge(line.assignments) { _, given in given }
        for key in groupKeys(line, actor: actor) {
            tallies[key, default: Tally()].count(line, actor: actorKey, afterTrigger: actor.afterTrigger)
        }
        actor.afterTrigger = line.name == .triggerFire
        actors[actorKey] = actor
    }

    private mutating func actorKey(_ line: ReportLine, source: String) -> String {
        if let user = line.userId { return "u:" + user }
        var state = anonymous[source] ?? (0, false)
        if line.name == .triggerFire || (line.name == .paywallPresentationRequest && !state.afterTrigger) {
            state.counter += 1
        }
        state.afterTrigger = line.name == .triggerFire
        anonymous[source] = state
        return "s:\(state.counter):" + source
    }

    /// The groups a line counts for.
    private func groupKeys(_ line: ReportLine, actor: Actor) -> [GroupKey] {
        let params = line.params
        switch grouping {
        case .variant:
            if let experiment = params["experiment_id"]?.stringValue {
                return [GroupKey(experiment: experiment, id: params["variant_id"]?.stringValue ?? "none")]
            }
            // A purchase outside a presentation counts for every experiment the user is in.
            if [.transactionStart, .transactionComplete, .freeTrialStart].contains(line.name) {
                return actor.assignments.map { GroupKey(experiment: $0.key, id: $0.value) }
            }
            if let experiment = actor.experiment { return [GroupKey(experiment: experiment, id: actor.variant ?? "none")] }
            return []
        case .paywall:
            return (params["paywall_identifier"]?.stringValue ?? actor.paywall).map { [GroupKey(id: $0)] } ?? []
        case .placement:
            return (params["placement_name"]?.stringValue ?? actor.placement).map { [GroupKey(id: $0)] } ?? []
        case .locale:
            // The user's locale as last logged (each line has it once the runtime logs it).
            return [GroupKey(id: actor.locale ?? "unknown")]
        }
    }

    /// The report: experiments (grouping by variant) or groups, each sorted by id.
    package var result: ReportResult {
        var groups: [String?: [VariantStats]] = [:]
        for (key, tally) in tallies { groups[key.experiment, default: []].append(tally.stats(id: key.id)) }
        guard grouping == .variant else {
            return ReportResult(grouping: grouping, experiments: [], groups: (groups[nil] ?? []).sorted { $0.id < $1.id })
        }
        let experiments = groups.compactMap { experiment, variants in
            experiment.map { ExperimentStats(id: $0, variants: Self.compared(variants)) }
        }
        return ReportResult(grouping: grouping, experiments: experiments.sorted { $0.id < $1.id }, groups: [])
    }

    /// Treatments sorted by id, then holdouts; each treatment after the first compared with
    /// the first, and with the holdout when there is one.
    private static func compared(_ variants: [VariantStats]) -> [VariantStats] {
        let sorted = variants.sorted { ($0.holdout ? 1 : 0, $0.id) < ($1.holdout ? 1 : 0, $1.id) }
        guard let first = sorted.first(where: { !$0.holdout }) else { return sorted }
        let holdout = sorted.first { $0.holdout }
        return sorted.map { variant in
            guard !variant.holdout else { return variant }
            var variant = variant
            if variant.id != first.id {
                variant.probabilityBetter = probability(variant, first)
                variant.verdict = verdict(variant, first, probability: variant.probabilityBetter!)
            }
            if let holdout {
                let p = probability(variant, holdout)
                variant.probabilityBetterThanHoldout = p
                variant.verdictVersusHoldout = verdict(variant, holdout, probability: p)
            }
            return variant
        }
    }

    private static func probability(_ b: VariantStats, _ a: VariantStats) -> Double {
        BetaComparison.probabilityBetter((b.conversions, b.users), than: (a.conversions, a.users))
    }

    /// "b converts better than a with 97% probability (4,210 users)", or "not enough data
    /// yet". A holdout has no impressions: its users count instead.
    package static func verdict(_ b: VariantStats, _ a: VariantStats, probability: Double) -> String {
        func enough(_ v: VariantStats) -> Bool { (v.holdout ? v.users : v.impressions) >= verdictMinimumImpressions }
        guard enough(a), enough(b) else { return "not enough data yet" }
        let users = (a.users + b.users).formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))
        // Rounded down (and at most 99%): a verdict never claims more than the data say.
        func percent(_ p: Double) -> Int { min(99, Int((p * 100).rounded(.down))) }
        if probability >= verdictProbability {
            return "\(b.id) converts better than \(a.id) with \(percent(probability))% probability (\(users) users)"
        }
        if 1 - probability >= verdictProbability {
            return "\(a.id) converts better than \(b.id) with \(percent(1 - probability))% probability (\(users) users)"
        }
        return "not enough data yet"
    }
}

extension ConversionReport.Tally {
    fileprivate mutating func count(_ line: ReportLine, actor: String, afterTrigger: Bool) {
        switch line.name {
        case .triggerFire:
            requests += 1
            if line.params["result"]?.stringValue == PlacementOutcome.Result.holdout.rawValue { held.insert(actor) }
        case .paywallPresentationRequest where !afterTrigger: requests += 1
        case .paywallOpen:
            impressions += 1
            seers.insert(actor)
        case .transactionStart: purchaseStarts += 1
        case .transactionComplete:
            // A line without a time stamp is a conversion of unknown time (left out of the chart).
            let time = line.timestamp ?? .distantFuture
            converted[actor] = min(converted[actor] ?? time, time)
            if let price = line.price, let currency = line.currency { sales[saleKey(line, actor)] = (currency, price) }
        case .freeTrialStart:
            trialists.insert(actor)
            // Nothing is charged until the trial ends.
            sales[saleKey(line, actor)] = nil
        default: break
        }
    }

    /// A purchase's `transaction_complete` and the `freeTrial_start` after it share this.
    private func saleKey(_ line: ReportLine, _ actor: String) -> String {
        let id = line.params["transaction_id"]?.stringValue ?? line.params["product_identifier"]?.stringValue ?? ""
        return actor + "\u{1F}" + id
    }

    fileprivate func stats(id: String) -> VariantStats {
        // A holdout sees no paywall: its users are those held out.
        let holdout = seers.isEmpty && !held.isEmpty
        let users = holdout ? held : seers
        let conversions = converted.filter { users.contains($0.key) }
        let trials = trialists.intersection(users).count
        var revenue: [String: Double] = [:]
        for sale in sales.values { revenue[sale.currency, default: 0] += sale.amount }
        return VariantStats(
            id: id, holdout: holdout, presentationRequests: requests, impressions: impressions, users: users.count,
            purchaseStarts: purchaseStarts, conversions: conversions.count, trialStarts: trials, revenue: revenue,
            conversionTimes: conversions.values.filter { $0 != .distantFuture }.sorted())
    }
}

/// One variant's (or group's) numbers.
package struct VariantStats: Equatable, Sendable {
    package var id: String
    package var holdout: Bool
    package var presentationRequests: Int
    package var impressions: Int
    package var users: Int
    package var purchaseStarts: Int
    package var conversions: Int
    package var trialStarts: Int
    /// Total revenue per currency.
    package var revenue: [String: Double]
    /// When each converting user first bought, oldest first.
    package var conversionTimes: [Date]
    package var probabilityBetter: Double?
    package var verdict: String?
    package var probabilityBetterThanHoldout: Double?
    package var verdictVersusHoldout: String?

    package init(
        id: String, holdout: Bool = false, presentationRequests: Int = 0, impressions: Int, users: Int,
        purchaseStarts: Int = 0, conversions: Int, trialStarts: Int = 0, revenue: [String: Double] = [:],
        conversionTimes: [Date] = []
    ) {
        self.id = id
        self.holdout = holdout
        self.presentationRequests = presentationRequests
        self.impressions = impressions
        self.users = users
        self.purchaseStarts = purchaseStarts
        self.conversions = conversions
        self.trialStarts = trialStarts
        self.revenue = revenue
        self.conversionTimes = conversionTimes
    }

    package var conversionRate: Double? { users > 0 ? Double(conversions) / Double(users) : nil }
    package var conversionInterval: WilsonInterval? { WilsonInterval(successes: conversions, trials: users) }
    package var trialStartRate: Double? { users > 0 ? Double(trialStarts) / Double(users) : nil }
    package var trialStartInterval: WilsonInterval? { WilsonInterval(successes: trialStarts, trials: users) }
    package var revenuePerImpression: [String: Double] {
        impressions > 0 ? revenue.mapValues { $0 / Double(impressions) } : [:]
    }
}

package struct ExperimentStats: Equatable, Sendable {
    package var id: String
    package var variants: [VariantStats]
}

/// The whole report; `json` is `paywall report --json`.
package struct ReportResult: Equatable, Sendable {
    package var grouping: ConversionReport.Grouping
    package var experiments: [ExperimentStats]
    package var groups: [VariantStats]

    /// `{"experiments": [{"id", "variants": [...]}]}`, or `{"groups": [...]}` for another grouping.
    package var json: JSONValue {
        if grouping == .variant {
            return [
                "experiments": .array(
                    experiments.map { ["id": .string($0.id), "variants": .array($0.variants.map(\.json))] })
            ]
        }
        return ["groups": .array(groups.map(\.json))]
    }
}

extension VariantStats {
    /// The keys (`id`, `users`, `impressions`, `conversions`, `trial_starts`,
    /// `conversion_rate`, `conversion_ci`, `revenue_per_impression`, `probability_better`),
    /// and the rest of the funnel beside them.
    package var json: JSONValue {
        func number(_ value: Double?) -> JSONValue { value.map { .number(Self.rounded($0)) } ?? .null }
        func interval(_ value: WilsonInterval?) -> JSONValue {
            value.map { .array([number($0.low), number($0.high)]) } ?? .null
        }
        func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        return .object([
            "id": .string(id), "holdout": .bool(holdout), "presentation_requests": .number(Double(presentationRequests)),
            "impressions": .number(Double(impressions)), "users": .number(Double(users)),
            "purchase_starts": .number(Double(purchaseStarts)), "conversions": .number(Double(conversions)),
            "trial_starts": .number(Double(trialStarts)), "conversion_rate": number(conversionRate),
            "conversion_ci": interval(conversionInterval), "trial_start_rate": number(trialStartRate),
            "trial_start_ci": interval(trialStartInterval),
            "revenue": .object(revenue.mapValues { .number(Self.rounded($0)) }),
            "revenue_per_impression": .object(revenuePerImpression.mapValues { .number(Self.rounded($0)) }),
            "probability_better": number(probabilityBetter), "verdict": text(verdict),
            "probability_better_than_holdout": number(probabilityBetterThanHoldout),
            "verdict_versus_holdout": text(verdictVersusHoldout),
        ])
    }

    /// Six decimals: enough for any rate or amount, without binary noise (0.30000000000000004).
    private static func rounded(_ value: Double) -> Double { (value * 1e6).rounded() / 1e6 }
}
