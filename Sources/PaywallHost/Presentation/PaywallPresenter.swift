import CGtk
import Foundation
import PaywallCore

/// The library's entry point for apps: create one per process after `Toolkit.initialize()`,
/// give it a `Purchases` to sell through, observe `events`, and present paywall bundles.
///
/// ```swift
/// try Toolkit.initialize()
/// let presenter = try PaywallPresenter(resources: .locate(executable: URL(fileURLWithPath: "/proc/self/exe")))
/// presenter.purchases = try Purchases(controller: myController, catalog: catalog, cache: cache,
///                                     transactionSource: nil, events: presenter.events)
/// presenter.events.observe { print($0.name) }
/// presenter.present(try PaywallBundle(path: "paywalls/onboarding")) { result in print(result) }
/// ```
@MainActor
package final class PaywallPresenter {
    /// Every event of every presentation (and of `purchases`, when it shares this dispatcher).
    package let events: EventDispatcher
    /// The runtime's own UI strings, in the user's locale.
    package internal(set) var strings: StringTable
    /// What every page's template variables are built from (purchases, products, user, state).
    package let context: TemplateContext
    /// Where purchases and restores go; without it, a page's `purchase` is reported unsupported.
    /// A license-key store without a prompt of the app's gets the presenter's (the page turns
    /// into the license-key panel).
    package var purchases: Purchases? {
        get { context.purchases }
        set {
            context.purchases = newValue
            promptForLicenseKeys(newValue)
        }
    }
    /// How long presenting waits for an unknown subscription status (seconds).
    package var statusTimeout = PresentationGate.defaultStatusTimeout
    /// Products to show when there is no `purchases` (previews); `purchases.catalog` wins.
    package var catalog: Catalog? {
        get { context.catalog }
        set { context.catalog = newValue }
    }
    /// The app's handlers for deep links, custom messages, callbacks and review requests.
    package weak var delegate: PaywallDelegate?
    /// Install date, view counters and user attributes; nil keeps nothing between runs.
    package var state: RuntimeState? {
        get { context.state }
        set { context.state = newValue }
    }
    /// The app's version, for the page's `device.appVersion`.
    package var appVersion: String {
        get { context.appVersion }
        set { context.appVersion = newValue }
    }
    /// The user's locale for prices, dates and the runtime's strings (`de_DE`).
    package var locale: Locale { context.locale }

    let runtime: WebRuntime
    let resources: RuntimeResources
    private var mountCount = 0
    /// Presentations on screen, kept alive until they finish (an app need not hold them).
    var active: [ObjectIdentifier: PaywallPresentation] = [:]
    /// The user when there is no `purchases` (which has its own).
    package var userId: String {
        get { context.userId }
        set { context.userId = newValue }
    }
    /// Whether the runtime's own dialogs wait for the user or are answered at once (scripted runs).
    package var dialogs = DialogPolicy.show

    /// The customer center's configuration when a presentation passes none.
    package var customerCenter = CustomerCenterConfiguration.default
    /// Looks up the app's latest version for the customer center's update banner.
    package var updateCheck: UpdateCheck?
    /// The customer center on screen (only one at a time), and one loaded ahead of time.
    var customerCenterOnScreen: CustomerCenterPresentation?
    /// Whether a customer center is on screen (`dismissCustomerCenter()` closes it).
    package var customerCenterIsOnScreen: Bool { customerCenterOnScreen != nil }
    package internal(set) var preloadedCustomerCenter: CustomerCenterPresentation?
    /// The customer center follows the desktop's dark-theme preference while it is shown.
    var watchesTheme = false

    /// - Parameters:
    ///   - resources: the runtime's `web/`, `locales/` and `templates/`.
    ///   - events: where the presentations' events go.
    ///   - locale: the user's locale (default: from `LC_ALL`/`LC_MESSAGES`/`LANG`).
    package init(
        resources: RuntimeResources, events: EventDispatcher = EventDispatcher(),
        locale: String = SystemLocale.identifier(environment: ProcessInfo.processInfo.environment)
    ) throws {
        self.events = events
        let formatting: Locale
        (strings, formatting) = try Self.localization(resources: resources, locale: locale)
        context = TemplateContext(locale: formatting, interfaceStyle: { Toolkit.interfaceStyle })
        self.resources = resources
        runtime = try WebRuntime(resources: resources, languages: [formatting.identifier])
    }

    /// Presents for `runtime`: its purchases, runtime state, user and app version (its events
    /// are this presenter's when it was made with `runtime.events`).
    package func attach(_ runtime: PaywallRuntime) {
        attached = runtime
        context.attach(runtime)
        promptForLicenseKeys(runtime.purchases)
    }

    /// Kept while this presenter presents for it: the runtime adds the user, locale and price to
    /// each event (it holds itself weakly there), and a command may keep only the presenter.
    private var attached: PaywallRuntime?

    /// Asks for license keys over this presenter's pages (made once, held by the store).
    private(set) lazy var licenseKeyPrompter = LicenseKeyPrompter(presenter: self)

    private func promptForLicenseKeys(_ purchases: Purchases?) {
        guard let store = purchases?.controller as? LicenseKeyStore, store.prompt == nil else { return }
        store.prompt = licenseKeyPrompter
        licenseKeyPrompter.store = store
    }

    /// WebDriver's access to this process's pages, once `allowAutomation()` turned it on.
    package private(set) var automation: WebDriverAutomation?

    /// Lets WebKit's WebDriver drive the page presented next (`--automation`); call it before
    /// presenting anything.
    @discardableResult
    package func allowAutomation() -> WebDriverAutomation {
        let automation = automation ?? WebDriverAutomation(runtime: runtime)
        self.automation = automation
        return automation
    }

    /// The runtime's strings for `locale`, and the locale prices and dates are formatted in.
    static func localization(resources: RuntimeResources, locale: String) throws -> (StringTable, Locale) {
        let strings = try StringTable(directory: resources.locales, locale: locale)
        return (strings, Locale(identifier: strings.resolution.formattingIdentifier))
    }

    /// Sets attributes of the current user (kept in `state`), for the page's `user` variables.
    package func setUserAttributes(_ attributes: [String: JSONValue]) throws {
        try state?.setUserAttributes(attributes, user: currentUser)
    }

    private var currentUser: String { context.currentUser }

    /// How to show one paywall.
    package struct Options: Sendable {
        package var size: ViewSize
        /// The products in the page's slots, laid over the bundle manifest's (a slot given here wins).
        package var slots: ProductSlots
        /// Render without a visible window (snapshots).
        package var offscreen: Bool
        /// String-table key of the window title; `{bundle}` is the bundle folder's name.
        package var titleKey: String
        /// The page's `params` template variables.
        package var params: [String: JSONValue]
        /// Counts towards `totalPaywallViews` (previews and snapshots do not).
        package var countsAsView: Bool
        /// Seconds a page may take to become ready before the user is offered Retry and Close.
        package var loadTimeout = 5.0
        /// Who is shown it (default: users without an active subscription).
        package var condition = PresentationCondition.checkUserSubscription
        /// Asked when the paywall closes (a config entry's `survey`); it needs `state` to
        /// remember who was asked, and without one is not asked.
        package var survey: PaywallSurvey?
        /// Parameters every event of this presentation carries beside `paywall_identifier`
        /// (a campaign's `experiment_id`, `variant_id`, `audience_id`).
        package var eventTags: [String: JSONValue] = [:]

        package init(
            size: ViewSize = .standard, slots: ProductSlots = ProductSlots(), offscreen: Bool = false,
            titleKey: String = "window.title.present", params: [String: JSONValue] = [:], countsAsView: Bool = true
        ) {
            self.size = size
            self.slots = slots
            self.offscreen = offscreen
            self.titleKey = titleKey
            self.params = params
            self.countsAsView = countsAsView
        }
    }

    /// Presents `bundle` in its own window, modal over `parent` when given (another process's
    /// window: `presentation.parentProblem` says when it could not be used), with the slots and allowed origins of its manifest (a manifest that cannot
    /// be read counts as none; `paywall validate` reports it). A user with access is not shown
    /// it (the result is `.skipped`); an unknown status is waited for up to `statusTimeout`.
    /// `completion` gets the result once, when it ends.
    @discardableResult
    package func present(
        _ bundle: PaywallBundle, options: Options = Options(), parent: ParentWindow? = nil,
        completion: @escaping @MainActor (PresentationResult) -> Void
    ) -> PaywallPresentation {
        let (own, foreign) = parent?.placement ?? (nil, nil)
        let (presentation, entry) = prepare(bundle, options: options, style: .sheet, parent: own)
        start(presentation, options: options, foreignParent: foreign, completion: completion) {
            presentation.loadCold(entry)
        }
        return presentation
    }

    /// The paywall as a widget for the app to place: `.embedded` in one of its containers, or
    /// `.pushed` onto its navigation stack (a `GtkStack`). Add `presentation.widget` to your
    /// container; the page loads once the status check lets it show (a user with access gets
    /// `.skipped` and the widget stays empty). Taking the widget out of its container closes
    /// the paywall as its close button would; so does `presentation.dismiss()`, which also
    /// takes it out.
    @discardableResult
    package func paywallWidget(
        _ bundle: PaywallBundle, as style: PresentationStyle, options: Options = Options(),
        completion: @escaping @MainActor (PresentationResult) -> Void
    ) -> PaywallPresentation {
        precondition(style != .sheet, "use present(_:options:parent:completion:) for a sheet")
        let (presentation, entry) = prepare(bundle, options: options, style: style, parent: nil)
        start(presentation, options: options, completion: completion) { presentation.loadCold(entry) }
        return presentation
    }

    /// Takes every paywall on screen or on its way there down from the app's side (each
    /// result `.declined`): those shown, those whose status is still checked, and those still
    /// being resolved (`resolving`), which are dismissed as they start and never appear.
    /// Returns how many there were.
    @discardableResult
    package func dismissPresented() -> Int {
        dismissals += 1
        let started = Array(active.values)
        for presentation in started { presentation.dismiss() }
        return started.count + resolving
    }

    /// Bumped by every `dismissPresented`: a presentation asked for before it and started
    /// after it is dismissed at once (`dismissIfAskedBefore`).
    package private(set) var dismissals = 0
    /// Presentations asked for whose bundle or config is still being found.
    package var resolving = 0

    /// Dismisses `presentation` when a `dismissPresented` came since `asked` (a `dismissals`
    /// value read when it was asked for): it then never appears.
    package func dismissIfAskedBefore(_ asked: Int, _ presentation: PaywallPresentation) {
        if dismissals != asked { presentation.dismiss() }
    }

    /// The paywalls on screen now (not those preloaded or still being prepared).
    var presentedPaywalls: [PaywallPresentation] { active.values.filter(\.onScreen) }

    // MARK: Preloading

    /// How many paywalls stay loaded in hidden windows; the least recently preloaded goes first.
    package var maxPreloaded = 4
    /// How much memory (MB) the preloaded paywalls may hold together. Each is charged what the
    /// process tree's resident memory (WebKit's processes included) grew by from its start to
    /// its completion; the load that starts the web process is not charged for it. Over the
    /// budget, the least recently preloaded go first; the newest always stays.
    package var preloadMemoryBudgetMB = 120.0
    /// Reads the process tree's resident memory in bytes (replaceable for tests).
    var memoryReader: () -> Int = ProcessMemory.treeRSS
    var preloaded: [(id: String, presentation: PaywallPresentation, options: Options)] = []

    // MARK: Web process recycling

    /// How much (MB) WebKit's web process may grow in a long-running process before paywalls
    /// get a fresh one: checked when a paywall or customer center closes or a preload is
    /// dropped, against its size when its first paywall closed; recycled only when nothing is
    /// on screen (preloaded paywalls stay in the old process, which ends when they have gone).
    /// Reported as `webProcess_recycle`. Nil or 0: never recycled. The paywall after a
    /// recycle starts the new process (a cold present then takes about 200 ms more).
    package var webProcessGrowthBudgetMB: Double? = 32
    /// Reads a web process's resident memory in bytes (replaceable for tests).
    var webProcessMemoryReader: (Int32) -> Int = ProcessMemory.residentBytes(of:)
    var webProcessWatch = WebProcessWatch()

    // MARK: Building and showing

    /// A `paywall://` host no page used before: `bundle`, then `bundle2`, ... (`paywall bench`:
    /// a new page on the host of a page just closed was often ready only after about 500 ms).
    func newHost(_ name: String) -> String {
        mountCount += 1
        return mountCount == 1 ? name : "\(name)\(mountCount)"
    }

    var localeFallbackReported = false

    /// Reports `locale_fallback` the first time anything is shown, when the user's language
    /// has no string table (observers are attached by then).
    func reportLocaleFallbackOnce() {
        guard !localeFallbackReported, strings.resolution.fellBack else { return }
        localeFallbackReported = true
        events.emit(
            .localeFallback,
            [
                "requested": .string(strings.resolution.requested), "resolved": .string(strings.resolution.resolved),
            ])
    }

    /// A session and view for `bundle`, placed in a window of its own (a sheet) or ready to be
    /// a widget, its files mounted; nothing shown or loaded yet.
    func prepare(
        _ bundle: PaywallBundle, options: Options, style: PresentationStyle = .sheet,
        parent: UnsafeMutablePointer<GtkWidget>? = nil
    ) -> (PaywallPresentation, URL) {
        reportLocaleFallbackOnce()
        let host = newHost("bundle")
        let manifest = (try? BundleManifest(bundle: bundle)) ?? BundleManifest()
        let session = PaywallSession(paywallId: bundle.identifier, events: events, tags: options.eventTags)
        // A bundle with its own tables is shown in the language they resolve to, runtime texts included.
        let texts = PageStrings(bundleRoot: bundle.root, locales: resources.locales, user: strings)
        session.bundleStrings = texts.bundleStrings
        let brokenStrings = texts.problem
        let pageStrings = texts.runtime
        session.productSlots = manifest.slots.merging(options.slots)
        if let purchases { session.enablePurchases(purchases, strings: pageStrings) }
        session.delegate = delegate
        session.strings = pageStrings
        session.templateContext = context
        session.params = options.params
        session.survey = options.survey
        session.notificationsAvailable = DesktopNotifier.command != nil
        session.dialogs = dialogs
        session.onUserAttributes = { [weak self] attributes in try self?.setUserAttributes(attributes) }
        let webView = PaywallWebView(
            runtime: runtime, connection: session.channel, bundleHost: host,
            strings: session.bundleStrings?.table ?? pageStrings)
        let view = PageView(webView: webView, strings: pageStrings)
        let runtime = self.runtime
        view.fallback = { [weak webView] in
            // Same host, other files: the page keeps its origin, session and navigation policy.
            guard let webView, let fallback = runtime.fallbackBundle else { return }
            webView.load(runtime.mount(fallback, host: host))
        }
        // Closing the window or taking the widget out declines; the session then dismisses the view.
        view.onClose = { [weak session] in session?.windowClosedByUser() }
        session.page = view
        if style == .sheet {
            view.placeInWindow(
                title: pageStrings.text(options.titleKey, ["bundle": bundle.identifier]), parent: parent,
                size: options.size, offscreen: options.offscreen)
        } else {
            view.prepareAsWidget(style)
        }
        var entry = runtime.mount(bundle, host: host, policy: ContentSecurityPolicy(allowedOrigins: manifest.allowedOrigins))
        let missing = session.reportMissingProducts(in: context.products)
        let fallbackReason = brokenStrings ?? (missing.isEmpty ? nil : missing.map(\.description).joined(separator: "; "))
        if let fallbackReason, let fallback = runtime.fallbackBundle {
            // Never a page of raw {{ t.KEY }} or {{ primary.price }}: the fallback paywall sells the products that exist.
            session.useFallback(reason: fallbackReason)
            entry = runtime.mount(fallback, host: host)
        }
        let presentation = PaywallPresentation(session: session, view: view)
        session.onProcessTerminated = { [weak presentation] in presentation?.webProcessDied() }
        return (presentation, entry)
    }

    /// Runs the status gate, then calls `onShow`, shows the page and calls `shown`; cleans up
    /// after the end.
    func start(
        _ presentation: PaywallPresentation, options: Options, foreignParent: ForeignWindow? = nil,
        completion: @escaping @MainActor (PresentationResult) -> Void, onShow: @escaping @MainActor () -> Void,
        shown: @escaping @MainActor () -> Void = {}
    ) {
        let key = ObjectIdentifier(presentation)
        let host = presentation.webView.bundleHost
        active[key] = presentation
        let session = presentation.session
        session.onFinish = { [weak self, weak presentation] result in
            completion(result)
            // Off screen for good: free the window (or the widget), its view and the bundle's mount.
            presentation?.view.destroy()
            self?.runtime.unmount(host: host)
            self?.active[key] = nil
            self?.recycleWebProcessIfGrown()
        }
        let purchases = self.purchases
        let timeout = statusTimeout
        session.awaitingShow = true
        Task { @MainActor in
            if let purchases,
                let result = await PresentationGate.check(
                    purchases, paywallId: session.paywallId, condition: options.condition,
                    timeout: timeout)
            {
                session.finish(result)
                return
            }
            // Taken down while the status was checked: nothing to show.
            guard session.result == nil else { return }
            if options.countsAsView { _ = try? state?.countPaywallView(session.paywallId) }
            presentation.onScreen = true
            onShow()
            if let foreignParent { presentation.parentProblem = presentation.view.parent(on: foreignParent) }
            presentation.view.show()
            session.presented()
            shown()
            presentation.onShown?()
            let watch = { [weak session] in
                _ = MainLoop.after(seconds: options.loadTimeout) { session?.loadTimedOut(after: options.loadTimeout) }
            }
            watch()
            presentation.view.onRetry = { watch() }  // each retry gets the full timeout again
        }
    }
}

/// One paywall on screen: its session (rules and events) and its view.
@MainActor
public final class PaywallPresentation {
    package let session: PaywallSession
    package let view: PageView
    package var webView: PaywallWebView { view.webView }
    /// The paywall as a `GtkWidget*`, for `.embedded` and `.pushed`: add it to your container
    /// or `GtkStack`.
    public var widget: UnsafeMutableRawPointer { UnsafeMutableRawPointer(view.widget) }
    /// Shown (not just preloaded).
    var onScreen = false
    /// Called once the paywall is on screen (not when the status check skips it).
    public var onShown: (() -> Void)?
    /// Why the foreign parent it was presented over could not be used (it is then shown
    /// unparented); nil when it was, or none was given.
    public internal(set) var parentProblem: String?
    /// Its web process died while it was hidden: reload before showing.
    var needsReload = false
    /// What it was charged against the preload memory budget, in MB.
    var preloadCostMB = 0.0
    /// The preload's `finished` callback, until it has run (`endPreload`).
    var preloadFinished: (@MainActor (PreloadEnd) -> Void)?
    private var reloads = 0
    /// How often a page whose web process dies on screen is reloaded before giving up.
    static let maxReloads = 3

    init(session: PaywallSession, view: PageView) {
        self.session = session
        self.view = view
    }

    /// Starts loading a page that was not preloaded, its placeholder up from the first frame
    /// (the session shows it when WebKit reports the load started: the window's background,
    /// then white, showed before that).
    func loadCold(_ entry: URL) {
        view.showLoading(.loading)
        webView.load(entry)
    }

    /// Ends its preload: the first end reported is the one the preload's caller hears.
    func endPreload(_ end: PreloadEnd) {
        let finished = preloadFinished
        preloadFinished = nil
        finished?(end)
    }

    /// A dead web process: an on-screen page is reloaded (a few times at most), a hidden one
    /// is reloaded when it is next shown.
    func webProcessDied() {
        guard onScreen else {
            needsReload = true
            return
        }
        guard reloads < Self.maxReloads else {
            session.useFallback(reason: "the web process died \(reloads + 1) times")
            return
        }
        reloads += 1
        webView.reload()
    }

    /// Runs `script` in the page once, as soon as it is ready (at once when it is): a
    /// scripting hook like `paywall present --eval`, for an app's demo and test modes.
    public func evaluateWhenReady(_ script: String) {
        guard !session.readiness.isReady else { return webView.evaluate(script) }
        let earlier = session.onReady
        var ran = false
        session.onReady = { [weak self] in
            earlier?()
            guard !ran else { return }
            ran = true
            self?.webView.evaluate(script)
        }
    }

    /// Takes the paywall down from the app's side; the result is `.declined`. A purchase
    /// running then ends first (see `PurchaseCancelling`).
    public func dismiss() {
        // A purchase waiting for a license key is cancelled: the close waits for the purchase.
        view.endLicenseKeyPrompt()
        session.finish(.declined)
    }
}
