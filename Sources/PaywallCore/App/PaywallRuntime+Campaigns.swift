import Foundation

/// The runtime's campaigns: deciding a placement by audience and experiment, and the user's
/// kept assignments (`AssignmentStore`).
extension PaywallRuntime {
    /// The data directory's assignment store (opened, creating it, on first use); nil when
    /// the runtime is read-only or the file cannot be opened.
    package func assignmentStore() -> AssignmentStore? {
        if let openedAssignmentStore { return openedAssignmentStore }
        guard !configuration.readOnly, let store = try? AssignmentStore(path: dataDirectory.experiments) else { return nil }
        openedAssignmentStore = store
        return store
    }

    /// Reports each refused campaign of a loaded config as `campaign_refused` (its path and reason).
    func reportRefusedCampaigns(_ config: PaywallConfig) {
        for problem in config.problems {
            events.emit(
                .campaignRefused,
                [
                    "campaign_id": problem.campaignId.map(JSONValue.string) ?? .null, "path": .string(problem.path),
                    "reason": .string(problem.reason),
                ])
        }
    }

    /// A decider over the loaded config for the current user; nil without a config.
    /// `attributes` are laid over the stored ones (the dry run's `--attribute`). Occurrence
    /// caps count on the fake store's clock when there is one (so testers can move time on).
    package func campaignDecider(
        device: [String: JSONValue], params: [String: JSONValue], attributes extra: [String: JSONValue] = [:]
    ) async -> CampaignDecider? {
        let now = (try? fakeStore?.now()) ?? Date()
        guard let config = await config() else { return nil }
        let store = assignmentStore()
        let key = store?.assignmentKey(user: userId) ?? userId
        let attributes = ((try? state?.userAttributes(user: userId)) ?? [:]).merging(extra) { _, new in new }
        let variables: [String: CELValue] = [
            "user": CampaignDecider.userVariable(attributes: attributes, userId: userId, userKey: key),
            "device": CELValue(json: .object(device)), "params": CELValue(json: .object(params)),
        ]
        return CampaignDecider(config: config, store: store, userId: userId, variables: variables, now: now)
    }

    /// Keeps the current user's variant of every experiment of the config (the kept one, else
    /// their bucket's), as Superwall's `confirmAllAssignments`; returns the outcomes kept.
    @discardableResult
    public func confirmAllAssignments() async throws -> [PlacementOutcome] {
        guard let config = await config(), let store = assignmentStore() else { return [] }
        let key = store.assignmentKey(user: userId)
        var confirmed: [PlacementOutcome] = []
        for campaign in config.campaigns {
            for audience in campaign.audiences {
                let experiment = audience.experiment
                let kept = store.assignment(userKey: key, experiment: experiment.id)
                var variant = kept.flatMap { kept in experiment.variants.first { $0.id == kept.variant } }
                if variant == nil {
                    variant = Bucketing.variant(
                        for: Bucketing.bucket(experimentId: experiment.id, userKey: key), in: experiment.variants)
                    if let variant {
                        if let kept {
                            try store.set(userKey: key, experiment: experiment.id, variant: variant.id, forced: false)
                            reportReassignment(experiment: experiment.id, from: kept.variant, to: variant.id)
                        } else {
                            try store.confirm(userKey: key, experiment: experiment.id, variant: variant.id)
                        }
                    }
                }
                guard let variant else { continue }
                confirmed.append(
                    PlacementOutcome(
                        result: variant.isHoldout ? .holdout : .paywall, paywall: variant.paywall, campaignId: campaign.id,
                        audienceId: audience.id, experimentId: experiment.id, variantId: variant.id))
            }
        }
        return confirmed
    }

    /// A kept variant the experiment no longer has was replaced by the user's bucket's.
    func reportReassignment(experiment: String, from old: String, to new: String) {
        events.emit(
            .assignmentReassign,
            ["experiment_id": .string(experiment), "previous_variant_id": .string(old), "variant_id": .string(new)])
    }

    /// Forces the current user into `variant` of `experiment` (testers, `paywall assign`); the
    /// experiment and variant must be in the config when one is loaded. Nil `variant` clears it.
    public func setAssignment(experiment: String, variant: String?) async throws {
        guard let store = assignmentStore() else {
            throw AssignmentError(reason: "the runtime is read-only: no assignments are kept")
        }
        let key = store.assignmentKey(user: userId)
        guard let variant else {
            try store.clear(userKey: key, experiment: experiment)
            return
        }
        if let config = await config() {
            let experiments = config.campaigns.flatMap(\.audiences).map(\.experiment)
            guard let found = experiments.first(where: { $0.id == experiment }) else {
                throw AssignmentError(
                    reason:
                        "no experiment \"\(experiment)\" in the config (experiments: \(experiments.map(\.id).joined(separator: ", ")))"
                )
            }
            guard found.variants.contains(where: { $0.id == variant }) else {
                throw AssignmentError(
                    reason:
                        "experiment \"\(experiment)\" has no variant \"\(variant)\" (variants: \(found.variants.map(\.id).joined(separator: ", ")))"
                )
            }
        }
        try store.set(userKey: key, experiment: experiment, variant: variant, forced: true)
    }

    /// Keeps what a presentation decided by a campaign: the assignment, one occurrence of its
    /// cap, and reports a reassignment off a removed variant.
    package func confirm(_ decision: CampaignDecider.Decision, by decider: CampaignDecider) {
        if let old = try? decider.confirm(decision, countOccurrence: decision.outcome.result == .paywall),
            let experiment = decision.outcome.experimentId, let new = decision.outcome.variantId
        {
            reportReassignment(experiment: experiment, from: old, to: new)
        }
    }

    /// Reports `trigger_fire`: the placement and what it led to.
    package func reportTriggerFire(placement: String, outcome: PlacementOutcome) {
        events.emit(.triggerFire, outcome.triggerFireParams(placement: placement))
    }
}

/// An assignment that cannot be set: what is wrong, naming the config's experiments or variants.
public struct AssignmentError: Error, CustomStringConvertible {
    public let reason: String
    public var description: String { reason }
}
