import Foundation
import PaywallCore

/// `paywall templates [--json] [--sheet OUT.png]`: the gallery `paywall new` starts from, as a
/// list, as JSON, or as one picture of every template in light and dark (rendered by the
/// window executable, as `snapshot` renders: it needs a display).
package enum TemplatesCommand {
    package static let spec = CommandSpec(
        name: "templates", summary: "List the templates `paywall new` starts from; --sheet draws them all in one PNG.",
        positionals: [],
        options: [
            OptionSpec(
                name: "--json", valueName: nil, help: "Print a JSON list of {\"name\", \"title\", \"description\", \"products\"}."
            ),
            OptionSpec(
                name: "--sheet", valueName: "OUT.png",
                help: "Write a contact sheet of every template (light and dark, 360x640, English) to OUT.png; needs a display."),
        ],
        discussion: """
            Each template is a folder of the runtime's templates/ (described in templates/gallery.json); products
            are its sample catalog's, by slot. --sheet renders each template with its sample catalog through
            `paywall snapshot` (a template meant for users in one state, such as winback, is rendered in that state),
            then the sheet itself the same way.
            """)

    /// The size of each template's picture on the sheet, and how many templates a row holds.
    static let shotSize = "360x640"
    static let perRow = 4

    @MainActor
    package static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        let gallery = try TemplateGallery(resources: try resources())
        if let out = arguments.value("--sheet") {
            try sheet(gallery, to: URL(fileURLWithPath: out))
            print("wrote \(out): \(gallery.templates.count) templates")
            return 0
        }
        if arguments.has("--json") {
            print(JSONValue.array(gallery.templates.map(\.json)).jsonText)
            return 0
        }
        let width = (gallery.templates.map(\.name.count).max() ?? 0) + 2
        for template in gallery.templates {
            let slots = template.products.entries.map { "\($0.slot)=\($0.productId)" }.joined(separator: ",")
            print(
                template.name.padding(toLength: width, withPad: " ", startingAt: 0) + template.title + ": " + template.description
            )
            print(String(repeating: " ", count: width) + "products: " + slots)
        }
        print("\nStart a bundle from one: paywall new DIR --template NAME")
        return 0
    }

    static func resources() throws(CLIError) -> RuntimeResources {
        do { return try RuntimeResources.locate(executable: URL(fileURLWithPath: "/proc/self/exe")) } catch {
            throw .failure(error.description)
        }
    }

    /// Renders every template (light and dark) with the window executable, lays them out on a
    /// page with their names, and renders that page to `out`.
    @MainActor
    private static func sheet(_ gallery: TemplateGallery, to out: URL) throws(CLIError) {
        guard let window = WindowExecutable.locate() else {
            throw .failure(
                "--sheet needs \(WindowExecutable.name) beside paywall or in ../libexec/paywall/; build it (swift build)")
        }
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("paywall-templates-\(getpid())")
        let page = work.appendingPathComponent("sheet")
        defer { try? FileManager.default.removeItem(at: work) }
        do { try FileManager.default.createDirectory(at: page, withIntermediateDirectories: true) } catch {
            throw .failure("cannot create \(page.path): \(FileError.describe(error))")
        }
        var figures: [String] = []
        for template in gallery.templates {
            let store = template.folder.appendingPathComponent("store.json").path
            let data = work.appendingPathComponent("data-\(template.name)").path
            if let state = template.previewState {
                try run(
                    WindowExecutable.commandLine(besideWindow: window),
                    ["store", "seed", state.product, state.state, "--store", store, "--data-dir", data], what: template.name)
            }
            let shots = work.appendingPathComponent("shots-\(template.name)")
            try run(
                window,
                [
                    "snapshot", template.folder.path, "--store", store, "--data-dir", data, "--out-dir", shots.path,
                    "--locales", "en", "--themes", "light,dark", "--sizes", shotSize,
                ], what: template.name)
            var images: [String] = []
            for theme in ["light", "dark"] {
                let name = "\(template.name)_\(theme).png"
                do {
                    try FileManager.default.copyItem(
                        at: shots.appendingPathComponent("en_\(theme)_\(shotSize).png"), to: page.appendingPathComponent(name))
                } catch {
                    throw .failure("\(template.name): no \(theme) image was rendered: \(FileError.describe(error))")
                }
                images.append("<img src=\"\(name)\" alt=\"\(template.title), \(theme)\">")
            }
            figures.append(
                "<figure><div>\(images.joined())</div><figcaption><b>\(template.name)</b> \(template.description)</figcaption></figure>"
            )
        }
        let rows = (gallery.templates.count + perRow - 1) / perRow
        let html = """
            <!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Templates</title><style>
            body { margin: 0; padding: 24px; background: #e9e9ee; color: #1c1c22; font: 14px/1.35 sans-serif; }
            h1 { margin: 0 0 16px; font-size: 22px; }
            main { display: grid; grid-template-columns: repeat(\(perRow), 376px); gap: 20px; }
            figure { margin: 0; padding: 8px; background: #fff; border-radius: 10px; }
            figure div { display: flex; gap: 8px; } img { width: 176px; height: 313px; border: 1px solid #ccc; }
            figcaption { margin-top: 6px; height: 74px; overflow: hidden; } b { display: block; font-size: 15px; }
            </style></head><body><h1>paywall templates: \(gallery.templates.count) templates, light and dark, \(shotSize), en</h1>
            <main>\(figures.joined(separator: "\n"))</main></body></html>
            """
        do { try Data(html.utf8).write(to: page.appendingPathComponent("index.html")) } catch {
            throw .failure("cannot write \(page.path): \(FileError.describe(error))")
        }
        let size = "\(48 + perRow * 376 + (perRow - 1) * 20)x\(48 + 40 + rows * 425 + (rows - 1) * 20)"
        try run(window, ["snapshot", page.path, "--out", out.path, "--size", size], what: "the sheet")
    }

    /// Runs one step of the sheet; its failure, with what it printed, ends the command.
    private static func run(_ executable: URL, _ arguments: [String], what: String) throws(CLIError) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        do { try process.run() } catch { throw .failure("cannot run \(executable.path): \(error)") }
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw .failure(
                "--sheet: rendering \(what) failed (\(executable.lastPathComponent) \(arguments.joined(separator: " ")), exit \(process.terminationStatus)): \(message)"
            )
        }
    }
}
