import Foundation
import PaywallCore

/// `paywall new DIR [--template NAME] [--id ID]`: a new bundle copied from a template of the
/// gallery, with its id, its sample catalog (`store.json`, the manifest's preview store), a
/// README of the variables and texts it uses, and its manifest packed: ready for `preview`.
package enum NewCommand {
    package static let spec = CommandSpec(
        name: "new", summary: "Start a bundle from a template: DIR gets its page, sample catalog, README and packed manifest.",
        positionals: ["DIR"],
        options: [
            OptionSpec(
                name: "--template", valueName: "NAME", help: "The template to copy (default classic; see `paywall templates`)."),
            OptionSpec(name: "--id", valueName: "ID", help: "The bundle's id in its manifest (default: DIR's folder name)."),
        ],
        discussion: """
            DIR must not exist yet, or be empty. It gets the template's files, its sample catalog store.json
            (the manifest's preview_store), README.md listing the template variables and texts the page uses, and
            manifest.json packed (`paywall bundle pack`). Then `paywall preview DIR` shows it.
            """)

    /// The generated list of what the page uses.
    static let readmeName = "README.md"

    @MainActor
    package static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        let gallery = try TemplateGallery(resources: try TemplatesCommand.resources())
        let template = try gallery.template(named: arguments.value("--template") ?? "classic", command: spec)
        let target = URL(fileURLWithPath: arguments.positionals[0]).standardizedFileURL
        let fm = FileManager.default
        if fm.fileExists(atPath: target.path) {
            guard FileSystem.isFolder(target.path), ((try? fm.contentsOfDirectory(atPath: target.path)) ?? ["?"]).isEmpty else {
                throw .failure("\(target.path) already exists and is not an empty folder; name a new one (nothing was written)")
            }
        }
        let id = arguments.value("--id") ?? target.lastPathComponent
        guard !id.isEmpty, id.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }) else {
            throw .usage("--id must be letters, digits, '-', '_' or '.'; got '\(id)'", spec)
        }
        do {
            try fm.createDirectory(at: target, withIntermediateDirectories: true)
            for file in BundleInspector.contentFiles(of: template.folder) + [BundleManifest.fileName] {
                let destination = target.appendingPathComponent(file)
                try fm.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
                try fm.copyItem(at: template.folder.appendingPathComponent(file), to: destination)
            }
            try setId(id, in: target.appendingPathComponent(BundleManifest.fileName))
            try Data(readme(of: target, id: id, template: template).utf8).write(to: target.appendingPathComponent(readmeName))
            try BundleInspector.pack(target, bumpsChangedContent: false)
        } catch let error as CLIError {
            throw error
        } catch {
            throw .failure("cannot write the bundle in \(target.path): \(FileError.describe(error))")
        }
        print("wrote \(target.path) from the \(template.name) template (id \(id)); see it with: paywall preview \(target.path)")
        return 0
    }

    /// The manifest with `id` and a first version: the copy is a bundle of its own.
    private static func setId(_ id: String, in manifest: URL) throws {
        var object = try JSONValue(parsing: String(contentsOf: manifest, encoding: .utf8)).objectValue ?? [:]
        object["id"] = .string(id)
        object["version"] = "1.0.0"
        try Data((JSONValue.object(object).jsonText + "\n").utf8).write(to: manifest)
    }

    /// README.md: the slots and their sample products, the runtime's variables the page fills in,
    /// and the page's own texts with what each is for (its `locales/notes.json`).
    static func readme(of root: URL, id: String, template: TemplateGallery.Template) -> String {
        let files = BundleInspector.contentFiles(of: root).filter { $0.hasSuffix(".html") || $0.hasSuffix(".json") }
        var variables = Set<String>()
        for file in files where !file.hasPrefix("locales/notes") {
            let text = (try? String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)) ?? ""
            for match in text.matches(of: /\{\{\s*([\w.$-]+)(?:\s+count=([\w.$-]+))?\s*\}\}/) {
                for name in [String(match.output.1), match.output.2.map(String.init)].compactMap({ $0 })
                where !name.hasPrefix("t.") {
                    variables.insert(name)
                }
            }
        }
        let notes =
            (try? JSONValue(parsing: String(contentsOf: root.appendingPathComponent("locales/notes.json"), encoding: .utf8)))?
            .objectValue ?? [:]
        var lines = [
            "# \(id)", "",
            "Started from the runtime's `\(template.name)` template (\(template.title)): \(template.description)", "",
            "- `paywall preview .` shows it with the sample catalog `store.json` (the manifest's `preview_store`);",
            "  `paywall validate .` and `paywall snapshot . --strict --out shot.png` check it.",
            "- After editing a file, run `paywall bundle pack .` again: the manifest lists every file's hash.", "",
            "## Products", "",
            "| slot | sample product |", "|---|---|",
        ]
        lines += template.products.entries.map { "| `\($0.slot)` | `\($0.productId)` |" }
        lines += [
            "", "Products go in slots: `\"products\"` in `manifest.json`, a config entry's `products`, or",
            "`--products SLOT=ID` on the command line. The page hides the parts of a slot that has no product; a",
            "product the catalog lacks makes the runtime show its fallback paywall instead (`--strict` fails on it).", "",
            "## Template variables", "",
            "Filled in by the runtime (every variable and its meaning: `web/PROTOCOL.md`, \"Template variables\";",
            "`paywall variables .` prints their values):", "",
        ]
        lines += variables.sorted().map { "- `{{ \($0) }}`" }
        if let winback = template.previewState {
            lines += [
                "", "This page is meant for users in one state; to see it as they do:", "",
                "    paywall store seed \(winback.product) \(winback.state) --store store.json --data-dir /tmp/\(id)-data",
                "    paywall preview . --store store.json --data-dir /tmp/\(id)-data",
            ]
        }
        lines += [
            "", "## Texts", "",
            "`{{ t.KEY }}` is KEY's text from `locales/<language>.json` in the user's language (41 languages);",
            "keys ending in `.one`, `.few`, `.other`... are plural forms (`{{ t.KEY count=VARIABLE }}`).", "",
            "| key | what it is for |", "|---|---|",
        ]
        lines += notes.keys.sorted().map { key in
            "| `\(key)` | \((notes[key]?.stringValue ?? "").replacingOccurrences(of: "|", with: "\\|")) |"
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
