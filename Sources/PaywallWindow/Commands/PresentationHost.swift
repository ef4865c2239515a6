import Foundation
import PaywallCLI
import PaywallCore
import PaywallHost

/// What `preview`, `snapshot` and `present` share: checks the bundle, resources and options,
/// starts GTK, writes the event log, sets up products and purchases, and presents the bundle
/// through the library's `PaywallPresenter`.
@MainActor
final class PresentationHost {
    let bundle: PaywallBundle
    let presenter: PaywallPresenter
    let options: PaywallPresenter.Options
    /// `--presentation`: its own window, or a widget in a stand-in app window.
    let style: PresentationStyle
    private var exitCode: Int32 = 0
    /// The runtime's analytics, sent once more as the run ends.
    private let analytics: AnalyticsPipeline?
    /// Marks a cached bundle as on screen while this process shows it (other processes' prune keeps it).
    private var inUse: FileLock?

    /// - Parameters:
    ///   - countsAsView: whether showing it counts as a paywall view (not for previews).
    ///   - decided: a campaign's decision (`present --placement`): the paywall, its config and
    ///     the experiment fields every event of the presentation carries.
    init(
        _ arguments: ParsedArguments, command: CommandSpec, offscreen: Bool = false, countsAsView: Bool,
        titleKey: String = "window.title.present",
        decided: (paywall: String, config: PaywallConfig, eventTags: [String: JSONValue])? = nil
    ) throws(CLIError) {
        let target = decided?.paywall ?? arguments.positionals[0]
        var refused: [(InstalledBundle, [BundleProblem])] = []
        let configSlots: ProductSlots
        let configCondition: PresentationCondition?
        let survey: PaywallSurvey?
        do {
            (bundle, configSlots, configCondition, survey, inUse) = try Self.resolve(
                target, arguments, cachedAllowed: countsAsView, config: decided?.config
            ) {
                refused.append(($0, $1))
            }
        } catch let error as PaywallBundle.LoadError {
            throw .failure(error.description)
        } catch let error as CLIError {
            throw error
        } catch {
            throw .failure(CommandAdvice.describe(error))
        }
        let manifest: BundleManifest
        do {
            manifest = try BundleManifest(bundle: bundle)
            try manifest.checkRuntimeVersion()
        } catch {
            throw .failure(error.description)
        }
        var options = PaywallPresenter.Options(
            size: try Commands.size(arguments, command), slots: configSlots, offscreen: offscreen, titleKey: titleKey,
            countsAsView: countsAsView)
        options.survey = survey
        options.eventTags = decided?.eventTags ?? [:]
        if let text = arguments.value("--products") {
            do { options.slots = configSlots.merging(try ProductSlots(parsing: text)) } catch {
                throw .usage("--products: \(error)", command)
            }
        }
        // The command line's condition wins over the config entry's.
        options.condition = try Commands.condition(arguments, command) ?? configCondition ?? .checkUserSubscription
        if let text = arguments.value("--load-timeout") {
            guard let seconds = Double(text), seconds > 0, seconds < 86_400 else {
                throw .usage("--load-timeout must be seconds (more than 0, under a day); got '\(text)'", command)
            }
            options.loadTimeout = seconds
        }
        self.options = options
        style = try Commands.presentationStyle(arguments, command)
        let stores: StoreContext
        (presenter, stores) = try Self.makePresenter(arguments, command: command)
        analytics = stores.runtime.analytics
        for (version, problems) in refused {
            Diagnostics.fail(
                "warning: refused \(version.id) \(version.version): \(problems.map(\.description).joined(separator: "; "))")
            presenter.events.emit(
                .bundleRefused,
                [
                    "id": .string(version.id), "version": .string(version.version),
                    "problems": .array(problems.map { .string($0.description) }),
                ])
        }
        // Designers edit after packing: preview and snapshot say so now, not `validate` or `cache add` later.
        if !countsAsView {
            let changed = BundleInspector.changedSincePacking(bundle.root)
            if !changed.isEmpty {
                let names = changed.prefix(5).joined(separator: ", ") + (changed.count > 5 ? ", ..." : "")
                Diagnostics.fail(
                    "warning: \(names) changed since the bundle was packed; run `paywall bundle pack "
                        + "\(arguments.positionals[0])` again (validate and cache add check the packed hashes)")
            }
        }
        // Designers see real prices: without --store, preview and snapshot use the bundle's preview catalog.
        if stores.purchases == nil, !countsAsView, let preview = manifest.previewStore {
            do { presenter.catalog = try CatalogLoader.load(path: preview) } catch { throw .failure(error.description) }
        }
        missingProducts = Diagnostics.checkProducts(manifest.slots.merging(options.slots), in: presenter.context.products)
    }

    /// The page's slots (the manifest's, under the config entry's, under `--products`) whose
    /// product the catalog lacks; `--strict` ends the run on the first.
    let missingProducts: [MissingProduct]

    var events: EventDispatcher { presenter.events }

    /// What every window-showing command sets up: checks `--theme`, finds the runtime's
    /// resources, opens the `--events` log, starts GTK, and makes a presenter with the
    /// `--locale`, the fake store of `--store` and the runtime state of `--data-dir`.
    static func makePresenter(_ arguments: ParsedArguments, command: CommandSpec) throws(CLIError)
        -> (PaywallPresenter, StoreContext)
    {
        let theme = arguments.value("--theme")
        if let theme, !["light", "dark"].contains(theme) {
            throw .usage("--theme must be light or dark; got '\(theme)'", command)
        }
        let resources: RuntimeResources
        do {
            resources = try RuntimeResources.locate(executable: URL(fileURLWithPath: "/proc/self/exe"))
        } catch {
            throw .failure(CommandAdvice.describe(error))
        }
        let log: EventLog?
        do { log = try arguments.value("--events").map { path throws(EventLog.OpenError) in try EventLog(path: path) } } catch {
            throw .failure(error.description)
        }
        do { try Toolkit.initialize(automation: arguments.has("--automation")) } catch { throw .failure(error.description) }
        if let theme { Toolkit.setInterfaceStyle(theme) }
        let presenter: PaywallPresenter
        do {
            presenter = try PaywallPresenter(resources: resources, locale: try Commands.locale(arguments, command: command))
        } catch let error as CLIError {
            throw error
        } catch {
            throw .failure("\(error)")
        }
        Diagnostics.warnOfFallback(presenter.strings)
        if let log { presenter.events.observe { log.append($0) } }
        // Before any view is made: a view is driven only if it was made for automation.
        if arguments.has("--automation") { presenter.allowAutomation() }
        let stores = try StoreContext(
            arguments, events: presenter.events, requireStore: false, command: command,
            licenseServices: ExternalOpener.licenseServices)
        presenter.attach(stores.runtime)
        presenter.dialogs = try Commands.dialogs(arguments, command)
        return (presenter, stores)
    }

    /// The bundle `target` names: a path (anything with a `/`, and always for preview and
    /// snapshot) is a folder; a bare name is a cached or configured paywall when the cache or
    /// config knows it, else a folder. Only bare names open the cache. Returns the config's slots
    /// condition and survey, and for a cached bundle the lock that marks it on screen.
    private static func resolve(
        _ target: String, _ arguments: ParsedArguments, cachedAllowed: Bool, config given: PaywallConfig? = nil,
        onRefused: (InstalledBundle, [BundleProblem]) -> Void
    ) throws
        -> (PaywallBundle, ProductSlots, PresentationCondition?, PaywallSurvey?, FileLock?)
    {
        guard cachedAllowed, !target.contains("/") else {
            return (try PaywallBundle(path: target), ProductSlots(), nil, nil, nil)
        }
        let data = try DataDirectory(explicit: arguments.value("--data-dir"))
        let cache = try BundleCache(directory: data.bundleCache)
        let config =
            given
            ?? FileManager.default.contents(atPath: data.configCache).flatMap { try? PaywallConfig(data: $0, origin: "config") }
        let (found, refused) = try Subcommands.runAsync {
            () async throws -> (CachedPaywall?, [(InstalledBundle, [BundleProblem])]) in
            var refused: [(InstalledBundle, [BundleProblem])] = []
            let found = try await CachedPaywall.find(id: target, config: config, in: cache) { refused.append(($0, $1)) }
            return (found, refused)
        }
        refused.forEach(onRefused)
        guard let paywall = found else {
            guard FileManager.default.fileExists(atPath: target) else {
                throw CLIError.failure(
                    "no bundle folder or cached paywall named \(target); pass a folder, or add it with `paywall cache add`")
            }
            return (try PaywallBundle(path: target), ProductSlots(), nil, nil, nil)
        }
        return (paywall.bundle, paywall.slots, config?.entry(id: target)?.condition, paywall.survey, paywall.inUse)
    }

    /// Presents the bundle and runs the main loop until `finish`; returns the exit code.
    func run(
        onPresented: (PaywallPresentation) -> Void = { _ in },
        completion: @escaping @MainActor (PresentationResult) -> Void
    ) -> Int32 {
        let presentation = show(completion: completion)
        Self.endOnSignals { [weak self] signal in
            self?.interruption = signal
            presentation.dismiss()
        }
        // WebDriver's session gets the paywall on screen; its quit() closes it as the user would.
        presenter.automation?.page = { [weak presentation] in presentation?.webView }
        presenter.automation?.onClose = { [weak presentation] in presentation?.session.windowClosedByUser() }
        onPresented(presentation)
        Toolkit.run()
        return exitCode
    }

    /// A stand-in for the app's window holding the paywall's widget (`--presentation embedded|pushed`).
    private var standIn: StandInAppWindow?

    /// Presents the bundle as `--presentation` asks: its own window, or a widget embedded in
    /// (or pushed onto) a stand-in app window whose close (or back button) declines.
    private func show(completion: @escaping @MainActor (PresentationResult) -> Void) -> PaywallPresentation {
        guard style != .sheet else { return presenter.present(bundle, options: options, completion: completion) }
        let presentation = presenter.paywallWidget(bundle, as: style, options: options, completion: completion)
        let title = presenter.strings.text(options.titleKey, ["bundle": bundle.identifier])
        let app = StandInAppWindow(
            title: title, size: options.size, offscreen: options.offscreen, showsBack: style == .pushed,
            onClose: { [weak presentation] in presentation?.session.windowClosedByUser() })
        app.show(presentation.view.widget)
        standIn = app
        return presentation
    }

    /// The signal that ended the run, if one did.
    private var interruption: Int32?

    /// Ends the run: `exitCode`, or 128 + the signal's number when a signal ended it.
    func finish(exitCode: Int32) {
        self.exitCode = interruption.map { 128 + $0 } ?? exitCode
        Self.quit(sendingFirst: analytics)
    }

    /// Quits the loop once the analytics queue had its last send (2 s at most), at once when
    /// nothing sends: every window command ends this way.
    static func quit(sendingFirst analytics: AnalyticsPipeline?) {
        guard let analytics, analytics.sender != nil else { return Toolkit.quit() }
        Task { @MainActor in
            await analytics.shutdown()
            Toolkit.quit()
        }
    }

    /// SIGTERM, SIGINT and SIGHUP end what is on screen as the app's own dismissal would
    /// (`close`), so its `paywall_close` is logged and its result printed. That close waits for
    /// a purchase the store is still answering; a second signal does not wait: it exits at once
    /// with 128 + its number and no result line, as nothing is known of that purchase yet.
    static func endOnSignals(_ close: @escaping @MainActor (Int32) -> Void) {
        var received = false
        for signal in [SIGTERM, SIGINT, SIGHUP] {
            MainLoop.onSignal(signal) {
                guard !received else {
                    Diagnostics.fail(
                        "a second signal: exiting at once; the outcome of anything still running is unknown (see `paywall status`)"
                    )
                    exit(128 + signal)
                }
                received = true
                close(signal)
            }
        }
    }
}
