import Foundation

/// One presentation of the customer center: keeps where the user is (screens, survey,
/// dialog), answers what the page reports, runs each path through the purchase controller,
/// and reports events and delegate calls. The page only draws the model this sends it.
@MainActor
package final class CustomerCenterSession {
    /// The page's channel: its messages, readiness, deliveries and navigations.
    package let channel: PageChannel<CustomerCenterMessage>
    package var events: EventDispatcher { channel.events }
    /// The host's view of the page.
    package var page: PageSurface? {
        get { channel.surface }
        set { channel.surface = newValue }
    }
    /// What it shows; set before `start()` (a preloaded page learns it when presented).
    package var configuration: CustomerCenterConfiguration
    package var presentation: PresentationStyle
    /// Kept alive for the presentation's duration.
    package var delegate: CustomerCenterDelegate?
    /// The user's purchases and the controller that acts on them; nil shows no purchases.
    package var purchases: Purchases?
    let strings: StringTable
    let locale: Locale
    /// Facts for the screen and the support email; a change is drawn at once.
    package var environment: Environment {
        didSet { render() }
    }
    /// Looks the app's latest version up for the update banner; nil skips the lookup.
    package var updateCheck: UpdateCheck?
    /// Called once, when the customer center is dismissed.
    package var onDismiss: (() -> Void)?
    /// Called whenever the page has drawn the latest model (automation waits for this).
    package var onRendered: (() -> Void)?
    /// Called when the page's web process died (the host reloads it).
    package var onProcessTerminated: (() -> Void)? {
        get { channel.onProcessTerminated }
        set { channel.onProcessTerminated = newValue }
    }

    package internal(set) var route: [CustomerCenterRoute] = [.home]
    package internal(set) var dialog: CustomerCenterDialog?
    package internal(set) var isBusy = false
    /// The delegate is deciding whether a restore may run.
    var isAskingToRestore = false
    package private(set) var isDismissed = false
    /// The model revision last sent, and the last one the page drew.
    package private(set) var revision = 0
    package private(set) var renderedRevision = 0
    private var isStarted = false
    /// Preloaded: the screen is drawn before it is shown (and before `start()` reports it open).
    private var drawsAhead = false
    private var latestVersion: String?

    package struct Environment: Sendable {
        package var appVersion: String
        /// The user when there is no `Purchases` (which knows its own).
        package var userId: String
        package var installedAt: Date?
        package var isDark: Bool
        package var device: DeviceInfo

        package init(
            appVersion: String = "", userId: String = Purchases.anonymousUser, installedAt: Date? = nil,
            isDark: Bool = false, device: DeviceInfo
        ) {
            self.appVersion = appVersion
            self.userId = userId
            self.installedAt = installedAt
            self.isDark = isDark
            self.device = device
        }
    }

    package init(
        configuration: CustomerCenterConfiguration, presentation: PresentationStyle, purchases: Purchases?,
        strings: StringTable, locale: Locale, events: EventDispatcher, environment: Environment
    ) {
        self.configuration = configuration
        self.presentation = presentation
        self.purchases = purchases
        self.strings = strings
        self.locale = locale
        self.environment = environment
        // The runtime's own page: its links need no user gesture, only the rate limit.
        var limits = PageActionLimits()
        limits.requiresGesture = false
        channel = PageChannel(
            events: events, tag: ["page": "customer_center"], readyEvent: .customerCenterPageReady,
            limits: limits)
        channel.isClosed = { [unowned self] in isDismissed }
        channel.onMessage = { [unowned self] in handle($0) }
        channel.onLoadFinished = { [unowned self] in render() }
    }

    // MARK: Lifecycle

    /// The customer center is on screen: reports `customerCenter_open`, draws it once the page
    /// is ready and starts the update lookup.
    package func start() {
        guard !isStarted else { return }
        isStarted = true
        if let catalog = purchases?.catalog {
            for problem in configuration.problems(with: catalog) {
                events.emit(.customerCenterConfigWarning, ["reason": .string(problem)])
            }
        }
        let screen = self.screen()
        events.emit(.customerCenterOpen, ["screen": .string(screen.homeName), "presentation": .string(presentation.rawValue)])
        render()
        lookUpLatestVersion()
    }

    /// Draws the screen as soon as the page can take it, without reporting the customer center
    /// open: a preloaded page is then drawn before it is shown. `start()` redraws it with what
    /// the presentation sets (configuration, purchases, environment).
    package func drawAhead() {
        drawsAhead = true
        render()
    }

    /// Takes it down (the close button, the window manager or the app); reports `customerCenter_close` once.
    package func dismiss() {
        guard !isDismissed else { return }
        reportBackedOutRefund()
        isDismissed = true
        events.emit(.customerCenterClose)
        page?.dismiss()
        delegate?.customerCenterDidDismiss()
        let dismissed = onDismiss
        onDismiss = nil  // it may hold the host's view, which holds this session
        if !isBusy { delegate = nil }  // else it still hears how the running action ended
        dismissed?()
    }

    /// The screen as it stands now.
    package func screen() -> CustomerCenterScreen {
        let now = (try? purchases?.transactionSource?.now()) ?? Date()
        let rows =
            purchases.map {
                CustomerCenterPurchase.rows(info: $0.customerInfo, status: $0.subscriptionStatus, catalog: $0.catalog, now: now)
            } ?? []
        return CustomerCenterScreen(
            configuration: configuration, rows: rows,
            capabilities: capabilities,
            catalog: purchases?.catalog, strings: strings, locale: locale, now: now, presentation: presentation,
            isDark: environment.isDark, userId: purchases?.userId ?? environment.userId, installedAt: environment.installedAt,
            appVersion: environment.appVersion, latestVersion: configuration.support.latestAppVersion ?? latestVersion,
            licenses: (try? licenseStore?.licenses()) ?? [], customerPortalURL: licenseStore?.customerPortalURL)
    }

    /// The license-key store the purchases go through, if they do.
    var licenseStore: LicenseKeyStore? { purchases?.controller as? LicenseKeyStore }

    /// What the purchase controller can do (nothing without one).
    var capabilities: StoreCapabilities {
        purchases.map { StoreCapabilities($0.controller) } ?? StoreCapabilities()
    }

    /// Sends the current model to the page (once it can take it).
    func render() {
        guard isStarted || drawsAhead, channel.canDeliver, !isDismissed else { return }
        revision += 1
        let model = screen().model(route: route, dialog: dialog, busy: isBusy)
        channel.deliver([["event_name": "customer_center_screen", "revision": .number(Double(revision)), "model": model]])
    }

    /// The latest version from `support.latestAppVersion`, else the update feed (not for
    /// sandbox stores, whose builds are usually ahead of what is published).
    private func lookUpLatestVersion() {
        let support = configuration.support
        guard support.latestAppVersion == nil, support.shouldWarnToUpdate, support.checksForUpdates,
            let feed = support.updateFeedURL, let check = updateCheck,
            !capabilities.isSandbox
        else { return }
        if let cached = check.cachedVersion(feed: feed) {
            latestVersion = cached
            render()
            return
        }
        Task { @MainActor in
            do {
                latestVersion = try await check.fetch(feed: feed)
                render()
            } catch {
                events.emit(.customerCenterUpdateCheckFail, ["reason": .string("\(error)")])
            }
        }
    }

    // MARK: State changes for the actions

    func push(_ screen: CustomerCenterRoute) {
        route.append(screen)
        render()
    }

    func show(_ dialog: CustomerCenterDialog?) {
        self.dialog = dialog
        render()
    }

    func popScreen() {
        route.removeLast()
        render()
    }

    func pingArrived() {
        channel.pingArrived { render() }
    }

    func markRendered(_ shown: Int) {
        guard shown <= revision else { return reportInvalid("revision \(shown) was never sent; the latest is \(revision)") }
        renderedRevision = max(renderedRevision, shown)
        if renderedRevision == revision { onRendered?() }
    }

    func setBusy(_ busy: Bool) {
        isBusy = busy
        render()
    }

    /// Leaves screens that show a purchase that no longer exists (it was refunded away).
    func popToExistingScreen() {
        let screen = self.screen()
        while case .detail(let key)? = route.last, screen.row(key: key) == nil { route.removeLast() }
    }

    // MARK: Messages from the page

    func reportInvalid(_ reason: String) {
        channel.emit(.pageMessageInvalid, ["reason": .string(reason)])
    }
}
