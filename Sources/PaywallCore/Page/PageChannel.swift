import Foundation

/// What a page's events decode into: `PageMessage` for paywalls, `CustomerCenterMessage` for
/// the customer center.
package protocol PageChannelMessage: Sendable {
    /// Decodes one event of an envelope; a `PageEnvelopeDecoder.EventError` names the field.
    static func decode(event: JSONValue) throws -> Self
    /// The page's script is up and listening (the protocol's `ping`).
    var isPing: Bool { get }
}

/// The one channel between the runtime and any page it shows (a paywall or the customer
/// center): decodes the page's envelopes, tracks when the page is ready, holds back what the
/// page cannot receive yet, decides where its navigations go, and reports all of that as the
/// same events for every page. A page's session adds only what its page means.
@MainActor
package final class PageChannel<Message: PageChannelMessage>: PageConnection {
    package let events: EventDispatcher
    /// The host's view of the page.
    package weak var surface: PageSurface?
    package private(set) var readiness = PageReadiness()
    /// What the page may still make the machine do.
    package var limits: PageActionLimits

    /// Parameters every event of this page carries (`paywall_identifier`, or `page`).
    private let tag: [String: JSONValue]
    /// The event reported when the page becomes ready.
    private let readyEvent: EventName
    private let decoder: PageEnvelopeDecoder
    /// Events for the page that arrived before it could receive them.
    private var pending: [JSONValue] = []

    /// Called with each message that decoded, in the page's order.
    package var onMessage: ((Message) -> Void)?
    /// Whether the page is gone (dismissed): the rest of a batch is dropped.
    package var isClosed: () -> Bool = { false }
    /// A load (first load or reload) started.
    package var onLoadStarted: (() -> Void)?
    /// A load finished: the page can receive events.
    package var onLoadFinished: (() -> Void)?
    /// The page could not load; the reason.
    package var onLoadFailed: ((String) -> Void)?
    /// Once per load, when the page has loaded and pinged (or its ping grace ran out).
    package var onReady: (() -> Void)?
    /// The page's web process died (the host reloads it).
    package var onProcessTerminated: (() -> Void)?

    /// - Parameters:
    ///   - tag: parameters every event of this page carries.
    ///   - readyEvent: what becoming ready is reported as.
    ///   - limits: what the page may make the machine do; a page of the runtime's own needs no
    ///     user gesture for the system opener.
    package init(
        events: EventDispatcher, tag: [String: JSONValue], readyEvent: EventName, limits: PageActionLimits = PageActionLimits(),
        decoder: PageEnvelopeDecoder = PageEnvelopeDecoder()
    ) {
        self.events = events
        self.tag = tag
        self.readyEvent = readyEvent
        self.limits = limits
        self.decoder = decoder
    }

    // MARK: Events

    /// Reports `name` with this page's tag added to `extra`.
    package func emit(_ name: EventName, _ extra: [String: JSONValue] = [:]) {
        events.emit(name, params(extra))
    }

    /// `extra` with this page's tag.
    package func params(_ extra: [String: JSONValue]) -> [String: JSONValue] {
        extra.merging(tag) { own, _ in own }
    }

    // MARK: What the web view reports

    package func receive(_ text: String) {
        let list: [JSONValue]
        do {
            list = try decoder.events(in: text)
        } catch {
            return emit(.pageMessageInvalid, ["reason": .string(error.description)])
        }
        for (index, event) in list.enumerated() {
            // Once the page is dismissed, the rest of its batch has nothing left to act on.
            guard !isClosed() else { return }
            do {
                onMessage?(try Message.decode(event: event))
            } catch {
                var p: [String: JSONValue] = ["index": .number(Double(index))]
                if let error = error as? PageEnvelopeDecoder.EventError {
                    p["reason"] = .string(error.reason)
                    if let name = error.eventName { p["event_name"] = .string(name) }
                } else {
                    p["reason"] = .string("\(error)")
                }
                emit(.pageMessageInvalid, p)
            }
        }
    }

    package func loadStarted(url: String) {
        readiness.loadStarted()
        emit(.webviewLoadStart, ["url": .string(url)])
        onLoadStarted?()
    }

    package func loadFinished(url: String) {
        emit(.webviewLoadComplete, ["url": .string(url)])
        let ready = readiness.loadDidFinish()
        onLoadFinished?()
        flushPending()
        if ready { becameReady() }
    }

    package func loadFailed(url: String, reason: String) {
        emit(.webviewLoadFail, ["url": .string(url), "reason": .string(reason)])
        onLoadFailed?(reason)
    }

    package func pingGraceElapsed() {
        if readiness.graceDidElapse() { becameReady() }
    }

    package func webProcessTerminated(reason: String) {
        emit(.webviewProcessTerminated, ["reason": .string(reason)])
        onProcessTerminated?()
    }

    package func userInput() {
        limits.userInput(at: Date())
    }

    /// The page pinged: `sendFirst` delivers what the page gets first (its variables, its
    /// screen), then what was held back goes, then readiness is reported.
    package func pingArrived(sendFirst: () -> Void) {
        let ready = readiness.pingDidArrive()
        sendFirst()
        flushPending()
        if ready { becameReady() }
    }

    private func becameReady() {
        emit(readyEvent, ["via": .string(readiness.pingReceived ? "ping" : "load")])
        onReady?()
    }

    // MARK: Delivering to the page

    /// Whether events sent now reach the page (it pinged or finished loading).
    package var canDeliver: Bool { readiness.pingReceived || readiness.loadFinished }

    /// Sends events to the page: now if it can receive them, else as soon as it can.
    package func deliver(_ pageEvents: [JSONValue]) {
        if canDeliver {
            surface?.evaluate(PageDelivery.script(for: pageEvents))
        } else {
            pending.append(contentsOf: pageEvents)
        }
    }

    private func flushPending() {
        guard !pending.isEmpty else { return }
        let held = pending
        pending = []
        deliver(held)
    }

    // MARK: Navigation

    package func shouldAllowNavigation(to url: String, bundleHost: String, newWindow: Bool) -> Bool {
        switch NavigationPolicy.decide(target: url, bundleHost: bundleHost, newWindow: newWindow) {
        case .allow:
            return true
        case .openExternally:
            openExternally(url, source: newWindow ? "new_window" : "link")
            return false
        case .block(let reason):
            emit(.navigationBlocked, ["url": .string(url), "reason": .string(reason)])
            return false
        }
    }

    /// Hands `target` to the system's browser or mail client, within the page's limits;
    /// reported as `url_openExternal` with `source` (the message or the kind of link).
    package func openExternally(_ target: String, source: String) {
        guard let url = NavigationPolicy.externalURL(target) else {
            return emit(
                .navigationBlocked,
                [
                    "url": .string(target), "reason": .string("only http, https and mailto URLs open in the system"),
                ])
        }
        if let reason = limits.openInSystem(at: Date()) {
            return refuse(source, reason, ["url": .string(url.absoluteString)])
        }
        emit(.urlOpenExternal, ["url": .string(url.absoluteString), "source": .string(source)])
        surface?.openExternally(url)
    }

    /// Opens `target` in the runtime's browser window (http and https only); reported as `url_openInApp`.
    package func openInApp(_ target: String) {
        guard let url = URL(string: target), ["http", "https"].contains(url.scheme?.lowercased() ?? "") else {
            return emit(
                .navigationBlocked,
                [
                    "url": .string(target), "reason": .string("the in-app browser opens only http and https URLs"),
                ])
        }
        emit(.urlOpenInApp, ["url": .string(url.absoluteString)])
        surface?.openInAppBrowser(url)
    }

    /// Reports a page's request that its limits do not allow (`pageAction_refused`), up to the
    /// limits' count of reported refusals.
    package func refuse(_ action: String, _ reason: String, _ extra: [String: JSONValue] = [:]) {
        let (report, last) = limits.countRefusal()
        guard report else { return }
        var p = extra
        if last { p["further_refusals"] = "not reported" }
        p["action"] = .string(action)
        p["reason"] = .string(reason)
        emit(.pageActionRefused, p)
    }
}
