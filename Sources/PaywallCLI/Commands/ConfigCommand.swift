import Foundation
import PaywallCore

/// `paywall config load FILE|URL`: reads the paywall config (never waiting more than 300 ms for
/// its source when a cached copy exists) and installs each paywall's bundle into the cache.
package enum ConfigCommand {
    package static let load = CommandSpec(
        name: "config load", summary: "Load a paywall config and cache every paywall's bundle.", positionals: ["FILE|URL"],
        options: [
            Commands.dataDirOption,
            OptionSpec(
                name: "--timeout-ms", valueName: "MS",
                help: "How long the source may take before the cached copy is used (default 300)."),
        ]
            + CacheCommand.downloadOptions,
        discussion: "")

    package static let validate = CommandSpec(
        name: "config validate", summary: "List every problem of a paywall config (exit 1 if any).", positionals: ["FILE|URL"],
        options: [],
        discussion:
            "Each problem names its path and, for a filter, its line and column: campaigns[0].audiences[0].filter: 1:27: expected ')'."
    )

    package static let spec = Subcommands.parent(
        "config", summary: "Load or validate the app's paywall config (`paywall config load FILE|URL`).",
        actions: [load, validate])

    /// `config validate`: every problem, one a line; a config that cannot be read at all is one problem.
    @MainActor
    static func runValidate(_ location: String) throws(CLIError) -> Int32 {
        let problems: [String] = try Subcommands.runAsync {
            do {
                let data = try await ConfigLoader.fetcher(for: location)()
                let config = try PaywallConfig(data: data, origin: location)
                return config.problems.map(\.description)
            } catch {
                return [CommandAdvice.describe(error)]
            }
        }
        for problem in problems { print(problem) }
        if problems.isEmpty { print("\(location): no problems") }
        return problems.isEmpty ? 0 : 1
    }

    @MainActor
    package static func run(_ arguments: [String]) throws(CLIError) -> Int32 {
        let (command, parsed) = try Subcommands.parse(arguments, parent: spec, actions: [load, validate])
        guard let command, let parsed else { return 0 }
        if command.name == validate.name { return try runValidate(parsed.positionals[0]) }
        var timeout = 0.3
        if let text = parsed.value("--timeout-ms") {
            guard let ms = Double(text), ms >= 0, ms <= 60_000 else {
                throw .usage("--timeout-ms must be milliseconds from 0 to 60000, got '\(text)'", load)
            }
            timeout = ms / 1000
        }
        let limits = try CacheCommand.downloadLimits(parsed, load)
        let data: DataDirectory
        let cache: BundleCache
        do {
            data = try DataDirectory(explicit: parsed.value("--data-dir"))
            cache = try BundleCache(directory: data.bundleCache)
        } catch {
            throw .failure(CommandAdvice.describe(error))
        }
        cache.limits = limits
        let location = parsed.positionals[0]
        let loader = ConfigLoader(cachePath: data.configCache, timeout: timeout)
        return try Subcommands.runAsync {
            let (config, origin) = try await loader.load(
                origin: location, fetch: ConfigLoader.fetcher(for: location, limits: limits))
            if origin == .cache {
                print("using the cached config: \(location) failed or did not answer within \(Int(timeout * 1000)) ms")
            }
            var failures = 0
            for outcome in await ConfiguredPaywalls.cache(config, in: cache) {
                let paywall = outcome.entry
                switch outcome.result {
                case .success(let installed):
                    print("\(paywall.id)\t\(installed.id) \(installed.version)\(paywall.preload ? "\tpinned" : "")")
                case .failure(let error):
                    failures += 1
                    print("\(paywall.id)\tnot cached: \(CommandAdvice.describe(error))")
                }
            }
            // The background refresh updates the cached config for the next start.
            await loader.refresh?.value
            return failures == 0 ? 0 : 1
        }
    }
}
