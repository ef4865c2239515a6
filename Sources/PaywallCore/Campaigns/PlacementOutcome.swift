/// What a placement leads to, decided by the config's campaigns without presenting anything:
/// the dry run's `--json`, `getPresentationResult` and the `trigger_fire` event say the same.
public struct PlacementOutcome: Equatable, Sendable {
    /// The outcome's vocabulary; the raw values are the JSON and event spelling.
    public enum Result: String, Sendable, CaseIterable {
        /// A paywall is shown (a treatment of an experiment, or a placement no campaign lists).
        case paywall
        /// The user is in the experiment's holdout: no paywall; a gated feature runs.
        case holdout
        /// The placement's campaign has no audience whose filter and cap pass: no paywall.
        case noAudienceMatch = "no_audience_match"
        /// No campaign and no placement of that name (or no config).
        case placementNotFound = "placement_not_found"
        /// The decided paywall cannot be shown (not in the config, or not cached with no fallback).
        case paywallNotAvailable = "paywall_not_available"
    }

    public internal(set) var result: Result
    /// The config id of the paywall shown; nil unless `result` is `paywall`.
    public internal(set) var paywall: String?
    public internal(set) var campaignId: String?
    public internal(set) var audienceId: String?
    public internal(set) var experimentId: String?
    public internal(set) var variantId: String?

    package init(
        result: Result, paywall: String? = nil, campaignId: String? = nil, audienceId: String? = nil,
        experimentId: String? = nil, variantId: String? = nil
    ) {
        self.result = result
        self.paywall = paywall
        self.campaignId = campaignId
        self.audienceId = audienceId
        self.experimentId = experimentId
        self.variantId = variantId
    }

    /// `{"result", "paywall", "campaign_id", "audience_id", "experiment_id", "variant_id"}`, absent fields null.
    package var json: JSONValue {
        func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        return .object([
            "result": .string(result.rawValue), "paywall": text(paywall), "campaign_id": text(campaignId),
            "audience_id": text(audienceId), "experiment_id": text(experimentId), "variant_id": text(variantId),
        ])
    }

    /// The `trigger_fire` event's params for `placement`.
    package func triggerFireParams(placement: String) -> [String: JSONValue] {
        [
            "placement_name": .string(placement), "result": .string(result.rawValue),
            "experiment_id": experimentId.map(JSONValue.string) ?? .null, "variant_id": variantId.map(JSONValue.string) ?? .null,
            "audience_id": audienceId.map(JSONValue.string) ?? .null,
        ]
    }

    /// The experiment fields every event of the presentation carries (`experiment_id`,
    /// `variant_id`, `audience_id`); empty when no campaign decided.
    package var eventParams: [String: JSONValue] {
        guard let experimentId else { return [:] }
        return [
            "experiment_id": .string(experimentId), "variant_id": variantId.map(JSONValue.string) ?? .null,
            "audience_id": audienceId.map(JSONValue.string) ?? .null,
        ]
    }
}
