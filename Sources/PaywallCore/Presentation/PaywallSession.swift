import Foundation

/// One presentation of a paywall page: decodes what the page posts, acts on each message,
/// reports events, and ends with a `PresentationResult`. Holds the rules; the host only
/// forwards raw page messages and load signals here.
@MainActor
package final class PaywallSession {
    package let paywallId: String
    /// The page's channel: its messages, readiness, deliveries and navigations.
    package let channel: PageChannel<PageMessage>
    package var events: EventDispatcher { channel.events }
    /// The host's view of the page.
    package var page: PageSurface? {
        get { channel.surface }
        set { channel.surface = newValue }
    }

    /// The products the page's slots show; sent to the page after its ping.
    package var productSlots = ProductSlots()
    /// What the page's template variables are built from; without it only `products` is sent.
    package var templateContext: TemplateContext?
    /// The bundle's own string tables: the page's `t` variable.
    package var bundleStrings: BundleStrings?
    /// The page's `params` template variables.
    package var params: [String: JSONValue] = [:]
    /// The app's handlers for deep links, custom messages, callbacks, ...
    package weak var delegate: PaywallDelegate?
    /// Receives attributes the page sets with `user_attribute_updated`, to keep them; an error
    /// (over the size limits) is reported as `pageAction_refused`.
    package var onUserAttributes: (@MainActor ([String: JSONValue]) throws -> Void)?
    /// What the page may still make the machine do (notifications, the system opener).
    package var limits: PageActionLimits {
        get { channel.limits }
        set { channel.limits = newValue }
    }
    /// The runtime's texts in the page's language (periods, trials, dialogs, the fallback paywall).
    package var strings: StringTable?
    /// Whether the host can show desktop notifications (answers notification permission requests).
    package var notificationsAvailable = false
    /// Whether the runtime's own dialogs wait for the user or are answered at once.
    package var dialogs = DialogPolicy.show
    /// The survey asked when the paywall closes (`PaywallSession+Survey.swift`).
    package var survey: PaywallSurvey?
    /// The survey's draw, a number in 0..<1 (random; fixed in tests).
    package var surveyDraw: () -> Double = SurveyRules.randomDraw
    /// While the survey is up: the result the presentation ends with once it is answered.
    var surveyPending: PresentationResult?

    /// Called once when the page becomes ready (after each load).
    package var onReady: (() -> Void)?
    /// Called once when the presentation ends.
    package var onFinish: ((PresentationResult) -> Void)?
    /// Called when the page's web process died (the host reloads it).
    package var onProcessTerminated: (() -> Void)? {
        get { channel.onProcessTerminated }
        set { channel.onProcessTerminated = newValue }
    }

    package var readiness: PageReadiness { channel.readiness }
    package private(set) var result: PresentationResult?
    /// Runs purchases and restores; nil when no purchase controller is configured.
    private var purchaseFlow: PurchaseFlow?
    /// A purchase or restore of this paywall is running (a prompt it needs is drawn over it).
    package var isPurchasing: Bool { purchaseFlow?.inFlight == true }
    /// A purchase (or restore) that succeeded without closing the paywall: what a later
    /// close reports, since the user did not decline.
    private var keptOpenSuccess: PresentationResult?

    /// `tags`: parameters every event of the presentation carries beside `paywall_identifier`.
    package init(
        paywallId: String, events: EventDispatcher, tags: [String: JSONValue] = [:],
        decoder: PageEnvelopeDecoder = PageEnvelopeDecoder()
    ) {
        self.paywallId = paywallId
        channel = PageChannel(
            events: events, tag: tags.merging(["paywall_identifier": .string(paywallId)]) { _, own in own },
            readyEvent: .pageReady,
            decoder: decoder)
        channel.isClosed = { [unowned self] in result != nil || surveyPending != nil }
        channel.onMessage = { [unowned self] in handle($0) }
        channel.onLoadStarted = { [unowned self] in page?.showLoading(.loading) }
        channel.onLoadFailed = { [unowned self] in useFallback(reason: $0) }
        channel.onReady = { [unowned self] in
            page?.showLoading(.hidden)
            onReady?()
        }
    }

    /// Lets the page's `purchase` and `restore` messages buy through `purchases`.
    package func enablePurchases(_ purchases: Purchases, strings: StringTable) {
        purchaseFlow = PurchaseFlow(session: self, purchases: purchases, strings: strings)
    }

    // MARK: Page lifecycle

    /// The runtime's fallback paywall replaced the page.
    package private(set) var showsFallback = false

    /// The page is not ready after the load timeout: the host offers Retry and Close.
    package func loadTimedOut(after seconds: Double) {
        guard !readiness.isReady, result == nil else { return }
        channel.emit(.webviewLoadTimeout, ["seconds": .number(seconds)])
        page?.showLoading(.slow)
    }

    /// Shows the fallback paywall once (a broken fallback is not retried).
    package func useFallback(reason: String) {
        guard !showsFallback, result == nil else { return }
        showsFallback = true
        channel.emit(.paywallFallback, ["reason": .string(reason)])
        page?.showFallback()
    }

    /// Reports every slot whose product `catalog` does not sell (`paywallProductsLoad_fail`);
    /// the caller shows the fallback paywall when any is missing. Nil `catalog`: nothing to check.
    @discardableResult
    package func reportMissingProducts(in catalog: Catalog?) -> [MissingProduct] {
        let missing = productSlots.missingProducts(in: catalog)
        missingProducts = missing
        for product in missing { channel.emit(.paywallProductsLoadFail, product.eventParams) }
        return missing
    }

    /// The slots whose products the catalog lacked when the paywall was prepared (the app's
    /// `register`/`present` result says so as its `problem`).
    package private(set) var missingProducts: [MissingProduct] = []

    /// Set while the presenter decides whether to show the paywall at all: an end then (a
    /// subscriber's `.skipped`, a dismiss meanwhile) reports no `paywall_close`, since no
    /// `paywall_open` came before it.
    package var awaitingShow = false

    /// The paywall is on screen.
    package func presented() {
        awaitingShow = false
        report(EventName.paywallOpen)
    }

    /// The user closed the window with the window manager: the same as the page's close.
    package func windowClosedByUser() {
        decline(source: "window")
    }

    /// Ends the presentation with `result` (e.g. a timeout) unless it has ended already. A
    /// close (`.declined`) after a purchase that kept the paywall open reports that purchase.
    package func finish(_ result: PresentationResult) {
        guard self.result == nil else { return }
        // Taken down while the survey is up: it ends unanswered, and the user's close stands.
        if surveyPending != nil { return surveyAnswered(.dismissed, auto: false) }
        if result == .declined, purchaseFlow?.inFlight == true {
            closeWhenPurchaseEnds = closeWhenPurchaseEnds ?? .dismissed
            purchaseFlow?.closeRequested()
            return
        }
        let result = result == .declined ? keptOpenSuccess ?? result : result
        self.result = result
        if !awaitingShow { report(EventName.paywallClose, ["result": .string(result.name)]) }
        page?.dismiss()
        onFinish?(result)
    }

    // MARK: Messages from the page

    func handle(_ message: PageMessage) {
        switch message {
        case .ping(let version):
            channel.emit(.ping, ["version": version.map(JSONValue.string) ?? .null])
            // The protocol's order after a ping: products, variables, prefix; then anything held back.
            channel.pingArrived {
                sendTemplateVariables()
                if showsFallback, let strings { deliver(FallbackTexts.event(strings)) }
            }
        case .close:
            decline(source: "page")
        case .openURLExternal(let url):
            channel.openExternally(url, source: message.eventName)
        case .openURL(let target, _):
            channel.openInApp(target)
        case .purchase(let productId, let shouldDismiss, let slot) where purchaseFlow != nil:
            // A page that named a slot before it learned the slot's product still buys the right one.
            let resolved = slot.flatMap(productSlots.productId(forSlot:)) ?? productId
            purchaseFlow?.purchase(productId: resolved, shouldDismiss: shouldDismiss)
        case .restore where purchaseFlow != nil:
            purchaseFlow?.restore()
        default:
            handleAppMessage(message)
        }
    }

    /// Sends the page its products, template variables and substitution prefix (after each ping).
    package func sendTemplateVariables() {
        let events = templateVariableEvents()
        lastTemplateVariables = events
        if !events.isEmpty { deliver(events) }
    }

    /// Sends them again only if they changed since they were last sent (a preloaded page
    /// presented later: the user subscribed meanwhile, say). Unchanged, the page is left alone
    /// and draws nothing new.
    package func refreshTemplateVariables() {
        guard templateVariableEvents() != lastTemplateVariables else { return }
        sendTemplateVariables()
    }

    /// What `sendTemplateVariables` last sent.
    private var lastTemplateVariables: [JSONValue]?

    private func templateVariableEvents() -> [JSONValue] {
        if let templateContext, let strings {
            return templateContext.variables(
                slots: productSlots, strings: strings, bundleStrings: bundleStrings,
                params: params
            ).events
        }
        return productSlots.entries.isEmpty ? [] : [productSlots.productsEvent]
    }

    /// Sends events to the page: now if it can receive them, else as soon as it can.
    func deliver(_ pageEvents: [JSONValue]) {
        channel.deliver(pageEvents)
    }

    func deliver(_ pageEvent: JSONValue) {
        channel.deliver([pageEvent])
    }

    // MARK: Closing

    /// A close asked for while a purchase or restore runs (the window's close, the page's, the
    /// app's, a signal), by whom: it waits for the store's answer, so a charge that goes
    /// through is reported as the purchase it is, never as a decline.
    private var closeWhenPurchaseEnds: PendingClose?

    private enum PendingClose {
        /// The user closed it (`paywall_decline` with this source, unless the purchase went through).
        case declined(source: String)
        /// The app or a signal took it down.
        case dismissed
    }

    /// The purchase flow's store call returned and its outcome was reported.
    func purchaseFlowEnded() {
        guard let pending = closeWhenPurchaseEnds else { return }
        closeWhenPurchaseEnds = nil
        switch pending {
        case .declined(let source): decline(source: source)
        case .dismissed: finish(.declined)
        }
    }

    private func decline(source: String) {
        guard result == nil else { return }
        if purchaseFlow?.inFlight == true {
            closeWhenPurchaseEnds = .declined(source: source)
            purchaseFlow?.closeRequested()
            return
        }
        if keptOpenSuccess == nil { report(EventName.paywallDecline, ["source": .string(source)]) }
        finishAfterSurvey(keptOpenSuccess ?? .declined, closedByUser: true)
    }

    /// A purchase or restore succeeded: it ends the presentation, or with `dismiss` false is
    /// what a later close reports (a purchase outranks a restore).
    func succeeded(_ outcome: PresentationResult, dismiss: Bool) {
        if dismiss { return finishAfterSurvey(outcome, closedByUser: false) }
        if case .purchased = keptOpenSuccess, outcome == .restored { return }
        keptOpenSuccess = outcome
    }

    /// Tells the user something in a dialog of the host's, or under `DialogPolicy.auto`
    /// answers it at once without showing it; reported as `dialog_shown` either way (the page
    /// hears it too, so a script can wait for it).
    func showDialog(title: String, message: String) {
        let answered = dialogs == .auto
        report(
            EventName.dialogShown,
            [
                "title": .string(title), "message": .string(message),
                "answer": answered ? .string(DialogPolicy.defaultAnswer) : .null,
            ])
        if !answered { page?.showAlert(title: title, message: message) }
    }

    /// Reports a page's request that its limits do not allow.
    func refuse(_ action: String, _ reason: String, _ extra: [String: JSONValue] = [:]) {
        channel.refuse(action, reason, extra)
    }

    /// Emits an event to the observers and sends it to the page too (lifecycle events).
    func report(_ name: EventName, _ extra: [String: JSONValue] = [:]) {
        let p = params(extra)
        events.emit(name, p)
        var pageEvent = p
        pageEvent["event_name"] = .string(name.rawValue)
        deliver(.object(pageEvent))
    }

    func params(_ extra: [String: JSONValue]) -> [String: JSONValue] {
        channel.params(extra)
    }
}
