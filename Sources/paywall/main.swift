import Foundation

/// Entry point: `paywall <command> [options]`. Exit codes: 0 success, 1 failure (message on
/// stderr), 2 usage error, 3 `present --timeout` elapsed.
@MainActor
func runCLI(_ arguments: [String]) -> Int32 {
    guard let name = arguments.first else {
        PresentationHost.fail("no command given\n\n\(Commands.mainHelp)")
        return 2
    }
    if ["--help", "-h", "help"].contains(name) {
        print(Commands.mainHelp)
        return 0
    }
    guard let command = Commands.all.first(where: { $0.name == name }) else {
        PresentationHost.fail("unknown command '\(name)'\n\n\(Commands.mainHelp)")
        return 2
    }
    do {
        // `store` has actions of its own, each with its options.
        if command.name == StoreCommand.spec.name { return try StoreCommand.run(Array(arguments.dropFirst())) }
        if command.name == CacheCommand.spec.name { return try CacheCommand.run(Array(arguments.dropFirst())) }
        if command.name == ConfigCommand.spec.name { return try ConfigCommand.run(Array(arguments.dropFirst())) }
        let parsed = try command.parse(Array(arguments.dropFirst()))
        if parsed.has("--help") {
            print(command.help)
            return 0
        }
        switch command.name {
        case Commands.preview.name: return try PreviewCommand.run(parsed)
        case Commands.snapshot.name: return try SnapshotCommand.run(parsed)
        case Commands.present.name: return try PresentCommand.run(parsed)
        case CustomerCenterCommand.spec.name: return try CustomerCenterCommand.run(parsed)
        case StatusCommand.spec.name: return try StatusCommand.run(parsed)
        case BundleCommands.pack.name: return try BundleCommands.runPack(parsed)
        case BundleCommands.validate.name: return try BundleCommands.runValidate(parsed)
        case BenchCommand.spec.name: return try BenchCommand.run(parsed)
        case VariablesCommand.spec.name: return try VariablesCommand.run(parsed)
        default: return try InstallCommand.run(parsed)
        }
    } catch {
        let usage = error.command.map { "\n\nUSAGE: \($0.usageLine)\nRun 'paywall \($0.name) --help' for details." } ?? ""
        PresentationHost.fail(error.message + usage)
        return error.exitCode
    }
}

exit(runCLI(Array(CommandLine.arguments.dropFirst())))
