import Foundation
import PaywallCore

/// Runs `paywall <command> [options]`. The commands without a window run here; a window
/// command goes to `window` (the `paywall` executable hands it to `paywall-window`, which
/// runs it). Exit codes: 0 success, 1 failure (message on stderr), 2 usage error, and the
/// window commands' own.
@MainActor
package func runCLI(_ arguments: [String], window: (CommandSpec, ParsedArguments) throws(CLIError) -> Int32) -> Int32 {
    guard let name = arguments.first else {
        Diagnostics.fail("no command given\n\n\(Commands.mainHelp)")
        return 2
    }
    if ["--help", "-h", "help"].contains(name) {
        print(Commands.mainHelp)
        return 0
    }
    if name == "--version" {
        print("paywall \(DeviceInfo.runtimeVersion)")
        return 0
    }
    guard let command = Commands.all.first(where: { $0.name == name }) else {
        Diagnostics.fail("unknown command '\(name)'\n\n\(Commands.mainHelp)")
        return 2
    }
    do {
        // `store` has actions of its own, each with its options.
        if command.name == StoreCommand.spec.name { return try StoreCommand.run(Array(arguments.dropFirst())) }
        if command.name == CacheCommand.spec.name { return try CacheCommand.run(Array(arguments.dropFirst())) }
        if command.name == ConfigCommand.spec.name { return try ConfigCommand.run(Array(arguments.dropFirst())) }
        if command.name == AnalyticsCommand.spec.name { return try AnalyticsCommand.run(Array(arguments.dropFirst())) }
        if command.name == LicenseCommand.spec.name { return try LicenseCommand.run(Array(arguments.dropFirst())) }
        let parsed = try command.parse(Array(arguments.dropFirst()))
        if parsed.has("--help") {
            print(command.help)
            return 0
        }
        // `validate --a11y` shows the page to audit it: a window command then.
        if Commands.windowCommands.contains(command.name)
            || (command.name == BundleCommands.validate.name && parsed.has("--a11y"))
        {
            return try window(command, parsed)
        }
        switch command.name {
        case StatusCommand.spec.name: return try StatusCommand.run(parsed)
        case RedeemCommand.spec.name: return try RedeemCommand.run(parsed)
        case BundleCommands.pack.name: return try BundleCommands.runPack(parsed)
        case BundleCommands.validate.name: return try BundleCommands.runValidate(parsed)
        case VariablesCommand.spec.name: return try VariablesCommand.run(parsed)
        case PlacementCommand.spec.name: return try PlacementCommand.run(parsed)
        case PlacementCommand.assign.name: return try PlacementCommand.runAssign(parsed)
        case NewCommand.spec.name: return try NewCommand.run(parsed)
        case TemplatesCommand.spec.name: return try TemplatesCommand.run(parsed)
        case ReportCommand.spec.name: return try ReportCommand.run(parsed)
        default: return try InstallCommand.run(parsed)
        }
    } catch {
        let usage = error.command.map { "\n\nUSAGE: \($0.usageLine)\nRun 'paywall \($0.name) --help' for details." } ?? ""
        Diagnostics.fail(error.message + usage)
        return error.exitCode
    }
}
