import CGtk
import Foundation
import PaywallCore

/// The app's one entry point: configure once, then register placements, present paywalls and
/// the customer center, and follow the user's customer info.
///
/// ```swift
/// let paywalls = try Paywalls.configure(.init(store: .controller(catalog: "products.json"), config: .url(configURL)),
///                                       purchaseController: myController)
/// paywalls.register(placement: "export_pdf", params: ["source": "toolbar"], parent: appWindow) { exportPDF() }
/// ```
///
/// Everything without a window (purchases, customer info, the user, the config) is its
/// `runtime`, in the core; presenting is its `presenter`.
@MainActor
public final class Paywalls {
    /// Purchases, customer info, the user, the config and its placements, the bundle cache.
    public let runtime: PaywallRuntime
    /// Presents paywalls and the customer center; its options (status timeout, dialogs,
    /// customer-center configuration, preloading) are the app's to set.
    public let presenter: PaywallPresenter
    /// Every event of the runtime and its presentations.
    public var events: EventDispatcher { runtime.events }

    /// Starts GTK (when the app has not), configures the runtime and makes the presenter.
    /// - Parameters:
    ///   - purchaseController: the app's controller, for `.controller(catalog:)`.
    ///   - resources: the runtime's `web/`, `locales/` and `templates/` (default: found from
    ///     the executable, `PAYWALL_RESOURCES` or the install prefix).
    public static func configure(
        _ configuration: PaywallRuntime.Configuration, purchaseController: PurchaseController? = nil,
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

    /// Redeems a redeem link with this app's license store.
    public func handleDeepLink(_ url: URL) async -> PaywallRuntime.DeepLinkOutcome {
        await runtime.handleDeepLink(url)
    }

    // MARK: The user

    /// The current user's customer info, right from the cache at start (offline too).
    public var customerInfo: CustomerInfo { runtime.customerInfo }
    public var subscriptionStatus: SubscriptionStatus { runtime.subscriptionStatus }
    /// Every change of the customer info from now on.
    public var customerInfoUpdates: AsyncStream<CustomerInfo> { runtime.customerInfoUpdates }

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

    // MARK: Placements

    /// What the app hears about one registration.
    public struct PlacementHandler {
        /// The paywall is on screen.
        public var presented: (@MainActor (PaywallPresentation) -> Void)?
        /// The paywall closed, with its result.
        public var dismissed: (@MainActor (PresentationResult) -> Void)?
        /// No paywall was shown: the reason (`subscribed`, `entitled`).
        public var skipped: (@MainActor (String) -> Void)?
        /// The placement could not be shown at all (unknown placement, no config).
        public var error: (@MainActor (PlacementError) -> Void)?
        /// Last, once the registration is over (after the others and the feature): whether the
        /// feature ran.
        public var completed: (@MainActor (_ featureRan: Bool) -> Void)?

        public init(
            presented: (@MainActor (PaywallPresentation) -> Void)? = nil,
            dismissed: (@MainActor (PresentationResult) -> Void)? = nil,
            skipped: (@MainActor (String) -> Void)? = nil, error: (@MainActor (PlacementError) -> Void)? = nil,
            completed: (@MainActor (_ featureRan: Bool) -> Void)? = nil
        ) {
            self.presented = presented
            self.dismissed = dismissed
            self.skipped = skipped
            self.error = error
            self.completed = completed
        }
    }

    /// A placement that could not be shown.
    public struct PlacementError: Error, CustomStringConvertible {
        /// Why, in Superwall's words (`paywallPresentationRequest`'s `reason`).
        public enum Kind: String, Sendable {
            /// No such placement in the config, or no config.
            case placementNotFound
            /// Another placement's paywall is on screen: one at a time.
            case paywallAlreadyPresented
            /// The paywall is not cached and the runtime's fallback paywall is missing.
            case noPaywallView
        }

        public let placement: String
        public let kind: Kind
        /// In words.
        public let reason: String
        public var description: String { "placement \(placement): \(reason)" }
    }

    /// Registers `placement`: shows its paywall (modal over `parent`, or over `foreignParent`,
    /// another process's window, when given) under the
    /// placement's condition, then runs `feature` as the placement says: a gated placement
    /// runs it only once the user has access (bought, restored, or skipped for having it), a
    /// non-gated one after the paywall closes whatever happened (Superwall's rules). An
    /// unknown placement runs nothing, reports `paywallPresentationRequest` with `status:
    /// noPresentation`, `reason: placementNotFound`, and goes to `handler.error`. A paywall
    /// that is not in the bundle cache yet shows the runtime's fallback paywall.
    public func register(
        placement: String, params: [String: JSONValue] = [:], parent: UnsafeMutablePointer<GtkWidget>? = nil,
        foreignParent: ForeignWindow? = nil, handler: PlacementHandler = PlacementHandler(),
        feature: (@MainActor () -> Void)? = nil
    ) {
        Task { @MainActor in
            // One placement's paywall at a time, as Superwall: a second tap on "Go Pro" while its
            // paywall loads or shows opens no second window.
            guard placementsShowing == 0, presenter.presentedPaywalls.isEmpty else {
                return refuse(
                    placement, .paywallAlreadyPresented, "a paywall is already on screen; a placement shows one at a time",
                    handler)
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
            switch await runtime.decide(placement: placement) {
            case .notFound(let reason):
                presenter.resolving -= 1
                refuse(placement, .placementNotFound, reason, handler)
            case .show(let entry, let gated, let condition):
                await show(
                    entry, placement: placement, params: params, gated: gated, condition: condition, parent: parent,
                    foreignParent: foreignParent, handler: handler, feature: feature, asked: asked)
            }
        }
    }

    private func show(
        _ entry: PaywallConfig.Entry, placement: String, params: [String: JSONValue], gated: Bool,
        condition: PresentationCondition, parent: UnsafeMutablePointer<GtkWidget>?, foreignParent: ForeignWindow?,
        handler: PlacementHandler, feature: (@MainActor () -> Void)?, asked: Int
    ) async {
        let cached = await cachedOrFallback(entry)
        presenter.resolving -= 1
        guard let (bundle, found, inUse) = cached else {
            return refuse(
                placement, .noPaywallView, "paywall \(entry.id) is not cached and the fallback paywall is missing", handler)
        }
        var options = found
        options.params = params
        options.condition = condition
        // A paywall dismissed before it appeared was never presented, so it is not dismissed either.
        let shown = ShownFlag()
        let presentation = presenter.present(bundle, options: options, parent: parent, foreignParent: foreignParent) {
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
    /// `status: noPresentation` and `kind` as its reason, then to the handler; the feature does not run.
    private func refuse(_ placement: String, _ kind: PlacementError.Kind, _ reason: String, _ handler: PlacementHandler) {
        events.emit(
            .paywallPresentationRequest,
            [
                "placement": .string(placement), "status": "noPresentation", "reason": .string(kind.rawValue),
            ])
        handler.error?(PlacementError(placement: placement, kind: kind, reason: reason))
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

    // MARK: The customer center

    /// Shows the customer center in its own window, modal over `parent` (or `foreignParent`,
    /// another process's window) when given; nil while one is on screen.
    @discardableResult
    public func presentCustomerCenter(
        parent: UnsafeMutablePointer<GtkWidget>? = nil, foreignParent: ForeignWindow? = nil,
        delegate: CustomerCenterDelegate? = nil,
        onDismiss: (() -> Void)? = nil
    ) -> CustomerCenterPresentation? {
        presenter.presentCustomerCenter(parent: parent, foreignParent: foreignParent, delegate: delegate, onDismiss: onDismiss)
    }
}
