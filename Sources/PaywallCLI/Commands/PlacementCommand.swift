import Foundation
import PaywallCore

/// `paywall placement NAME`: the dry run of a placement (which campaign, audience, experiment
/// and variant decide it, and why), presenting, counting and confirming nothing; and `paywall
/// assign`, which forces a tester into a variant.
package enum PlacementCommand {
    static let configOption = OptionSpec(
        name: "--config", valueName: "FILE|URL", help: "The paywall config (default: the cached config in the data directory).")

    package static let spec = CommandSpec(
        name: "placement", summary: "Dry-run a placement: the paywall, audience and variant the config decides (no window).",
        positionals: ["NAME"],
        options: [
            configOption, Commands.userOption,
            OptionSpec(
                name: "--attribute", valueName: "K=V", repeats: true,
                help: "A user attribute for the filters; V is JSON when it parses (age=30, beta=true), else a string."),
            OptionSpec(name: "--param", valueName: "K=V", repeats: true, help: "A placement param, read as --attribute is."),
            Commands.localeOption, Commands.storeOption, Commands.dataDirOption,
            OptionSpec(
                name: "--explain", valueName: nil,
                help: "List each audience in order: its filter, each sub-expression's value, the cap's count, the bucket."),
            OptionSpec(name: "--json", valueName: nil, help: "Print one JSON object (result, paywall, campaign_id, ...)."),
        ],
        discussion: """
            Decides NAME as registering it would: the campaign that lists it, its first audience whose filter and
            occurrence cap pass, and that audience's experiment's variant for the user (kept, forced or by bucket).
            Nothing is presented, counted or confirmed. --json prints {"result", "paywall", "campaign_id",
            "audience_id", "experiment_id", "variant_id"} (absent fields null); result is paywall, holdout,
            no_audience_match, placement_not_found or paywall_not_available.
            """)

    package static let assign = CommandSpec(
        name: "assign", summary: "Force a user into an experiment's variant (testers), or --clear it.", positionals: [],
        options: [
            OptionSpec(name: "--experiment", valueName: "ID", help: "The experiment's id (required)."),
            OptionSpec(name: "--variant", valueName: "ID", help: "The variant to keep for the user."),
            OptionSpec(name: "--clear", valueName: nil, help: "Forget the user's assignment: their bucket decides again."),
            configOption, Commands.userOption, Commands.dataDirOption,
        ],
        discussion: """
            Keeps the variant in experiments.sqlite in the data directory, as the API's setAssignment does; the
            experiment and variant are checked against the config when there is one (--config, else the cached config).
            """)

    /// The config at `--config`, else the cached copy; nil (for `assign`) when neither exists.
    @MainActor
    package static func loadConfig(_ arguments: ParsedArguments, data: DataDirectory, required: Bool) throws(CLIError)
        -> PaywallConfig?
    {
        let location = arguments.value("--config") ?? data.configCache
        if arguments.value("--config") == nil, !FileManager.default.fileExists(atPath: location) {
            guard required else { return nil }
            throw .failure(
                "no cached config in \(data.url.path): pass --config FILE|URL, or run 'paywall config load FILE|URL' first")
        }
        return try Subcommands.runAsync {
            let data = try await ConfigLoader.fetcher(for: location)()
            return try PaywallConfig(data: data, origin: location)
        }
    }

    /// `K=V` pairs; V is JSON when it parses as JSON, else the string.
    static func pairs(_ values: [String], _ option: String) throws(CLIError) -> [String: JSONValue] {
        var result: [String: JSONValue] = [:]
        for item in values {
            guard let equals = item.firstIndex(of: "="), equals != item.startIndex else {
                throw .usage("\(option) takes KEY=VALUE, got '\(item)'", spec)
            }
            let text = String(item[item.index(after: equals)...])
            result[String(item[..<equals])] = (try? JSONValue(parsing: text)) ?? .string(text)
        }
        return result
    }

    @MainActor
    static func runtime(_ arguments: ParsedArguments, config: PaywallConfig?) throws(CLIError) -> PaywallRuntime {
        do {
            return try PaywallRuntime(
                PaywallRuntime.Configuration(
                    dataDirectory: arguments.value("--data-dir"),
                    // With the fake store, `device.subscriptionStatus` and the entitlements are the user's there.
                    store: arguments.value("--store").map { .fakeStore(catalog: $0) } ?? .none, config: config.map { .value($0) },
                    locale: arguments.value("--locale"), userId: arguments.value("--user"), logLevel: .none))
        } catch {
            throw .failure(
                error.part.map { "\($0): \(CommandAdvice.describe(error.underlying))" }
                    ?? CommandAdvice.describe(error.underlying))
        }
    }

    @MainActor
    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        let (_, decider, decision, config) = try decide(arguments.positionals[0], arguments)
        let name = arguments.positionals[0]
        for problem in config.problems { Diagnostics.fail("warning: campaign refused: \(problem)") }
        if arguments.has("--explain") { print(explanation(decision, decider: decider, placement: name)) }
        if arguments.has("--json") {
            print(decision.outcome.json.jsonText)
        } else if !arguments.has("--explain") {
            print(summary(decision.outcome))
        }
        return 0
    }

    /// Decides `name` as registering it would (`--config`, `--user`, `--attribute`, `--param`,
    /// `--locale`, `--data-dir`), confirming nothing; `paywall present --placement` shares it.
    @MainActor
    package static func decide(_ name: String, _ arguments: ParsedArguments) throws(CLIError)
        -> (PaywallRuntime, CampaignDecider, CampaignDecider.Decision, PaywallConfig)
    {
        let data: DataDirectory
        do { data = try DataDirectory(explicit: arguments.value("--data-dir")) } catch {
            throw .failure(CommandAdvice.describe(error))
        }
        let config = try loadConfig(arguments, data: data, required: true)
        let attributes = try pairs(arguments.values["--attribute"] ?? [], "--attribute")
        let params = try pairs(arguments.values["--param"] ?? [], "--param")
        let runtime = try runtime(arguments, config: config)
        let strings: StringTable
        let locale = try Commands.locale(arguments, command: spec)
        do {
            let resources = try RuntimeResources.locate(executable: URL(fileURLWithPath: "/proc/self/exe"))
            strings = try StringTable(directory: resources.locales, locale: locale)
        } catch {
            throw .failure(CommandAdvice.describe(error))
        }
        let context = TemplateContext(locale: Locale(identifier: strings.resolution.formattingIdentifier))
        context.attach(runtime)
        let device = context.variables(slots: ProductSlots(), strings: strings, bundleStrings: nil, params: params)
            .deviceVariables
        let (decider, decision) = try Subcommands.runAsync { () async throws -> (CampaignDecider, CampaignDecider.Decision) in
            guard let decider = await runtime.campaignDecider(device: device, params: params, attributes: attributes) else {
                throw CLIError.failure("no config")
            }
            return (decider, decider.decide(placement: name))
        }
        return (runtime, decider, decision, config!)
    }

    static func summary(_ outcome: PlacementOutcome) -> String {
        var parts = ["result: \(outcome.result.rawValue)"]
        if let paywall = outcome.paywall { parts.append("paywall: \(paywall)") }
        if let campaign = outcome.campaignId { parts.append("campaign: \(campaign)") }
        if let audience = outcome.audienceId { parts.append("audience: \(audience)") }
        if let experiment = outcome.experimentId { parts.append("experiment: \(experiment)") }
        if let variant = outcome.variantId { parts.append("variant: \(variant)") }
        return parts.joined(separator: "\n")
    }

    /// Each audience in order with its filter, each sub-expression's value and the cap; then the variant and its bucket.
    static func explanation(_ decision: CampaignDecider.Decision, decider: CampaignDecider, placement: String) -> String {
        var lines: [String] = []
        let outcome = decision.outcome
        guard let campaign = outcome.campaignId else {
            lines.append("placement \(placement): no campaign lists it")
            lines.append(summary(outcome))
            return lines.joined(separator: "\n")
        }
        lines.append("placement \(placement): campaign \(campaign), user \(decider.userId) (assignment key \(decider.userKey))")
        for (index, step) in decision.audiences.enumerated() {
            lines.append("audience \(index + 1) \(step.id): \(step.matched && step.capPassed ? "matches" : "does not match")")
            if let filter = step.filter {
                lines.append("  filter: \(filter)")
                for entry in step.steps {
                    let value: String
                    switch entry.value {
                    case .success(let v): value = v.literalText
                    case .failure(let error): value = "error: \(error.message)"
                    }
                    lines.append("    \(entry.source) = \(value)")
                }
            } else {
                lines.append("  filter: none (everyone)")
            }
            if let cap = step.cap { lines.append("  cap: \(cap.count) of \(cap.max)\(step.capPassed ? "" : " (reached)")") }
        }
        if let bucket = decision.bucket, let experiment = outcome.experimentId {
            lines.append(
                "experiment \(experiment): bucket \(bucket) of 10000 -> variant \(outcome.variantId ?? "none") (\(decision.assignment ?? "bucket"))"
                    + (decision.reassignedFrom.map { "; kept variant \($0) was removed" } ?? ""))
        }
        lines.append(summary(outcome))
        return lines.joined(separator: "\n")
    }

    @MainActor
    static func runAssign(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        guard let experiment = arguments.value("--experiment") else { throw .usage("--experiment ID is required", assign) }
        let variant = arguments.value("--variant")
        guard (variant == nil) == arguments.has("--clear") else {
            throw .usage("give --variant ID to force a variant, or --clear to forget one (not both)", assign)
        }
        let data: DataDirectory
        do { data = try DataDirectory(explicit: arguments.value("--data-dir")) } catch {
            throw .failure(CommandAdvice.describe(error))
        }
        let config = try loadConfig(arguments, data: data, required: false)
        let runtime = try runtime(arguments, config: config)
        try Subcommands.runAsync { try await runtime.setAssignment(experiment: experiment, variant: variant) }
        print(
            variant.map { "\(runtime.userId): experiment \(experiment) -> variant \($0)" }
                ?? "\(runtime.userId): experiment \(experiment) cleared")
        return 0
    }
}
