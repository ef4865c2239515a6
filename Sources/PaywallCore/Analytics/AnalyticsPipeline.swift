import Foundation

/// A runtime's events on their way to the seller's sinks: each event the dispatcher emits is
/// committed to the outbox (when there is consent, a sink, and it is not a tester's sandbox
/// run), and the sender delivers the queue while the process runs. Events emitted before the
/// sinks are known (the config still loading) wait in memory, bounded, until they are.
@MainActor
package final class AnalyticsPipeline {
    package let outbox: AnalyticsOutbox
    private let events: EventDispatcher
    private let context: AnalyticsSink.Context
    /// The runtime sells through the fake store: its events are a tester's.
    private let sandbox: Bool
    package private(set) var settings: AnalyticsSettings?
    private var resolved = false
    private var waiting: [PaywallEvent] = []
    package private(set) var sender: AnalyticsSender?
    /// Events kept while the sinks are not yet known.
    static let waitingBound = 1_000

    package init(outbox: AnalyticsOutbox, events: EventDispatcher, context: AnalyticsSink.Context, sandbox: Bool) {
        self.outbox = outbox
        self.events = events
        self.context = context
        self.sandbox = sandbox
        events.observe { [weak self] event in self?.record(event) }
    }

    package var sinks: [AnalyticsSink] { AnalyticsSink.all(settings) }

    /// The data directory's consent, else the settings' default, else true.
    package var consent: Bool { outbox.consent() ?? settings?.consent ?? true }

    /// The sinks are known (nil: there are none): what waited is queued, and sending starts.
    package func resolve(_ settings: AnalyticsSettings?) {
        guard !resolved else { return }
        self.settings = settings
        resolved = true
        let early = waiting
        waiting = []
        for event in early { record(event) }
        startSending()
    }

    private func startSending() {
        guard resolved, sender == nil, consent, !sinks.isEmpty else { return }
        let events = self.events
        let sender = AnalyticsSender(outbox: outbox, sinks: sinks) { drops in
            Task { @MainActor in
                for drop in drops {
                    events.emit(
                        .analyticsDropped,
                        ["sink": .string(drop.sink), "reason": .string(drop.reason), "count": .number(Double(drop.count))])
                }
            }
        }
        self.sender = sender
        sender.start()
    }

    private func record(_ event: PaywallEvent) {
        guard consent else { return }
        guard resolved else {
            if waiting.count < Self.waitingBound { waiting.append(event) }
            return
        }
        guard let settings, !sinks.isEmpty, !sandbox || settings.sendSandbox else { return }
        outbox.enqueue(
            line: Self.sendable(event).jsonLine, uuid: event.uuid ?? "", at: event.timestamp, context: context.json.jsonText,
            sinks: sinks.map(\.name))
    }

    /// Keeps `consent` for the data directory: off, nothing is queued or sent and the queue is emptied.
    package func setConsent(_ consent: Bool) throws {
        try outbox.setConsent(consent)
        if consent {
            startSending()
        } else {
            waiting = []
            sender?.stop()
            sender = nil
        }
    }

    /// Stops sending, after one last pass within `seconds`: true when nothing is left queued.
    @discardableResult
    package func shutdown(within seconds: TimeInterval = 2) async -> Bool {
        guard let sender else { return true }
        self.sender = nil
        return await sender.shutdown(within: seconds)
    }

    /// The event as sinks get it: no license key (not even masked), no redeem link (it holds
    /// one), and no e-mail address.
    nonisolated static func sendable(_ event: PaywallEvent) -> PaywallEvent {
        var event = event
        event.params = event.params.filter { key, _ in
            key != "license_key" && key != "link" && !key.lowercased().contains("email")
        }
        return event
    }
}
