import Foundation
import PaywallCLI
import PaywallCore
import PaywallHost

/// `paywall present BUNDLE`: shows the paywall, runs `--eval` scripts once it is ready, and
/// prints the result as one JSON line when it closes.
@MainActor
enum PresentCommand {
    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        let timeout = try Commands.timeout(arguments, Commands.present)
        let scripts = try EvalScripts(arguments, Commands.present)
        var decided: (paywall: String, config: PaywallConfig, eventTags: [String: JSONValue])?
        var outcome: PlacementOutcome?
        if let placement = arguments.value("--placement") {
            guard arguments.positionals.isEmpty else {
                throw .usage("give BUNDLE or --placement NAME, not both", Commands.present)
            }
            let (runtime, decider, decision, config) = try PlacementCommand.decide(placement, arguments)
            outcome = decision.outcome
            // What is decided without a window goes to the log and the analytics as register's events do.
            if let path = arguments.value("--events") {
                do {
                    let log = try EventLog(path: path)
                    runtime.events.observe { log.append($0) }
                } catch {
                    throw .failure(error.description)
                }
            }
            let noWindow = { (result: PresentationResult, reason: String, tags: [String: JSONValue]) throws(CLIError) in
                runtime.events.emit(
                    .paywallPresentationRequest,
                    tags.merging(["placement": .string(placement), "status": "noPresentation", "reason": .string(reason)]) {
                        _, own in own
                    })
                var line = result.json().objectValue ?? [:]
                line.merge(tags) { own, _ in own }
                FileHandle.standardOutput.write(Data((JSONValue.object(line).jsonText + "\n").utf8))
                _ = try Subcommands.runAsync { await runtime.shutdownAnalytics() }
            }
            let shows = [.paywall, .holdout, .noAudienceMatch].contains(decision.outcome.result)
            // The presentation condition comes first, as for register: a user it skips is never
            // assigned or counted.
            if shows, let skip = decision.condition.skipReason(for: runtime.subscriptionStatus) {
                try noWindow(.skipped(reason: skip), skip == .subscribed ? "userIsSubscribed" : "userHasEntitlements", [:])
                return 0
            }
            switch decision.outcome.result {
            case .paywall:
                runtime.confirm(decision, by: decider)
                decided = (decision.outcome.paywall!, config, decision.outcome.eventParams)
            case .holdout, .noAudienceMatch:
                if decision.outcome.result == .holdout { runtime.confirm(decision, by: decider) }
                // Nothing is shown, as registering the placement shows nothing; the event log
                // and the analytics still get the decision, so a report counts the holdout's users.
                runtime.reportTriggerFire(placement: placement, outcome: decision.outcome)
                let reason: SkipReason =
                    decision.outcome.result == .holdout
                    ? .holdout(experiment: decision.outcome.experimentId ?? "") : .noAudienceMatch
                try noWindow(.skipped(reason: reason), reason.name, decision.outcome.eventParams)
                return 0
            case .placementNotFound, .paywallNotAvailable:
                throw .failure(
                    "placement \(placement): \(decision.outcome.result.rawValue) (see paywall placement \(placement) --explain)")
            }
        } else if arguments.positionals.isEmpty {
            throw .usage("give BUNDLE or --placement NAME", Commands.present)
        }
        let host = try PresentationHost(arguments, command: Commands.present, countsAsView: true, decided: decided)
        if let outcome, let placement = arguments.value("--placement") {
            host.events.emit(.triggerFire, outcome.triggerFireParams(placement: placement))
        }
        if let code = scripts.strict.endOnMissingProduct(host.missingProducts) { return code }
        return host.run(
            onPresented: { presentation in
                let session = presentation.session
                session.onReady = {
                    scripts.run(in: presentation.webView, onFailure: { session.finish(.scriptError(message: $0)) })
                }
                if let timeout {
                    MainLoop.after(seconds: timeout) { session.finish(.timeout) }
                }
            },
            completion: { result in
                let report = { (result: PresentationResult) in
                    FileHandle.standardOutput.write(Data((result.jsonLine(missing: host.missingProducts) + "\n").utf8))
                    host.finish(exitCode: result.exitCode)
                }
                // Under --strict a script still running when the paywall closed (it clicked Buy or
                // Close) still counts: a throw after the close fails the run. Its --script-timeout bounds the wait.
                guard scripts.strict.enabled, result != .timeout else { return report(result) }
                scripts.whenSettled { failure in report(failure.map { .scriptError(message: $0) } ?? result) }
            })
    }
}
