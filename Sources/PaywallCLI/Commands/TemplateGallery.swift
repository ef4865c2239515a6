import Foundation
import PaywallCore

/// The templates a new bundle can start from: every folder of the runtime's `templates/`
/// with an entry page, described by `templates/gallery.json` (`title`, `description`, and a
/// `preview_state` to show it in, for a template meant for users in one state).
package struct TemplateGallery {
    package struct Template {
        package let name: String
        package let title: String
        package let description: String
        package let folder: URL
        /// The manifest's slots and their products.
        package let products: ProductSlots
        /// A purchase state (`paywall store seed PRODUCT STATE`) the template is meant to be seen in.
        package let previewState: (product: String, state: String)?

        /// `{"name", "title", "description", "products"}`, as `paywall templates --json` lists it.
        package var json: JSONValue {
            .object([
                "name": .string(name), "title": .string(title), "description": .string(description),
                "products": .object(Dictionary(uniqueKeysWithValues: products.entries.map { ($0.slot, .string($0.productId)) })),
            ])
        }
    }

    package static let descriptionFile = "gallery.json"

    /// Every template, sorted by name (`classic` first: the one `paywall new` starts from).
    package let templates: [Template]

    package init(resources: RuntimeResources) throws(CLIError) {
        let root = resources.templates
        let descriptions: [String: JSONValue]
        let file = root.appendingPathComponent(Self.descriptionFile)
        do {
            descriptions = try JSONValue(parsing: String(contentsOf: file, encoding: .utf8)).objectValue ?? [:]
        } catch {
            throw .failure("cannot read \(file.path): \(error); reinstall the runtime (paywall install)")
        }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? [])
            .filter {
                FileManager.default.fileExists(atPath: root.appendingPathComponent("\($0)/\(PaywallBundle.defaultEntry)").path)
            }
        var templates: [Template] = []
        for name in names {
            let folder = root.appendingPathComponent(name)
            let about = descriptions[name]
            let manifest: BundleManifest
            do { manifest = try BundleManifest(root: folder) } catch { throw .failure("template \(name): \(error)") }
            let state = about?["preview_state"]
            templates.append(
                Template(
                    name: name, title: about?["title"]?.stringValue ?? name,
                    description: about?["description"]?.stringValue ?? "", folder: folder, products: manifest.slots,
                    previewState: state.flatMap { state in
                        guard let product = state["product"]?.stringValue, let name = state["state"]?.stringValue else {
                            return nil
                        }
                        return (product, name)
                    }))
        }
        self.templates = templates.sorted { ($0.name == "classic" ? 0 : 1, $0.name) < ($1.name == "classic" ? 0 : 1, $1.name) }
    }

    /// The template called `name`, or an error listing the names there are.
    package func template(named name: String, command: CommandSpec) throws(CLIError) -> Template {
        guard let template = templates.first(where: { $0.name == name }) else {
            throw .usage(
                "no template named '\(name)'; the templates are: \(templates.map(\.name).joined(separator: ", "))", command)
        }
        return template
    }
}
