import Foundation

/// Decides a placement by the config: the campaign that lists it (its first audience whose
/// filter and occurrence cap pass, then that audience's experiment's variant for the user),
/// else the placement's own paywall. Reads the assignment store but writes nothing: `confirm`
/// keeps what a presentation used.
package struct CampaignDecider {
    package var config: PaywallConfig
    package var store: AssignmentStore?
    /// The user's id (`$anonymous` when none) and the key they are bucketed by.
    package var userId: String
    package var userKey: String
    /// `user`, `device` and `params`, as the filters see them.
    package var variables: [String: CELValue]
    package var now: Date

    package init(
        config: PaywallConfig, store: AssignmentStore?, userId: String, variables: [String: CELValue], now: Date = Date()
    ) {
        self.config = config
        self.store = store
        self.userId = userId
        self.userKey = store?.assignmentKey(user: userId) ?? userId
        self.variables = variables
        self.now = now
    }

    /// One audience as the dry run explains it.
    package struct AudienceStep {
        package var id: String
        package var filter: String?
        /// The filter's sub-expressions and their values, the whole last.
        package var steps: [CELTraceEntry]
        package var matched: Bool
        /// The cap's count within its interval and its maximum; nil without a cap.
        package var cap: (count: Int, max: Int)?
        package var capPassed: Bool { cap.map { $0.count < $0.max } ?? true }
    }

    package struct Decision {
        package var outcome: PlacementOutcome
        /// The paywall to show, for `result == .paywall`.
        package var paywall: PaywallConfig.Entry?
        package var gated: Bool
        package var condition: PresentationCondition
        /// Every audience looked at, in order (the decided one last).
        package var audiences: [AudienceStep]
        /// The user's bucket in the decided experiment (0-9,999).
        package var bucket: Int?
        /// Where the variant came from: `kept` (confirmed before), `forced` (`setAssignment`), `bucket`.
        package var assignment: String?
        /// A kept variant the experiment no longer has, reassigned by bucket.
        package var reassignedFrom: String?
        package var occurrenceKey: String?
    }

    /// The user's `user` variable: attributes, `id` and `seed`.
    package static func userVariable(attributes: [String: JSONValue], userId: String, userKey: String) -> CELValue {
        var object = attributes
        object["id"] = .string(userId)
        object["seed"] = .number(Double(Bucketing.seed(userKey: userKey)))
        return CELValue(json: .object(object))
    }

    package func decide(placement name: String) -> Decision {
        let placement = config.placements[name]
        let gated = placement?.gated ?? false
        guard let campaign = config.campaign(for: name) else {
            guard let (placement, paywall, condition) = config.placement(name) else {
                return Decision(
                    outcome: PlacementOutcome(result: .placementNotFound), gated: false, condition: .checkUserSubscription,
                    audiences: [])
            }
            return Decision(
                outcome: PlacementOutcome(result: .paywall, paywall: paywall.id), paywall: paywall, gated: placement.gated,
                condition: condition, audiences: [])
        }
        var steps: [AudienceStep] = []
        for audience in campaign.audiences {
            var step = AudienceStep(id: audience.id, filter: audience.filter?.source, steps: [], matched: true)
            if let filter = audience.filter {
                let (value, trace) = filter.explain(variables)
                step.steps = trace
                if case .success(.bool(true)) = value { step.matched = true } else { step.matched = false }
            }
            if step.matched, let occurrence = audience.occurrence {
                let since = occurrence.intervalMinutes.map { now.addingTimeInterval(-$0 * 60) }
                step.cap = (store?.occurrences(key: occurrence.key, since: since) ?? 0, occurrence.maxCount)
            }
            steps.append(step)
            guard step.matched, step.capPassed else { continue }
            return decide(audience, in: campaign, placement: placement, gated: gated, steps: steps)
        }
        return Decision(
            outcome: PlacementOutcome(result: .noAudienceMatch, campaignId: campaign.id), gated: gated,
            condition: placement?.condition ?? .checkUserSubscription, audiences: steps)
    }

    private func decide(
        _ audience: Campaign.Audience, in campaign: Campaign, placement: PaywallConfig.Placement?, gated: Bool,
        steps: [AudienceStep]
    ) -> Decision {
        let experiment = audience.experiment
        let bucket = Bucketing.bucket(experimentId: experiment.id, userKey: userKey)
        var variant = Bucketing.variant(for: bucket, in: experiment.variants)
        var source = "bucket"
        var reassignedFrom: String?
        if let kept = store?.assignment(userKey: userKey, experiment: experiment.id) {
            if let found = experiment.variants.first(where: { $0.id == kept.variant }) {
                variant = found
                source = kept.forced ? "forced" : "kept"
            } else {
                reassignedFrom = kept.variant
            }
        }
        var outcome = PlacementOutcome(
            result: .holdout, campaignId: campaign.id, audienceId: audience.id, experimentId: experiment.id,
            variantId: variant?.id)
        // A placement only a campaign names is not gated and has the default condition; the
        // variant's paywall entry's own condition is for presenting it by id.
        let condition = placement?.condition ?? .checkUserSubscription
        var entry: PaywallConfig.Entry?
        if let paywallId = variant?.paywall {
            entry = config.entry(id: paywallId)
            outcome.result = entry == nil ? .paywallNotAvailable : .paywall
            outcome.paywall = entry?.id
        }
        return Decision(
            outcome: outcome, paywall: entry, gated: gated, condition: condition,
            audiences: steps, bucket: bucket, assignment: source, reassignedFrom: reassignedFrom,
            occurrenceKey: audience.occurrence?.key)
    }

    /// Keeps what a presentation used: the assignment (replacing a removed variant's) and one
    /// occurrence of the audience's cap. Returns the variant replaced, if one was.
    @discardableResult
    package func confirm(_ decision: Decision, countOccurrence: Bool) throws -> String? {
        guard let store, let experiment = decision.outcome.experimentId, let variant = decision.outcome.variantId else {
            return nil
        }
        if decision.reassignedFrom != nil {
            try store.set(userKey: userKey, experiment: experiment, variant: variant, forced: false)
        } else {
            try store.confirm(userKey: userKey, experiment: experiment, variant: variant)
        }
        if countOccurrence, let key = decision.occurrenceKey { try store.countOccurrence(key: key, at: now) }
        return decision.reassignedFrom
    }
}
