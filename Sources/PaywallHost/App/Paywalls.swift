import Foundation
// An app imports `PaywallHost` alone: the models `Paywalls` takes and returns come with it.
@_exported public import PaywallCore

/// The app's one entry point: configure once, then register placements, present paywalls and
/// the customer center, and follow the user's customer info.
///
/// ```swift
/// let paywalls = try Paywalls.configure(.init(store: .controller(catalog: "products.json"), config: .url(configURL)),
///                                       purchaseController: myController)
/// paywalls.register(placement: "export_pdf", params: ["source": "toolbar"], parent: .gtk(appWindow)) { exportPDF() }
/// ```
///
/// Its other parts: purchases and customer info, the customer center, license keys,
/// presenting by name or bundle path, and the presentation options.
@MainActor
public final class Paywalls {
    /// Purchases, customer info, the user, the config and its placements, the bundle cache.
    /// Internal, not package: the sidecar and the tools go through the facade's methods.
    let runtime: PaywallRuntime
    /// Presents paywalls and the customer center.
    let presenter: PaywallPresenter
    /// Every event of the runtime and its presentations.
    public var events: EventDispatcher { runtime.events }

    /// Starts GTK (when the app has not), configures the runtime and makes the presenter.
    /// - Parameters:
    ///   - configuration: the data directory, the store, the config, the user, the locale.
    ///   - purchaseController: the app's controller, for `.controller(catalog:)`.
    ///   - resources: the runtime's `web/`, `locales/` and `templates/` (default: found from
    ///     the executable, `PAYWALL_RESOURCES` or the install prefix).
    public static func configure(
        _ configuration: PaywallsConfiguration, purchaseController: PurchaseController? = nil,
        resources: RuntimeResources? = nil
    ) throws -> Paywalls {
        try Toolkit.initialize()
        let resources = try resources ?? RuntimeResources.locate(executable: URL(fileURLWithPath: "/proc/self/exe"))
        let runtime = try PaywallRuntime(
            configuration, controller: purchaseController, licenseServices: ExternalOpener.licenseServices)
        let locale = configuration.locale ?? SystemLocale.identifier(environment: ProcessInfo.processInfo.environment)
        let presenter = try PaywallPresenter(resources: resources, events: runtime.events, locale: locale)
        presenter.attach(runtime)
        return Paywalls(runtime: runtime, presenter: presenter)
    }

    /// Registrations between their call and their paywall's close.
    private var placementsShowing = 0

    init(runtime: PaywallRuntime, presenter: PaywallPresenter) {
        self.runtime = runtime
        self.presenter = presenter
    }

    // MARK: Deep links

    /// Handles a redeem link (`SCHEME://paywall/redeem?license_key=KEY`) whether or not
    /// `configure` ran yet: one that comes first is kept and redeemed once it does. False for
    /// links the app handles itself. See `PaywallRuntime.handleDeepLink(_:)`.
    @discardableResult
    public static func handleDeepLink(_ url: URL) -> Bool {
        PaywallRuntime.handleDeepLink(url)
    }

    /// A redeem link kept (before `configure`) or sent on: false when it was dropped, as many
    /// as `maxPendingDeepLinks` waiting already (the sidecar then says so).
    package static func keepOrSendDeepLink(_ url: URL) -> Bool { PaywallRuntime.keepOrSend(url) }

    /// Redeem links kept before `configure`, at most.
    package static var maxPendingDeepLinks: Int { PaywallRuntime.maxPendingDeepLinks }

    /// The redemption of the redeem links kept from before `configure` (the static
    /// `handleDeepLink(_:)` came first); await its value for their outcomes. Nil when none were
    /// kept, or the catalog sells no license keys.
    public var deepLinkRedemptions: Task<[DeepLinkOutcome], Never>? { runtime.deepLinkRedemptions }

    /// Redeems a redeem link with this app's license store.
    public func handleDeepLink(_ url: URL) async -> DeepLinkOutcome {
        await runtime.handleDeepLink(url)
    }

    // MARK: The user

    /// The current user: the one `identify(_:)` signed in, or the anonymous user's id.
    public var userId: String { runtime.userId }

    /// Signs `userId` in: their purchases, status and attributes apply to what is shown next.
    public func identify(_ userId: String) throws {
        try runtime.identify(userId)
        presenter.userId = runtime.userId
    }

    /// Signs out, back to the anonymous user; nothing of the previous user is shown to the next.
    public func reset() throws {
        try runtime.reset()
        presenter.userId = runtime.userId
    }

    /// Sets attributes of the current user (a null value removes one), for the pages' `user` variables.
    public func setUserAttributes(_ attributes: [String: JSONValue]) throws {
        try runtime.setUserAttributes(attributes)
    }

    /// The app's handlers for what pages ask of it: deep links, custom actions, callbacks,
    /// review requests and survey answers.
    public var delegate: PaywallDelegate? {
        get { presenter.delegate }
        set { presenter.delegate = newValue }
    }

    // MARK: Placements

    /// What the app hears about one registration.
    public struct PlacementHandler {
        /// The paywall is on screen.
        public var presented: (@MainActor (PaywallPresentation) -> Void)?
        /// The paywall closed, with its result.
        public var dismissed: (@MainActor (PresentationResult) -> Void)?
        /// No paywall was shown: the user already has access.
        public var skipped: (@MainActor (SkipReason) -> Void)?
        /// The placement could not be shown at all (unknown placement, no config).
        public var error: (@MainActor (PlacementError) -> Void)?
        /// Last, once the registration is over (after the others and the feature): whether the
        /// feature ran.
        public var completed: (@MainActor (_ featureRan: Bool) -> Void)?
        /// First, when a campaign decided the placement: the outcome with its experiment and variant.
        public var decided: (@MainActor (PlacementOutcome) -> Void)?

        public init(
            presented: (@MainActor (PaywallPresentation) -> Void)? = nil,
            dismissed: (@MainActor (PresentationResult) -> Void)? = nil,
            skipped: (@MainActor (SkipReason) -> Void)? = nil, error: (@MainActor (PlacementError) -> Void)? = nil,
            completed: (@MainActor (_ featureRan: Bool) -> Void)? = nil
        ) {
            self.presented = presented
            self.dismissed = dismissed
            self.skipped = skipped
            self.error = error
            self.completed = completed
        }
    }

    /// Registers `placement`: shows its paywall (modal over `parent` when given) under the
    /// placement's condition, then runs `feature` as the placement says: a gated placement
    /// runs it only once the user has access (bought, restored, or skipped for having it), a
    /// non-gated one after the paywall closes whatever happened (Superwall's rules). An
    /// unknown placement runs nothing, reports `paywallPresentationRequest` with `status:
    /// noPresentation`, `reason: placementNotFound`, and goes to `handler.error`
    /// (`PlacementError.placementNotFound`). A paywall
    /// that is not in the bundle cache yet shows the runtime's fallback paywall.
    public func register(
        placement: String, params: [String: JSONValue] = [:], parent: ParentWindow? = nil,
        handler: PlacementHandler = PlacementHandler(),
        feature: (@MainActor () -> Void)? = nil
    ) {
        Task { @MainActor in
            // One placement's paywall at a time, as Superwall: a second tap on "Go Pro" while its
            // paywall loads or shows opens no second window.
            guard placementsShowing == 0, presenter.presentedPaywalls.isEmpty else {
                return refuse(.paywallAlreadyPresented(placement: placement), handler)
            }
            placementsShowing += 1
            // Dismissed while the placement is decided and its bundle found: never shown.
            let asked = presenter.dismissals
            presenter.resolving += 1
            var handler = handler
            let completed = handler.completed
            handler.completed = { [weak self] ran in
                self?.placementsShowing -= 1
                completed?(ran)
            }
            // A placement a campaign lists is decided by audience and experiment.
            if await registerByCampaign(
                placement: placement, params: params, parent: parent, handler: handler, feature: feature, asked: asked)
            {
                return
            }
            // Every registration fires its trigger, as a campaign's does (a user the condition
            // skips fires none), so `placement_not_found` reaches the log too.
            switch await runtime.decide(placement: placement) {
            case .notFound(let reason):
                runtime.reportTriggerFire(placement: placement, outcome: PlacementOutcome(result: .placementNotFound))
                presenter.resolving -= 1
                refuse(.placementNotFound(placement: placement, reason: reason), handler)
            case .show(let entry, let gated, let condition):
                if condition.skipReason(for: runtime.subscriptionStatus) == nil {
                    runtime.reportTriggerFire(
                        placement: placement, outcome: PlacementOutcome(result: .paywall, paywall: entry.id))
                }
                await show(
                    entry, placement: placement, params: params, gated: gated, condition: condition, parent: parent,
                    handler: handler, feature: feature, asked: asked)
            }
        }
    }

    func show(
        _ entry: PaywallConfig.Entry, placement: String, params: [String: JSONValue], gated: Bool,
        condition: PresentationCondition, parent: ParentWindow?, handler: PlacementHandler, feature: (@MainActor () -> Void)?,
        asked: Int, eventTags: [String: JSONValue] = [:]
    ) async {
        let cached = await cachedOrFallback(entry)
        presenter.resolving -= 1
        guard let (bundle, found, inUse) = cached else {
            return refuse(.noPaywallView(placement: placement, paywall: entry.id), handler)
        }
        var options = found
        options.params = params
        options.condition = condition
        options.eventTags = eventTags
        // A paywall dismissed before it appeared was never presented, so it is not dismissed either.
        let shown = ShownFlag()
        let presentation = presenter.present(bundle, options: options, parent: parent) {
            [runtime] result in
            withExtendedLifetime(inUse) {}
            let runs: Bool
            switch result {
            case .skipped(let reason):
                handler.skipped?(reason)
                runs = true  // skipped for having access
            default:
                if shown.value { handler.dismissed?(result) }
                runs = !gated || Self.grantsAccess(result, condition: condition, status: runtime.subscriptionStatus)
            }
            if runs { feature?() }
            handler.completed?(runs)
        }
        presentation.onShown = { [weak presentation] in
            shown.value = true
            if let presentation { handler.presented?(presentation) }
        }
        presenter.dismissIfAskedBefore(asked, presentation)
    }

    /// Whether a placement's paywall appeared.
    private final class ShownFlag {
        var value = false
    }

    /// A registration that shows nothing: reported as `paywallPresentationRequest` with
    /// `status: noPresentation` and the error's `name` as its reason, then to the handler; the
    /// feature does not run.
    func refuse(_ error: PlacementError, _ handler: PlacementHandler) {
        events.emit(
            .paywallPresentationRequest,
            [
                "placement": .string(error.placement), "status": "noPresentation", "reason": .string(error.name),
            ])
        handler.error?(error)
        handler.completed?(false)
    }

    /// Whether the user may use a gated feature after the paywall closed with `result`.
    static func grantsAccess(_ result: PresentationResult, condition: PresentationCondition, status: SubscriptionStatus) -> Bool {
        switch result {
        case .purchased, .restored: return true
        default:
            // Access is what the condition would skip the paywall for; `always` asks for an active subscription.
            let access = condition == .always ? PresentationCondition.checkUserSubscription : condition
            return access.skipReason(for: status) != nil
        }
    }
}
