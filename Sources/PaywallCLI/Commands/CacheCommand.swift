import Foundation
import PaywallCore

/// `paywall cache <action>`: the local, integrity-checked bundle cache.
package enum CacheCommand {
    package static let budgetOption = OptionSpec(
        name: "--budget", valueName: "MB", help: "Size budget in megabytes (default 100).")
    /// What every command that downloads bundles takes: `cache add` and `config load`.
    package static let downloadOptions = [
        OptionSpec(name: "--max-file-mb", valueName: "MB", help: "Largest file a bundle may have (default 100)."),
        OptionSpec(name: "--max-bundle-mb", valueName: "MB", help: "Largest a bundle's files may be together (default 200)."),
        OptionSpec(name: "--deadline", valueName: "SECONDS", help: "Longest a bundle's download may take (default 120)."),
    ]

    private static func spec(
        _ action: String, _ summary: String, _ positionals: [String] = [],
        _ extra: [OptionSpec] = []
    ) -> CommandSpec {
        CommandSpec(
            name: "cache \(action)", summary: summary, positionals: positionals,
            options: [Commands.dataDirOption] + extra, discussion: "")
    }

    package static let actions: [CommandSpec] = [
        spec(
            "add", "Install a bundle from a directory or the URL of its manifest.json.", ["URL|DIR"],
            [OptionSpec(name: "--pin", valueName: nil, help: "Never evict it.")] + downloadOptions),
        spec("list", "List cached bundle versions.", [], [OptionSpec(name: "--json", valueName: nil, help: "Print JSON.")]),
        spec("verify", "Check every cached file against its hash; exit 1 naming each bad file."),
        spec("remove", "Remove every version of a bundle.", ["ID"]),
        spec("prune", "Drop superseded versions, then least recently used bundles over the budget.", [], [budgetOption]),
    ]

    package static let spec = Subcommands.parent(
        "cache", summary: "Manage the bundle cache (add, list, verify, remove, prune).",
        preamble: "The cache lives in $XDG_CACHE_HOME/paywall, or DIR/cache with --data-dir DIR.\n\n", actions: actions)

    @MainActor
    package static func run(_ arguments: [String]) throws(CLIError) -> Int32 {
        let (command, parsed) = try Subcommands.parse(arguments, parent: spec, actions: actions)
        guard let command, let parsed else { return 0 }
        let directory = DataDirectory.locate(explicit: parsed.value("--data-dir")).bundleCache
        // Listing and verifying only read: a cache that is not there yet is empty, and stays uncreated.
        let readsOnly = ["cache list", "cache verify"].contains(command.name)
        let cache: BundleCache?
        do {
            cache =
                readsOnly && !FileManager.default.fileExists(atPath: directory.path) ? nil : try BundleCache(directory: directory)
        } catch {
            throw .failure("bundle cache: \(CommandAdvice.describe(error))")
        }
        return try Subcommands.runAsync { () async throws -> Int32 in
            do {
                return try await perform(command.name.dropFirst("cache ".count), parsed, cache: cache, command: command)
            } catch let error as CLIError {
                throw error
            } catch {
                throw CLIError.failure(CommandAdvice.describe(error))
            }
        }
    }

    /// `cache` is nil only for a reading action on a cache that does not exist yet (nothing in it).
    @MainActor
    private static func perform(
        _ action: Substring, _ arguments: ParsedArguments, cache: BundleCache?,
        command: CommandSpec
    ) async throws -> Int32 {
        guard let cache else { return report(action, arguments, versions: [], problems: []) }
        switch action {
        case "add":
            cache.limits = try downloadLimits(arguments, command)
            let installed = try await cache.install(BundleSource(arguments.positionals[0]))
            if arguments.has("--pin") { try cache.pin(installed.id) }
            print("cached \(installed.id) \(installed.version) (\(installed.size) bytes)")
        case "list", "verify":
            let versions = try cache.list()
            var problems: [BundleProblem] = []
            if action == "verify" { for version in versions { problems += await cache.verify(version) } }
            return report(action, arguments, versions: versions, problems: problems)
        case "remove":
            try cache.remove(id: arguments.positionals[0])
            print("removed \(arguments.positionals[0])")
        default:
            var budget = 100.0
            if let text = arguments.value("--budget") {
                guard let mb = Double(text), mb >= 0, mb <= 1_000_000 else {
                    throw CLIError.usage("--budget must be megabytes from 0 to 1000000, got '\(text)'", command)
                }
                budget = mb
            }
            let removed = try await cache.prune(budgetBytes: Int(budget * 1_000_000))
            print(removed.isEmpty ? "nothing to prune" : "removed \(removed.joined(separator: ", "))")
        }
        return 0
    }

    /// What `cache list` and `cache verify` print about `versions` (`problems`: what verifying them found).
    private static func report(
        _ action: Substring, _ arguments: ParsedArguments, versions: [InstalledBundle],
        problems: [BundleProblem]
    ) -> Int32 {
        switch action {
        case "list":
            if arguments.has("--json") {
                print(
                    JSONValue.array(
                        versions.map { v in
                            .object([
                                "id": .string(v.id), "version": .string(v.version), "source": .string(v.source),
                                "size": .number(Double(v.size)), "installed_at": StoreReport.date(v.installedAt),
                                "last_used_at": StoreReport.date(v.lastUsedAt), "pinned": .bool(v.pinned),
                                "refused": .bool(v.refused),
                            ])
                        }
                    ).jsonText)
            } else {
                for v in versions {
                    print(
                        "\(v.id)\t\(v.version)\t\(v.size) bytes\t\(v.refused ? "refused" : v.pinned ? "pinned" : "ok")\t\(v.source)"
                    )
                }
            }
        case "verify":
            for problem in problems { print(problem.description) }
            if problems.isEmpty { print("ok: every cached file matches its hash") }
            return problems.isEmpty ? 0 : 1
        default:
            break
        }
        return 0
    }

    /// The download limits `--max-file-mb`, `--max-bundle-mb` and `--deadline` set.
    package static func downloadLimits(_ arguments: ParsedArguments, _ command: CommandSpec) throws(CLIError) -> DownloadLimits {
        var limits = DownloadLimits()
        func number(_ option: String, most: Double) throws(CLIError) -> Double? {
            guard let text = arguments.value(option) else { return nil }
            guard let value = Double(text), value > 0, value <= most else {
                throw .usage("\(option) must be a number more than 0 and at most \(Int(most)), got '\(text)'", command)
            }
            return value
        }
        if let mb = try number("--max-file-mb", most: 1_000_000) {
            limits.maxFileBytes = Int(mb * Double(DownloadLimits.megabyte))
        }
        if let mb = try number("--max-bundle-mb", most: 1_000_000) {
            limits.maxBundleBytes = Int(mb * Double(DownloadLimits.megabyte))
        }
        if let seconds = try number("--deadline", most: 86_400) { limits.deadline = seconds }
        return limits
    }
}
