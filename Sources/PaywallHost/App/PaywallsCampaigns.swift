import Foundation
import PaywallCore

/// Campaigns through the facade: the dry-run answer, registering by audience and experiment,
/// and the user's assignments.
extension Paywalls {
    /// What registering `placement` would lead to (the campaign, audience, experiment and
    /// variant, or why no paywall), presenting, counting and confirming nothing.
    public func getPresentationResult(placement: String, params: [String: JSONValue] = [:]) async -> PlacementOutcome {
        guard let decider = await decider(params: params) else { return PlacementOutcome(result: .placementNotFound) }
        return decider.decide(placement: placement).outcome
    }

    /// Keeps the current user's variant of every experiment of the config (Superwall's
    /// `confirmAllAssignments`); returns them.
    @discardableResult
    public func confirmAllAssignments() async throws -> [PlacementOutcome] {
        try await runtime.confirmAllAssignments()
    }

    /// Forces the current user into `variant` of `experiment` (nil clears it: the bucket decides again).
    public func setAssignment(experiment: String, variant: String?) async throws {
        try await runtime.setAssignment(experiment: experiment, variant: variant)
    }

    private func decider(params: [String: JSONValue]) async -> CampaignDecider? {
        let device = presenter.context.variables(
            slots: ProductSlots(), strings: presenter.strings, bundleStrings: nil, params: params
        ).deviceVariables
        return await runtime.campaignDecider(device: device, params: params)
    }

    /// Registers a placement a campaign lists; false when none does (the placement's own
    /// paywall decides then). The presentation condition comes first: a user it skips is
    /// never assigned or counted. A holdout or no matching audience shows nothing and runs
    /// the feature, gated or not (as Superwall); a treatment shows its paywall with the
    /// experiment's fields on every event of the presentation.
    func registerByCampaign(
        placement: String, params: [String: JSONValue], parent: ParentWindow?, handler: PlacementHandler,
        feature: (@MainActor () -> Void)?, asked: Int
    ) async -> Bool {
        guard let config = await runtime.config(), config.campaign(for: placement) != nil,
            let decider = await decider(params: params)
        else { return false }
        let decision = decider.decide(placement: placement)
        let outcome = decision.outcome
        let entry = outcome.result == .paywall ? decision.paywall : nil
        // `show` ends the placement's resolving once its bundle is found; every other way ends it here.
        let skip = decision.condition.skipReason(for: runtime.subscriptionStatus)
        if entry == nil || skip != nil { presenter.resolving -= 1 }
        if let reason = skip {
            events.emit(
                .paywallPresentationRequest,
                [
                    "placement": .string(placement), "status": "noPresentation",
                    "reason": reason == .subscribed ? "userIsSubscribed" : "userHasEntitlements",
                ])
            handler.skipped?(reason)
            feature?()
            handler.completed?(true)
            return true
        }
        runtime.reportTriggerFire(placement: placement, outcome: outcome)
        handler.decided?(outcome)
        switch outcome.result {
        case .paywall:
            runtime.confirm(decision, by: decider)
            guard let entry else { return true }
            await show(
                entry, placement: placement, params: params, gated: decision.gated, condition: decision.condition,
                parent: parent, handler: handler, feature: feature, asked: asked, eventTags: outcome.eventParams)
        case .holdout, .noAudienceMatch:
            if outcome.result == .holdout { runtime.confirm(decision, by: decider) }
            let reason: SkipReason =
                outcome.result == .holdout ? .holdout(experiment: outcome.experimentId ?? "") : .noAudienceMatch
            events.emit(
                .paywallPresentationRequest,
                ["placement": .string(placement), "status": "noPresentation", "reason": .string(reason.name)].merging(
                    outcome.eventParams
                ) { own, _ in own })
            handler.skipped?(reason)
            feature?()
            handler.completed?(true)
        case .paywallNotAvailable, .placementNotFound:
            refuse(.noPaywallView(placement: placement, paywall: outcome.paywall ?? ""), handler)
        }
        return true
    }
}
