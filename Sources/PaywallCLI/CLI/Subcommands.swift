import Foundation
import PaywallCore

/// Commands with actions (`paywall store refund TXN`, `paywall cache add URL`): picks the
/// action, parses its options, and runs async work to the end without GTK.
package enum Subcommands {
    /// The parent of `actions` (`paywall store`), whose help lists each action with its summary.
    package static func parent(_ name: String, summary: String, preamble: String = "", actions: [CommandSpec]) -> CommandSpec {
        let names = actions.map { String($0.name.dropFirst(name.count + 1)) }
        let width = (names.map(\.count).max() ?? 0) + 2
        let list = zip(names, actions).map { "  " + $0.padding(toLength: width, withPad: " ", startingAt: 0) + $1.summary }
        return CommandSpec(
            name: name, summary: summary, positionals: ["ACTION"], options: [],
            discussion: preamble + "ACTIONS:\n" + list.joined(separator: "\n"))
    }

    /// The action's spec and arguments; nils when help was printed.
    package static func parse(_ arguments: [String], parent: CommandSpec, actions: [CommandSpec]) throws(CLIError)
        -> (CommandSpec?, ParsedArguments?)
    {
        let prefix = parent.name + " "
        guard let action = arguments.first, !action.hasPrefix("--") else {
            if arguments.contains("--help") {
                print(parent.help)
                return (nil, nil)
            }
            throw .usage(
                "which \(parent.name) action? one of: \(actions.map { $0.name.dropFirst(prefix.count) }.joined(separator: ", "))",
                parent)
        }
        guard let command = actions.first(where: { $0.name == prefix + action }) else {
            throw .usage("unknown \(parent.name) action '\(action)'", parent)
        }
        let parsed = try command.parse(Array(arguments.dropFirst()))
        if parsed.has("--help") {
            print(command.help)
            return (nil, nil)
        }
        return (command, parsed)
    }

    /// Runs `body` on the main actor, draining the main queue until it is done (no GTK loop here).
    @MainActor
    package static func runAsync<T>(_ body: @escaping @MainActor () async throws -> T) throws(CLIError) -> T {
        var outcome: Result<T, Error>?
        Task { @MainActor in
            do { outcome = .success(try await body()) } catch { outcome = .failure(error) }
        }
        while outcome == nil { _ = RunLoop.main.run(mode: .default, before: Date().addingTimeInterval(0.01)) }
        switch outcome! {
        case .success(let code): return code
        case .failure(let error as CLIError): throw error
        case .failure(let error): throw .failure(CommandAdvice.describe(error))
        }
    }
}
