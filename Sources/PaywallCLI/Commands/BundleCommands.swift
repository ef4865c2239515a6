import Foundation
import PaywallCore

/// `paywall bundle pack DIR` and `paywall validate DIR`: preparing a bundle for the cache.
package enum BundleCommands {
    package static let pack = CommandSpec(
        name: "bundle", summary: "Bundle tools: `paywall bundle pack DIR` writes DIR/manifest.json.",
        positionals: ["pack", "DIR"], options: [],
        discussion: """
            pack lists every file of DIR with its SHA-256 and size in manifest.json, keeping the manifest's
            other fields (id, version, products, preview_store, allowed_origins, min_runtime_version).
            """)

    package static let validate = CommandSpec(
        name: "validate", summary: "Check a bundle and list every problem with its file; exit 1 if any.",
        positionals: ["DIR"],
        options: [
            OptionSpec(
                name: "--a11y", valueName: nil,
                help: "Also audit the page with axe-core in the real WebKit view (light and dark, en and ar); needs a display."),
            OptionSpec(
                name: "--store", valueName: "CATALOG",
                help: "With --a11y: the catalog the page is shown with (default its preview_store)."),
            OptionSpec(
                name: "--axe", valueName: "FILE",
                help:
                    "With --a11y: axe-core's axe.min.js (default $\(AxeScript.environmentVariable), else an installed selenium-axe-python's)."
            ),
        ],
        discussion: """
            Lists every problem: manifest.json (optional; without one the rest is still checked), its
            preview_store (it must load, and sell every product of the manifest's "products"), the entry page,
            files missing, changed or not listed, and references in HTML, CSS and JS that point at nothing.
            With --a11y, the page is then shown off screen (by the window executable) in light and dark, in en_US
            and ar_EG, and axe-core runs in it with the rules tagged \(AxeScript.tags.joined(separator: ", ")): each
            violation is listed with its rule and element ("a11y (THEME, LOCALE): RULE (IMPACT): HELP; element
            SELECTOR"), exit 1 if any. axe-core is not shipped: --axe FILE, $\(AxeScript.environmentVariable), or PyPI's
            selenium-axe-python==2.2.0 installed for the python3 on PATH.
            """)

    package static func runPack(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        guard arguments.positionals[0] == "pack" else {
            throw .usage("unknown bundle action '\(arguments.positionals[0])'; the action is pack", pack)
        }
        let root = try directory(arguments.positionals[1])
        do {
            let before = try? BundleManifest(root: root)
            let manifest = try BundleInspector.pack(root)
            print("wrote \(root.appendingPathComponent(BundleManifest.fileName).path): \(manifest.files.count) files")
            if let bumpedFrom = before?.version, let version = manifest.version, version != bumpedFrom {
                print(
                    "the content changed since \(bumpedFrom) was packed: version \(version) (a cache refuses other content "
                        + "under a version it holds)")
            }
            return 0
        } catch {
            throw .failure("cannot pack \(root.path): \(error)")
        }
    }

    /// The file checks (and, under `--a11y`, the window executable adds its audit after them).
    package static func runValidate(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        if !arguments.has("--a11y"), let stray = ["--store", "--axe"].first(where: { arguments.value($0) != nil }) {
            throw .usage("\(stray) belongs to --a11y", validate)
        }
        let root = try directory(arguments.positionals[0])
        let problems = BundleInspector.validate(root)
        for problem in problems { print(CommandAdvice.describe(problem, bundle: root.path)) }
        if !FileManager.default.fileExists(atPath: root.appendingPathComponent(BundleManifest.fileName).path) {
            print(
                "note: \(root.path) has no \(BundleManifest.fileName): fine for preview and present; "
                    + "`paywall cache add` needs one, written by `paywall bundle pack \(root.path)`")
        }
        if problems.isEmpty { print("ok: \(root.path)") }
        return problems.isEmpty ? 0 : 1
    }

    private static func directory(_ path: String) throws(CLIError) -> URL {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .failure("\(path) is not a directory; pass the bundle's folder")
        }
        return URL(fileURLWithPath: path)
    }
}
