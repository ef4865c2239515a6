/// A small command-line parser: `--name VALUE`, `--name=VALUE`, repeatable options, boolean
/// flags and positional arguments, with errors that say what was wrong.
package struct OptionSpec {
    package let name: String
    /// The value's placeholder in help (`FILE`, `WxH`); nil for a boolean flag.
    package let valueName: String?
    package var repeats = false
    package let help: String
}

package struct ParsedArguments {
    package var positionals: [String] = []
    package var values: [String: [String]] = [:]
    package var flags: Set<String> = []

    package func value(_ name: String) -> String? { values[name]?.last }
    package func all(_ name: String) -> [String] { values[name] ?? [] }
    package func has(_ name: String) -> Bool { flags.contains(name) }
}

/// A failure that ends the command: usage errors exit 2, everything else 1.
package struct CLIError: Error {
    package let message: String
    package let exitCode: Int32
    /// The command whose usage to print with a usage error.
    package var command: CommandSpec?

    package static func usage(_ message: String, _ command: CommandSpec? = nil) -> CLIError {
        CLIError(message: message, exitCode: 2, command: command)
    }

    package static func failure(_ message: String) -> CLIError {
        CLIError(message: message, exitCode: 1)
    }
}

package struct CommandSpec {
    package let name: String
    package let summary: String
    /// Positional argument placeholders, e.g. `["BUNDLE"]`.
    package let positionals: [String]
    package let options: [OptionSpec]
    package let discussion: String

    package var usageLine: String {
        let opts = options.map { o in
            let v = o.valueName.map { " \($0)" } ?? ""
            return "[\(o.name)\(v)]\(o.repeats ? "..." : "")"
        }
        return (["paywall", name] + positionals + opts).joined(separator: " ")
    }

    package var help: String {
        var lines = ["USAGE: \(usageLine)", "", summary]
        if !discussion.isEmpty { lines += ["", discussion] }
        lines += ["", "OPTIONS:"]
        for o in options + [OptionSpec(name: "--help", valueName: nil, help: "Show this help.")] {
            let left = o.name + (o.valueName.map { " \($0)" } ?? "")
            lines.append("  " + left.padding(toLength: max(24, left.count + 2), withPad: " ", startingAt: 0) + o.help)
        }
        return lines.joined(separator: "\n")
    }

    /// Parses the arguments after the command name.
    package func parse(_ arguments: [String]) throws(CLIError) -> ParsedArguments {
        var result = ParsedArguments()
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("--") else {
                result.positionals.append(argument)
                continue
            }
            if argument == "--help" {
                result.flags.insert("--help")
                continue
            }
            var name = argument
            var inlineValue: String?
            if let eq = argument.firstIndex(of: "=") {
                name = String(argument[..<eq])
                inlineValue = String(argument[argument.index(after: eq)...])
            }
            guard let option = options.first(where: { $0.name == name }) else {
                throw .usage("unknown option '\(name)' for 'paywall \(self.name)'", self)
            }
            guard option.valueName != nil else {
                if inlineValue != nil { throw .usage("option '\(name)' takes no value", self) }
                result.flags.insert(name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if index < arguments.count {
                value = arguments[index]
                index += 1
            } else {
                throw .usage("option '\(name)' needs a value (\(option.valueName!))", self)
            }
            if !option.repeats, result.values[name] != nil {
                throw .usage("option '\(name)' given more than once", self)
            }
            result.values[name, default: []].append(value)
        }
        if result.has("--help") { return result }
        // A name in brackets (`[URL]`) may be left out; a last one ending in `...` (`FILE...`) repeats.
        let required = positionals.filter { !$0.hasPrefix("[") }.count
        let repeating = positionals.last?.hasSuffix("...") == true
        if result.positionals.count < required || (!repeating && result.positionals.count > positionals.count) {
            let expected = positionals.isEmpty ? "no arguments" : positionals.joined(separator: " ")
            throw .usage("expected \(expected), got \(result.positionals.count) argument(s)", self)
        }
        return result
    }
}
