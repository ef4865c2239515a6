import Foundation
import PaywallCore

/// `paywall redeem --store CATALOG [--data-dir D] [--user ID] [URL]`: activates a license key
/// on this machine with the catalog's license store, from a redeem link
/// (`SCHEME://paywall/redeem?license_key=KEY`), a signed license file (`--license-file FILE`)
/// or, without either, from stdin (a key in argv would show in `ps`), and prints the resulting entitlements as `store entitlements --json` does.
package enum RedeemCommand {
    package static let spec = CommandSpec(
        name: "redeem", summary: "Activate a license key (from a redeem link, or stdin) and print the entitlements.",
        positionals: ["[URL]"],
        options: [
            OptionSpec(name: "--store", valueName: "CATALOG", help: "A catalog that sells through license keys (required)."),
            OptionSpec(
                name: "--license-file", valueName: "FILE",
                help: "A signed license file to activate, with no network (instead of a key)."),
            Commands.dataDirOption, Commands.userOption,
        ],
        discussion: """
            URL is a redeem link, SCHEME://paywall/redeem?license_key=KEY, as a .desktop file's
            MimeType=x-scheme-handler/SCHEME; hands it over. Without URL the first line of stdin is
            read (16 KB at most): a key, or a redeem link (a line with ://), which keeps the key out
            of argv (`ps` shows arguments). Keys are at most 4096 bytes. --license-file FILE activates a
            signed license (ours or a Keygen license file, at most 64 KB) with the catalog's
            license_public_key, with no network. Prints {"user_id", "subscription_status",
            "entitlements"} as `paywall store entitlements --json` does. Exit 0 when the key is
            activated, 1 when it is not (the reason on stderr), 2 for a usage error.
            """)

    @MainActor
    package static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        let key: String
        if let file = arguments.value("--license-file") {
            guard arguments.positionals.isEmpty else { throw .usage("give a redeem link or --license-file, not both", spec) }
            do throws(LicenseError) { key = try LicenseFile.read(file) } catch { throw .failure(error.message) }
        } else if let text = arguments.positionals.first {
            guard let url = URL(string: text), let link = RedeemLink(url) else {
                // Not echoed: what was given may hold a key in another form.
                throw .usage(
                    "the argument is not a redeem link; expected SCHEME://paywall/redeem?license_key=KEY, "
                        + "or no argument and the key on stdin", spec)
            }
            key = link.licenseKey
        } else {
            let line = try readLine()
            // A redeem link on stdin keeps the key out of argv (`/proc/PID/cmdline` is world-readable).
            if line.contains("://") {
                guard let url = URL(string: line), let link = RedeemLink(url) else {
                    throw .usage("the line on stdin is not a redeem link; expected SCHEME://paywall/redeem?license_key=KEY", spec)
                }
                key = link.licenseKey
            } else {
                key = line
            }
        }
        let context = try StoreContext(arguments, events: EventDispatcher(), requireStore: true, command: spec)
        guard let licenses = context.runtime.licenseStore, let purchases = context.purchases else {
            throw .failure(
                "\(arguments.value("--store") ?? "the catalog") sells no license keys; add a license \"store\" "
                    + "(lemon_squeezy, polar, keygen, gumroad or signed_license) and each product's checkout_url and merchant ids to it"
            )
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

    /// The most stdin's line may hold, 16 KB: a key (4 KB at most), one of our signed licenses
    /// (under 1 KB) or a redeem link carrying either. A Keygen license file spans lines: it
    /// comes with `--license-file`.
    static let maxLineBytes = 16 * 1024

    /// Stdin's first non-empty line (a key or a redeem link), read `maxLineBytes` at most: a
    /// longer line is refused, not read on. A terminal is asked for it on stderr.
    private static func readLine() throws(CLIError) -> String {
        if isatty(STDIN_FILENO) != 0 { FileHandle.standardError.write(Data("License key or redeem link: ".utf8)) }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while read(STDIN_FILENO, &byte, 1) == 1 {
            if byte == 0x0A {
                let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                if !text.isEmpty { return text }
                line.removeAll(keepingCapacity: true)
                continue
            }
            line.append(byte)
            guard line.count <= maxLineBytes else {
                throw .failure(
                    "the line on stdin is over \(maxLineBytes / 1024) KB, longer than a license key, license or redeem link; "
                        + "give only the key (or the link) on one line, or a license file with --license-file")
            }
        }
        return String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
