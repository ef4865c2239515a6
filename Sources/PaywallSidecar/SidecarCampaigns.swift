import Foundation
import PaywallCore
import PaywallHost

/// The sidecar's campaign methods: `getPresentationResult`, `confirmAllAssignments` and
/// `setAssignment`, each the `Paywalls` API it stands for.
extension SidecarServer {
    /// `{"placement", "params"?}` -> the outcome object (`paywall placement --json`'s).
    func getPresentationResult(_ params: RPCParams, _ reply: Reply) throws(RPCError) {
        let paywalls = try initialized("getPresentationResult")
        try params.only(["placement", "params"])
        let placement = try params.requiredString("placement")
        let pageParams = try params.object("params") ?? [:]
        Task { @MainActor in
            reply(.success(await paywalls.getPresentationResult(placement: placement, params: pageParams).json))
        }
    }

    /// `{}` -> `{"assignments": [outcome, ...]}`: every experiment's variant, now kept.
    func confirmAllAssignments(_ params: RPCParams, _ reply: Reply) throws(RPCError) {
        let paywalls = try initialized("confirmAllAssignments")
        try params.only([])
        Task { @MainActor in
            do {
                let outcomes = try await paywalls.confirmAllAssignments()
                reply(.success(["assignments": .array(outcomes.map(\.json))]))
            } catch {
                reply(.failure(.failed("confirmAllAssignments: \(error)")))
            }
        }
    }

    /// `{"experiment_id", "variant_id"}` (null or absent `variant_id` clears it) -> `{"experiment_id", "variant_id"}`.
    func setAssignment(_ params: RPCParams, _ reply: Reply) throws(RPCError) {
        let paywalls = try initialized("setAssignment")
        try params.only(["experiment_id", "variant_id"])
        let experiment = try params.requiredString("experiment_id")
        let variant = try params.string("variant_id")
        Task { @MainActor in
            do {
                try await paywalls.setAssignment(experiment: experiment, variant: variant)
                reply(.success(["experiment_id": .string(experiment), "variant_id": variant.map(JSONValue.string) ?? .null]))
            } catch {
                reply(.failure(.failed("setAssignment: \(error)")))
            }
        }
    }
}
