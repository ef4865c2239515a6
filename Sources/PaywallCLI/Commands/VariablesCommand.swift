import Foundation
import PaywallCore

/// `paywall variables BUNDLE`: prints the template variables a page of the bundle would
/// receive, as one JSON object, so a designer can see their names and values. Built by the
/// core's `TemplateContext`, as a presented page's are; it opens no window and never starts GTK.
package enum VariablesCommand {
    package static let spec = CommandSpec(
        name: "variables", summary: "Print the template variables a page would receive, as one JSON object (no window).",
        positionals: ["BUNDLE"],
        options: [
            Commands.storeOption, Commands.productsOption, Commands.localeOption,
            OptionSpec(
                name: "--theme", valueName: "light|dark", help: "The appearance, for device.interfaceStyle (default light)."),
            Commands.userOption, Commands.dataDirOption,
        ],
        discussion: """
            Prints the "variables" of the template_variables event the page of BUNDLE (a folder) would be sent
            after its ping, on one line with sorted keys: user, device, params, products, each slot's product
            attributes, and t (the bundle's own texts). Without --store, prices come from the manifest's
            preview_store. A slot whose product the catalog lacks is reported on stderr: a page would get the
            fallback paywall. Opens no window and needs no display.
            """)

    @MainActor
    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        let theme = arguments.value("--theme") ?? "light"
        guard ["light", "dark"].contains(theme) else { throw .usage("--theme must be light or dark; got '\(theme)'", spec) }
        let bundle: PaywallBundle
        let manifest: BundleManifest
        do {
            bundle = try PaywallBundle(path: arguments.positionals[0])
            manifest = try BundleManifest(bundle: bundle)
        } catch {
            throw .failure("\(error)")
        }
        var slots = manifest.slots
        if let text = arguments.value("--products") {
            do { slots = slots.merging(try ProductSlots(parsing: text)) } catch { throw .usage("--products: \(error)", spec) }
        }
        let resources: RuntimeResources
        let user: StringTable
        do {
            resources = try RuntimeResources.locate(executable: URL(fileURLWithPath: "/proc/self/exe"))
            user = try StringTable(directory: resources.locales, locale: try Commands.locale(arguments, command: spec))
        } catch let error as CLIError {
            throw error
        } catch {
            throw .failure(CommandAdvice.describe(error))
        }
        Diagnostics.warnOfFallback(user)
        let stores = try StoreContext(arguments, events: EventDispatcher(), requireStore: false, command: spec)
        let context = TemplateContext(locale: Locale(identifier: user.resolution.formattingIdentifier), interfaceStyle: { theme })
        context.attach(stores.runtime)
        do {
            // As `preview` and `snapshot` do: without --store, the bundle's preview catalog.
            if stores.purchases == nil, let preview = manifest.previewStore {
                context.catalog = try CatalogLoader.load(path: preview)
            }
        } catch {
            throw .failure(CommandAdvice.describe(error))
        }
        _ = Diagnostics.checkProducts(slots, in: context.products)
        let texts = PageStrings(bundleRoot: bundle.root, locales: resources.locales, user: user)
        if let problem = texts.problem { Diagnostics.fail("\(problem); the fallback paywall is shown instead") }
        let variables = context.variables(slots: slots, strings: texts.runtime, bundleStrings: texts.bundleStrings, params: [:])
        FileHandle.standardOutput.write(Data((variables.object.jsonText + "\n").utf8))
        return 0
    }
}
