import Foundation

/// One presentation of a paywall page: decodes what the page posts, acts on each message,
/// reports events, and ends with a `PresentationResult`. Holds the rules; the host only
/// forwards raw page messages and load signals here.
@MainActor
public final class PaywallSession {
    public let paywallId: String
    public let events: EventDispatcher
    public weak var page: PaywallPage?

    /// The products the page's slots show; sent to the page after its ping.
    public var productSlots = ProductSlots()
    /// The page's template variables, sent after each ping; without them only `products` is sent.
    public var templateVariables: (@MainActor () -> TemplateVariables)?
    /// The app's handlers for deep links, custom messages, callbacks, ...
    public weak var delegate: PaywallDelegate?
    /// Receives attributes the page sets with `user_attribute_updated`, to keep them; an error
    /// (over the size limits) is reported as `pageAction_refused`.
    public var onUserAttributes: (@MainActor ([String: JSONValue]) throws -> Void)?
    /// What the page may still make the machine do (notifications, the system opener).
    public var limits = PageActionLimits()
    /// The runtime's own texts, for the fallback paywall.
    public var strings: StringTable?
    /// Whether the host can show desktop notifications (answers notification permission requests).
    public var notificationsAvailable = false
    /// Whether the runtime's own dialogs wait for the user or are answered at once.
    public var dialogs = DialogPolicy.show

    /// Called once when the page becomes ready (after each load).
    public var onReady: (() -> Void)?
    /// Called once when the presentation ends.
    public var onFinish: ((PresentationResult) -> Void)?

    public private(set) var readiness = PageReadiness()
    public private(set) var result: PresentationResult?
    private let decoder: PageEnvelopeDecoder
    /// Runs purchases and restores; nil when no purchase controller is configured.
    private var purchaseFlow: PurchaseFlow?
    /// Events for the page that arrived before it was ready to receive them.
    private var pendingPageEvents: [JSONValue] = []
    /// A purchase (or restore) that succeeded without closing the paywall: what a later
    /// close reports, since the user did not decline.
    private var keptOpenSuccess: PresentationResult?

    public init(paywallId: String, events: EventDispatcher, decoder: PageEnvelopeDecoder = PageEnvelopeDecoder()) {
        self.paywallId = paywallId
        self.events = events
        self.decoder = decoder
    }

    /// Lets the page's `purchase` and `restore` messages buy through `purchases`.
    public func enablePurchases(_ purchases: Purchases, strings: StringTable) {
        purchaseFlow = PurchaseFlow(session: self, purchases: purchases, strings: strings)
    }

    // MARK: Page lifecycle, reported by the host

    public func loadStarted(url: String) {
        readiness.loadStarted()
        events.emit(.webviewLoadStart, params(["url": .string(url)]))
        page?.showLoading(.loading)
    }

    public func loadFinished(url: String) {
        events.emit(.webviewLoadComplete, params(["url": .string(url)]))
        let ready = readiness.loadDidFinish()
        flushPendingPageEvents()
        if ready { becameReady() }
    }

    /// The runtime's fallback paywall replaced the page.
    public private(set) var showsFallback = false

    /// The page could not load: the user gets the runtime's fallback paywall, never a blank window.
    public func loadFailed(url: String, reason: String) {
        events.emit(.webviewLoadFail, params(["url": .string(url), "reason": .string(reason)]))
        useFallback(reason: reason)
    }

    /// The page is not ready after the load timeout: the host offers Retry and Close.
    public func loadTimedOut(after seconds: Double) {
        guard !readiness.isReady, result == nil else { return }
        events.emit(.webviewLoadTimeout, params(["seconds": .number(seconds)]))
        page?.showLoading(.slow)
    }

    /// Shows the fallback paywall once (a broken fallback is not retried).
    public func useFallback(reason: String) {
        guard !showsFallback, result == nil else { return }
        showsFallback = true
        events.emit(.paywallFallback, params(["reason": .string(reason)]))
        page?.showFallback()
    }

    /// The user clicked or pressed a key in the page's view (the host watches its input).
    public func userInput() {
        limits.userInput(at: Date())
    }

    /// The ping grace period after the load has run out.
    public func pingGraceElapsed() {
        if readiness.graceDidElapse() { becameReady() }
    }

    /// Called when the page's web process died (the host reloads it).
    public var onProcessTerminated: (() -> Void)?

    public func webProcessTerminated(reason: String) {
        events.emit(.webviewProcessTerminated, params(["reason": .string(reason)]))
        onProcessTerminated?()
    }

    /// The paywall is on screen.
    public func presented() {
        report(.paywallOpen)
    }

    /// The user closed the window with the window manager: the same as the page's close.
    public func windowClosedByUser() {
        decline(source: "window")
    }

    /// Ends the presentation with `result` (e.g. a timeout) unless it has ended already. A
    /// close (`.declined`) after a purchase that kept the paywall open reports that purchase.
    public func finish(_ result: PresentationResult) {
        guard self.result == nil else { return }
        if result == .declined, purchaseFlow?.inFlight == true {
            closeWhenPurchaseEnds = closeWhenPurchaseEnds ?? .dismissed
            return
        }
        let result = result == .declined ? keptOpenSuccess ?? result : result
        self.result = result
        report(.paywallClose, ["result": .string(result.name)])
        page?.dismiss()
        onFinish?(result)
    }

    // MARK: Messages from the page

    /// The raw text the page posted to `paywallMessageHandler`.
    public func receive(_ text: String) {
        let batch: PageEnvelopeDecoder.Batch
        do {
            batch = try decoder.decode(text)
        } catch {
            events.emit(.pageMessageInvalid, params(["reason": .string(error.description)]))
            return
        }
        for item in batch.items {
            // Once the paywall is dismissed, the rest of its batch has nothing left to act on.
            guard result == nil else { return }
            switch item {
            case .success(let message):
                handle(message)
            case .failure(let problem):
                var p: [String: JSONValue] = ["reason": .string(problem.reason), "index": .number(Double(problem.index))]
                if let name = problem.eventName { p["event_name"] = .string(name) }
                events.emit(.pageMessageInvalid, params(p))
            }
        }
    }

    func handle(_ message: PageMessage) {
        switch message {
        case .ping(let version):
            events.emit(.ping, params(["version": version.map(JSONValue.string) ?? .null]))
            let ready = readiness.pingDidArrive()
            // The protocol's order after a ping: products, variables, prefix; then anything held back.
            sendTemplateVariables()
            if showsFallback, let strings { deliver(FallbackTexts.event(strings)) }
            flushPendingPageEvents()
            if ready { becameReady() }
        case .close:
            decline(source: "page")
        case .openURLExternal(let url):
            openExternally(url, source: message.eventName)
        case .openURL(let target, _):
            guard let url = URL(string: target), ["http", "https"].contains(url.scheme?.lowercased() ?? "") else {
                events.emit(.navigationBlocked, params([
                    "url": .string(target), "reason": .string("the in-app browser opens only http and https URLs"),
                ]))
                return
            }
            events.emit(.urlOpenInApp, params(["url": .string(url.absoluteString)]))
            page?.openInAppBrowser(url)
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

    /// Sends the page its products, template variables and substitution prefix (after each
    /// ping, and whenever a loaded page is presented again).
    public func sendTemplateVariables() {
        if let variables = templateVariables?() {
            deliver(variables.events)
        } else if !productSlots.entries.isEmpty {
            deliver([productSlots.productsEvent])
        }
    }

    /// Sends events to the page: now if it can receive them (it pinged or finished loading),
    /// else as soon as it can.
    func deliver(_ pageEvents: [JSONValue]) {
        if readiness.pingReceived || readiness.loadFinished {
            page?.evaluate(PageDelivery.script(for: pageEvents))
        } else {
            pendingPageEvents.append(contentsOf: pageEvents)
        }
    }

    private func flushPendingPageEvents() {
        guard !pendingPageEvents.isEmpty else { return }
        let held = pendingPageEvents
        pendingPageEvents = []
        deliver(held)
    }

    func deliver(_ pageEvent: JSONValue) {
        deliver([pageEvent])
    }

    /// A navigation the page started (link click, `location =`, `window.open`). Returns true
    /// when the web view may load it; otherwise it was handed to the system or blocked.
    public func shouldAllowNavigation(to url: String, bundleHost: String, newWindow: Bool) -> Bool {
        switch NavigationPolicy.decide(target: url, bundleHost: bundleHost, newWindow: newWindow) {
        case .allow:
            return true
        case .openExternally:
            openExternally(url, source: newWindow ? "new_window" : "link")
            return false
        case .block(let reason):
            events.emit(.navigationBlocked, params(["url": .string(url), "reason": .string(reason)]))
            return false
        }
    }

    // MARK: Helpers

    private func becameReady() {
        events.emit(.pageReady, params(["via": .string(readiness.pingReceived ? "ping" : "load")]))
        page?.showLoading(.hidden)
        onReady?()
    }

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
            return
        }
        if keptOpenSuccess == nil { report(.paywallDecline, ["source": .string(source)]) }
        finish(.declined)
    }

    private func openExternally(_ target: String, source: String) {
        guard let url = NavigationPolicy.externalURL(target) else {
            events.emit(.navigationBlocked, params([
                "url": .string(target), "reason": .string("only http, https and mailto URLs open in the system"),
            ]))
            return
        }
        if let reason = limits.openInSystem(at: Date()) {
            return refuse(source, reason, ["url": .string(url.absoluteString)])
        }
        events.emit(.urlOpenExternal, params(["url": .string(url.absoluteString), "source": .string(source)]))
        page?.openExternally(url)
    }

    /// A purchase or restore succeeded: it ends the presentation, or with `dismiss` false is
    /// what a later close reports (a purchase outranks a restore).
    func succeeded(_ outcome: PresentationResult, dismiss: Bool) {
        if dismiss { return finish(outcome) }
        if case .purchased = keptOpenSuccess, outcome == .restored { return }
        keptOpenSuccess = outcome
    }

    /// Tells the user something in a dialog of the host's, or under `DialogPolicy.auto`
    /// answers it at once without showing it; reported as `dialog_shown` either way (the page
    /// hears it too, so a script can wait for it).
    func showDialog(title: String, message: String) {
        let answered = dialogs == .auto
        report(.dialogShown, [
            "title": .string(title), "message": .string(message),
            "answer": answered ? .string(DialogPolicy.defaultAnswer) : .null,
        ])
        if !answered { page?.showAlert(title: title, message: message) }
    }

    /// Reports a page's request that its limits do not allow.
    func refuse(_ action: String, _ reason: String, _ extra: [String: JSONValue] = [:]) {
        let (report, last) = limits.countRefusal()
        guard report else { return }
        var p = extra
        if last { p["further_refusals"] = "not reported" }
        p["action"] = .string(action)
        p["reason"] = .string(reason)
        events.emit(.pageActionRefused, params(p))
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
        var p = extra
        p["paywall_identifier"] = .string(paywallId)
        return p
    }
}
