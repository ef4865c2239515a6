import Foundation
import PaywallCore

/// `paywall license <action>`: signed offline licenses, for sellers and tests: sign one with an
/// Ed25519 private key, verify one against a catalog's `license_public_key`, and print this
/// machine's fingerprint for an app (what a machine-bound license names).
package enum LicenseCommand {
    static let storeOption = OptionSpec(
        name: "--store", valueName: "CATALOG", help: "The catalog whose license_public_key and app_id are used.")

    package static let actions: [CommandSpec] = [
        CommandSpec(
            name: "license sign", summary: "Sign a license for a product with an Ed25519 private key.", positionals: [],
            options: [
                OptionSpec(
                    name: "--key", valueName: "PRIVATE.pem",
                    help: "The seller's private key (openssl genpkey -algorithm ed25519) (required)."),
                OptionSpec(name: "--product", valueName: "ID", help: "The catalog product it unlocks (required)."),
                OptionSpec(
                    name: "--expires", valueName: "ISO-DATE",
                    help: "When it ends: 2027-12-31 (midnight UTC) or 2027-12-31T12:00:00Z (default: never)."),
                OptionSpec(name: "--licensee", valueName: "NAME", help: "Who it is sold to."),
                OptionSpec(
                    name: "--machine", valueName: "FINGERPRINT",
                    help: "Bind it to one machine (its `paywall license fingerprint`)."),
                OptionSpec(name: "--out", valueName: "FILE", help: "Where the license is written (required)."),
            ],
            discussion: ""),
        CommandSpec(
            name: "license verify", summary: "Verify a license file; print it as JSON, or exit 1 with the reason.",
            positionals: ["FILE"], options: [storeOption], discussion: ""),
        CommandSpec(
            name: "license fingerprint", summary: "Print this machine's fingerprint for an app.", positionals: [],
            options: [storeOption], discussion: ""),
    ]

    package static let spec = Subcommands.parent(
        "license", summary: "Sign, verify and fingerprint signed offline licenses (sign, verify, fingerprint).",
        preamble:
            "A signed license is verified with the catalog's license_public_key, with no license server.\n\n",
        actions: actions)

    /// The app id without `--store`: what `paywall license fingerprint` keys by then.
    static let defaultAppId = "paywall"

    @MainActor
    package static func run(_ arguments: [String]) throws(CLIError) -> Int32 {
        let (command, parsed) = try Subcommands.parse(arguments, parent: spec, actions: actions)
        guard let command, let parsed else { return 0 }
        switch command.name {
        case "license sign": return try sign(parsed, command)
        case "license verify": return try verify(parsed, command)
        default: return try fingerprint(parsed)
        }
    }

    private static func fingerprint(_ parsed: ParsedArguments) throws(CLIError) -> Int32 {
        let appId = try parsed.value("--store").map { path throws(CLIError) in try settings(path).appId } ?? nil
        do throws(LicenseError) {
            print(try MachineFingerprint.current(appId: appId ?? defaultAppId))
            return 0
        } catch {
            throw .failure(error.message)
        }
    }

    private static func sign(_ parsed: ParsedArguments, _ command: CommandSpec) throws(CLIError) -> Int32 {
        func required(_ name: String) throws(CLIError) -> String {
            guard let value = parsed.value(name), !value.isEmpty else { throw .usage("\(name) is required", command) }
            return value
        }
        let keyPath = try required("--key")
        let product = try required("--product")
        let out = try required("--out")
        var expires: Date?
        if let text = parsed.value("--expires") {
            guard let date = ISODate.parse(text) ?? ISODate.parse(text + "T00:00:00Z") else {
                throw .usage("--expires \(text) is not an ISO 8601 date (2027-12-31) or time (2027-12-31T12:00:00Z)", command)
            }
            expires = date
        }
        let pem: String
        let license = SignedLicense(
            id: UUID().uuidString.lowercased(), product: product,
            issuedAt: Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)),
            expiresAt: expires, licensee: parsed.value("--licensee"), machine: parsed.value("--machine"))
        let signed: (text: String, publicKey: LicensePublicKey)
        do throws(LicenseError) {
            pem = try LicenseFile.read(keyPath)
            signed = try license.signed(privateKeyPEM: pem)
        } catch {
            throw .failure("--key \(keyPath): \(error.message)")
        }
        do {
            try Data((signed.text + "\n").utf8).write(to: URL(fileURLWithPath: out), options: .atomic)
        } catch {
            throw .failure("cannot write \(out): \(FileError.reason(error))")
        }
        print("signed license \(license.id) for \(product) written to \(out)")
        print("license_public_key: \(signed.publicKey.hex)")
        return 0
    }

    private static func verify(_ parsed: ParsedArguments, _ command: CommandSpec) throws(CLIError) -> Int32 {
        guard let file = parsed.positionals.first else { throw .usage("which license FILE?", command) }
        guard let path = parsed.value("--store") else { throw .usage("--store CATALOG is required", command) }
        let settings = try settings(path)
        do throws(LicenseError) {
            guard let key = settings.publicKey else {
                throw LicenseError(
                    .cryptography, "\(path) has no license_public_key to verify licenses with; add the seller's public key")
            }
            let license = try SignedLicense.verify(try LicenseFile.read(file), with: try LicensePublicKey(parsing: key))
            // Only a machine-bound license needs this machine's id.
            let fingerprint = try license.machine.map { _ throws(LicenseError) in
                try MachineFingerprint.current(appId: settings.appId ?? defaultAppId)
            }
            if let refusal = license.refusal(at: Date(), fingerprint: fingerprint ?? "") { throw refusal }
            StoreCommand.printJSON(license.json())
            return 0
        } catch {
            throw .failure("\(file): \(error.message)")
        }
    }

    private static func settings(_ path: String) throws(CLIError) -> LicenseSettings {
        let catalog: Catalog
        do { catalog = try CatalogLoader.load(path: path) } catch { throw .failure(CommandAdvice.describe(error)) }
        guard let settings = catalog.licensing else {
            throw .failure("\(path) sells no licenses; add \"store\": \"signed_license\" and license_public_key to it")
        }
        return settings
    }
}
