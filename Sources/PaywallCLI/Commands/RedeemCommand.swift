import Foundation
import PaywallCore

/// `paywall redeem --store CATALOG [--data-dir D] [--user ID] [URL]`: activates a license key
/// on this machine with the catalog's license store, from a redeem link
/// (`SCHEME://paywall/redeem?license_key=KEY`) or, without one, from stdin (a key in argv
/// would show in `ps`), and prints the resulting entitlements as `store entitlements --json` does.
package enum RedeemCommand {
    package static let spec = CommandSpec(
        name: "redeem", summary: "Activate a license key (from a redeem link, or stdin) and print the entitlements.",
        positionals: ["[URL]"],
        options: [
            OptionSpec(name: "--store", valueName: "CATALOG", help: "A catalog with \"store\": \"lemon_squeezy\" (required)."),
            Commands.dataDirOption, Commands.userOption,
        ],
        discussion: """
            URL is a redeem link, SCHEME://paywall/redeem?license_key=KEY, as a .desktop file's
            MimeType=x-scheme-handler/SCHEME; hands it over. Without URL the key is read from stdin
            (never from an argument: it would show in `ps`). Prints {"user_id", "subscription_status",
            "entitlements"} as `paywall store entitlements --json` does. Exit 0 when the key is
            activated, 1 when it is not (the reason on stderr), 2 for a usage error.
            """)

    @MainActor
    package static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        let key: String
        if let text = arguments.positionals.first {
            guard let url = URL(string: text), let link = RedeemLink(url) else {
                // Not echoed: what was given may hold a key in another form.
                throw .usage(
                    "the argument is not a redeem link; expected SCHEME://paywall/redeem?license_key=KEY, "
                        + "or no argument and the key on stdin", spec)
            }
            key = link.licenseKey
        } else {
            key = readKey()
        }
        let context = try StoreContext(arguments, events: EventDispatcher(), requireStore: true, command: spec)
        guard let licenses = context.runtime.licenseStore, let purchases = context.purchases else {
            throw .failure(
                "\(arguments.value("--store") ?? "the catalog") sells no license keys; add \"store\": \"lemon_squeezy\" "
                    + "and each product's checkout_url and lemon_squeezy ids to it")
        }
        return try Subcommands.runAsync { () throws(CLIError) -> Int32 in
            do throws(LicenseError) {
                try await licenses.redeem(key: key)
            } catch {
                throw .failure("license key not activated: \(error.message)")
            }
            // The key is activated: a cache that cannot record it is a warning (see `StoreContext`).
            try? purchases.refresh()
            StoreCommand.printJSON(
                StoreReport.entitlements(
                    purchases.customerInfo, status: purchases.subscriptionStatus,
                    userId: purchases.userId))
            return 0
        }
    }

    /// The key from stdin: its first non-empty line. A terminal is asked for it on stderr.
    private static func readKey() -> String {
        if isatty(STDIN_FILENO) != 0 { FileHandle.standardError.write(Data("License key: ".utf8)) }
        while let line = Swift.readLine(strippingNewline: true) {
            let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if !trimmed.isEmpty { return trimmed }
        }
        return ""
    }
}
