/// A campaign of the config (Superwall's campaigns and their rules): the placements it decides
/// and its audiences in order; the first audience whose filter and occurrence cap pass picks a
/// variant of its experiment.
///
/// ```json
/// {"id": "launch", "placements": ["export_pdf"],
///  "audiences": [{"id": "de_new", "filter": "device.deviceLanguageCode == 'de'",
///                 "occurrence": {"key": "de_new", "max_count": 3, "interval_minutes": 1440},
///                 "experiment": {"id": "exp1", "variants": [
///                   {"id": "a", "paywall": "upsell_a", "percentage": 90},
///                   {"id": "hold", "type": "holdout", "percentage": 10}]}}]}
/// ```
package struct Campaign: Equatable, Sendable {
    package var id: String
    package var placements: [String]
    package var audiences: [Audience]

    package struct Audience: Equatable, Sendable {
        package var id: String
        /// Nil: everyone matches.
        package var filter: CELExpression?
        package var occurrence: Occurrence?
        package var experiment: Experiment
    }

    /// At most `maxCount` presentations per `key` within `intervalMinutes` (nil: ever).
    package struct Occurrence: Equatable, Sendable {
        package var key: String
        package var maxCount: Int
        package var intervalMinutes: Double?
    }

    package struct Experiment: Equatable, Sendable {
        package var id: String
        package var variants: [Variant]
    }

    package struct Variant: Equatable, Sendable {
        package var id: String
        /// The config id of the paywall it shows; nil for a holdout.
        package var paywall: String?
        /// Hundredths of a percent (45.5% is 4550); a campaign's variants sum to 10,000.
        package var basisPoints: Int
        package var isHoldout: Bool { paywall == nil }
    }
}

extension CELExpression: Equatable {
    package static func == (a: CELExpression, b: CELExpression) -> Bool { a.source == b.source }
}

/// A problem of the config that refuses one campaign (the rest of the config still loads):
/// where it is (`campaigns[0].audiences[1].filter`) and what is wrong.
package struct ConfigProblem: Equatable, Sendable, CustomStringConvertible {
    package var campaignId: String?
    package var path: String
    package var reason: String
    package var description: String { "\(path): \(reason)" }
}

/// Reads the config's `campaigns`, checking each: ids unique (campaigns, audiences within a
/// campaign, experiments across the config, variants within an experiment), paywalls that
/// exist, filters that parse, percentages that sum to 100 with at most two decimals, a
/// placement in one campaign only (an error of the later one). A campaign with any problem is
/// refused whole, with every problem listed.
enum CampaignReader {
    static func read(_ value: JSONValue?, paywalls: Set<String>) -> (campaigns: [Campaign], problems: [ConfigProblem]) {
        guard let value else { return ([], []) }
        guard let list = value.arrayValue else {
            return ([], [ConfigProblem(campaignId: nil, path: "campaigns", reason: "must be a list of campaigns")])
        }
        var campaigns: [Campaign] = []
        var problems: [ConfigProblem] = []
        var placementOwners: [String: String] = [:]
        var experimentIds: Set<String> = []
        var campaignIds: Set<String> = []
        for (index, item) in list.enumerated() {
            let path = "campaigns[\(index)]"
            let id = item["id"]?.stringValue
            var own: [ConfigProblem] = []
            func problem(_ at: String, _ reason: String) { own.append(ConfigProblem(campaignId: id, path: at, reason: reason)) }
            guard item.objectValue != nil else {
                problems.append(
                    ConfigProblem(
                        campaignId: nil, path: path, reason: "must be an object with \"id\", \"placements\", \"audiences\""))
                continue
            }
            if let id, !id.isEmpty {
                if campaignIds.contains(id) { problem("\(path).id", "campaign id \"\(id)\" appears twice") }
            } else {
                problem("\(path).id", "needs an \"id\" (a non-empty string)")
            }
            var placements: [String] = []
            if let names = item["placements"]?.arrayValue, !names.isEmpty, names.allSatisfy({ $0.stringValue?.isEmpty == false })
            {
                placements = names.compactMap(\.stringValue)
                for (i, name) in placements.enumerated() {
                    if let owner = placementOwners[name] {
                        problem("\(path).placements[\(i)]", "placement \"\(name)\" is already in campaign \"\(owner)\"")
                    } else if placements[..<i].contains(name) {
                        problem("\(path).placements[\(i)]", "placement \"\(name)\" is listed twice")
                    }
                }
            } else {
                problem("\(path).placements", "needs a non-empty list of placement names")
            }
            var audiences: [Campaign.Audience] = []
            var ownExperiments: [String] = []
            if let items = item["audiences"]?.arrayValue, !items.isEmpty {
                for (a, audienceItem) in items.enumerated() {
                    if let audience = readAudience(
                        audienceItem, at: "\(path).audiences[\(a)]", paywalls: paywalls, problem: problem)
                    {
                        if audiences.contains(where: { $0.id == audience.id }) {
                            problem("\(path).audiences[\(a)].id", "audience id \"\(audience.id)\" appears twice")
                        }
                        let experiment = audience.experiment.id
                        if experimentIds.contains(experiment) || ownExperiments.contains(experiment) {
                            problem("\(path).audiences[\(a)].experiment.id", "experiment id \"\(experiment)\" appears twice")
                        }
                        ownExperiments.append(experiment)
                        audiences.append(audience)
                    }
                }
            } else {
                problem("\(path).audiences", "needs a non-empty list of audiences")
            }
            if let id, !id.isEmpty { campaignIds.insert(id) }
            guard own.isEmpty, let id else {
                problems += own
                continue
            }
            for name in placements { placementOwners[name] = id }
            experimentIds.formUnion(ownExperiments)
            campaigns.append(Campaign(id: id, placements: placements, audiences: audiences))
        }
        return (campaigns, problems)
    }

    private static func readAudience(
        _ item: JSONValue, at path: String, paywalls: Set<String>, problem: (String, String) -> Void
    ) -> Campaign.Audience? {
        guard item.objectValue != nil else {
            problem(path, "must be an object with \"id\" and \"experiment\"")
            return nil
        }
        var valid = true
        func fail(_ at: String, _ reason: String) {
            valid = false
            problem(at, reason)
        }
        let id = item["id"]?.stringValue ?? ""
        if id.isEmpty { fail("\(path).id", "needs an \"id\" (a non-empty string)") }
        var filter: CELExpression?
        if let value = item["filter"], value != .null {
            if let source = value.stringValue {
                do { filter = try CELExpression(source) } catch { fail("\(path).filter", error.description) }
            } else {
                fail("\(path).filter", "must be a CEL expression in a string")
            }
        }
        var occurrence: Campaign.Occurrence?
        if let value = item["occurrence"], value != .null {
            let key = value["key"]?.stringValue ?? ""
            if key.isEmpty { fail("\(path).occurrence.key", "needs a \"key\" (a non-empty string)") }
            let maxCount = value["max_count"].flatMap(wholeNumber)
            if maxCount == nil || maxCount! < 1 { fail("\(path).occurrence.max_count", "must be a whole number of at least 1") }
            var interval: Double?
            switch value["interval_minutes"] {
            case nil, .null?, .string("infinity")?: interval = nil
            case .number(let minutes)? where minutes > 0 && minutes.isFinite: interval = minutes
            default: fail("\(path).occurrence.interval_minutes", "must be a number of minutes above 0, or \"infinity\"")
            }
            occurrence = Campaign.Occurrence(key: key, maxCount: maxCount ?? 1, intervalMinutes: interval)
        }
        guard let experimentItem = item["experiment"], experimentItem.objectValue != nil else {
            fail("\(path).experiment", "needs an \"experiment\" with \"id\" and \"variants\"")
            return nil
        }
        let experimentId = experimentItem["id"]?.stringValue ?? ""
        if experimentId.isEmpty { fail("\(path).experiment.id", "needs an \"id\" (a non-empty string)") }
        var variants: [Campaign.Variant] = []
        var percentagesRead = true
        if let items = experimentItem["variants"]?.arrayValue, !items.isEmpty {
            for (v, variant) in items.enumerated() {
                let at = "\(path).experiment.variants[\(v)]"
                let variantId = variant["id"]?.stringValue ?? ""
                if variantId.isEmpty { fail("\(at).id", "needs an \"id\" (a non-empty string)") }
                if variants.contains(where: { $0.id == variantId }) {
                    fail("\(at).id", "variant id \"\(variantId)\" appears twice")
                }
                let type = variant["type"]?.stringValue ?? "treatment"
                let paywall = variant["paywall"]?.stringValue
                switch type {
                case "treatment":
                    if let paywall {
                        if !paywalls.contains(paywall) {
                            fail(
                                "\(at).paywall",
                                "no paywall \"\(paywall)\" in \"paywalls\" (ids: \(paywalls.sorted().joined(separator: ", ")))")
                        }
                    } else {
                        fail("\(at).paywall", "a treatment needs a \"paywall\" (or write \"type\": \"holdout\")")
                    }
                case "holdout":
                    if variant["paywall"] != nil { fail("\(at).paywall", "a holdout shows no paywall: leave \"paywall\" out") }
                default:
                    fail("\(at).type", "must be \"treatment\" or \"holdout\", not \(variant["type"]!.jsonText)")
                }
                var basisPoints = 0
                if case .number(let percent)? = variant["percentage"], percent >= 0, percent <= 100,
                    abs(percent * 100 - (percent * 100).rounded()) < 1e-6
                {
                    basisPoints = Int((percent * 100).rounded())
                } else {
                    percentagesRead = false
                    fail("\(at).percentage", "must be a number from 0 to 100 with at most two decimals")
                }
                variants.append(
                    Campaign.Variant(id: variantId, paywall: type == "holdout" ? nil : paywall, basisPoints: basisPoints))
            }
            let total = variants.reduce(0) { $0 + $1.basisPoints }
            if percentagesRead, total != 10_000 {
                fail("\(path).experiment.variants", "percentages sum to \(Double(total) / 100), not 100")
            }
        } else {
            fail("\(path).experiment.variants", "needs a non-empty list of variants")
        }
        guard valid else { return nil }
        return Campaign.Audience(
            id: id, filter: filter, occurrence: occurrence, experiment: Campaign.Experiment(id: experimentId, variants: variants))
    }

    private static func wholeNumber(_ value: JSONValue) -> Int? {
        guard case .number(let n) = value, n.rounded() == n, abs(n) < 1e15 else { return nil }
        return Int(n)
    }
}
