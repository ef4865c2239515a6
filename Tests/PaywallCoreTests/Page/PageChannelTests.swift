import Foundation
import XCTest

@testable import PaywallCore

/// The one page channel, run for both kinds of page: what holds for a paywall holds for the
/// customer center, event for event. (Test methods are `async`: see `PaywallSessionTests`.)
@MainActor
final class PageChannelTests: XCTestCase {
    /// A channel of `Message`, its recorded events and decoded messages, on a recording page.
    @MainActor
    final class Rig<Message: PageChannelMessage> {
        let channel: PageChannel<Message>
        let page = RecordingPageSurface()
        var events: [PaywallEvent] = []
        var messages: [Message] = []
        var closed = false

        init(tag: [String: JSONValue], limits: PageActionLimits = PageActionLimits()) {
            let dispatcher = EventDispatcher()
            channel = PageChannel(events: dispatcher, tag: tag, readyEvent: .pageReady, limits: limits)
            channel.surface = page
            channel.onMessage = { [unowned self] message in
                messages.append(message)
                if message.isPing { channel.pingArrived {} }
            }
            channel.isClosed = { [unowned self] in closed }
            dispatcher.observe { [unowned self] in events.append($0) }
        }

        func named(_ name: EventName) -> [[String: JSONValue]] { events.filter { $0.name == name }.map(\.params) }
    }

    private let paywallTag: [String: JSONValue] = ["paywall_identifier": "pw"]
    private let customerCenterTag: [String: JSONValue] = ["page": "customer_center"]

    func testDeliveriesWaitForThePageAndKeepTheirOrderOnBothPages() async {
        assertDeliveriesWait(Rig<PageMessage>(tag: paywallTag), #"{"event_name": "ping"}"#)
        assertDeliveriesWait(Rig<CustomerCenterMessage>(tag: customerCenterTag), #"{"event_name": "ping"}"#)
    }

    private func assertDeliveriesWait<M>(_ rig: Rig<M>, _ ping: String, file: StaticString = #filePath, line: UInt = #line) {
        rig.channel.loadStarted(url: "paywall://x/index.html")
        rig.channel.deliver([["event_name": "one"]])
        rig.channel.deliver([["event_name": "two"]])
        XCTAssertEqual(rig.page.evaluated, [], "nothing reaches a page that cannot listen yet", file: file, line: line)
        rig.channel.receive(envelope([ping]))
        XCTAssertEqual(rig.page.deliveredEvents.map { $0["event_name"] }, ["one", "two"], file: file, line: line)
        rig.channel.deliver([["event_name": "three"]])
        XCTAssertEqual(rig.page.deliveredEvents.count, 3, "after the ping, at once", file: file, line: line)
    }

    func testLoadEventsReadinessAndBadMessagesAreTheSameEventsOnBothPages() async {
        let paywall = Rig<PageMessage>(tag: paywallTag)
        let center = Rig<CustomerCenterMessage>(tag: customerCenterTag)
        for (drive, tag) in [(drive(paywall), paywallTag), (drive(center), customerCenterTag)] {
            let events = drive()
            XCTAssertEqual(
                events.map(\.name),
                [
                    .webviewLoadStart, .webviewLoadComplete, .pageMessageInvalid, .pageReady, .pageMessageInvalid,
                    .webviewProcessTerminated,
                ])
            for event in events {
                for (key, value) in tag { XCTAssertEqual(event.params[key], value, "\(event.name) carries the page's tag") }
            }
            XCTAssertEqual(events[2].params["index"], 0)
            XCTAssertEqual(events[3].params["via"], "ping")
            XCTAssertNotNil(events[4].params["reason"]?.stringValue, "an envelope that is not JSON says why")
        }
        XCTAssertEqual(paywall.messages.count, 1, "the ping after the bad event still decoded")
        XCTAssertEqual(center.messages, [.ping])
    }

    /// Loads, sends a batch of a bad event and a ping, then text that is not JSON, then a dead process.
    private func drive<M>(_ rig: Rig<M>) -> () -> [PaywallEvent] {
        {
            rig.channel.loadStarted(url: "paywall://x/index.html")
            rig.channel.loadFinished(url: "paywall://x/index.html")
            rig.channel.receive(envelope([#"{"no_name": 1}"#, #"{"event_name": "ping"}"#]))
            rig.channel.pingGraceElapsed()  // ready once per load: not again
            rig.channel.receive("not json")
            rig.channel.webProcessTerminated(reason: "crashed")
            return rig.events
        }
    }

    func testReadyComesFromTheLoadWhenNoPingCame() async {
        let rig = Rig<PageMessage>(tag: paywallTag)
        var ready = 0
        rig.channel.onReady = { ready += 1 }
        rig.channel.loadStarted(url: "u")
        rig.channel.loadFinished(url: "u")
        XCTAssertEqual(ready, 0, "waits for the ping")
        rig.channel.pingGraceElapsed()
        rig.channel.pingGraceElapsed()
        XCTAssertEqual(ready, 1)
        XCTAssertEqual(rig.named(.pageReady).map { $0["via"] }, ["load"])
        rig.channel.loadStarted(url: "u")
        rig.channel.loadFinished(url: "u")
        rig.channel.receive(envelope([#"{"event_name": "ping"}"#]))
        XCTAssertEqual(ready, 2, "a reload is ready again")
    }

    func testAClosedPageDropsTheRestOfItsBatch() async {
        let rig = Rig<CustomerCenterMessage>(tag: customerCenterTag)
        rig.channel.onMessage = { [unowned rig] message in
            rig.messages.append(message)
            rig.closed = true
        }
        rig.channel.receive(
            envelope([#"{"event_name": "ping"}"#, #"{"event_name": "customer_center_action", "action": "back"}"#]))
        XCTAssertEqual(rig.messages, [.ping])
    }

    /// A third party's paywall needs the user's gesture for the system opener; the runtime's own
    /// page does not. Both report the same events.
    func testTheGestureRuleIsThePagesLimitNotTheChannels() async {
        let paywall = Rig<PageMessage>(tag: paywallTag)
        var trusted = PageActionLimits()
        trusted.requiresGesture = false
        let center = Rig<CustomerCenterMessage>(tag: customerCenterTag, limits: trusted)
        paywall.channel.openExternally("https://example.com/a", source: "link")
        center.channel.openExternally("https://example.com/a", source: "link")
        XCTAssertEqual(paywall.page.openedExternally, [])
        XCTAssertEqual(paywall.named(.pageActionRefused).map { $0["url"] }, ["https://example.com/a"])
        XCTAssertEqual(center.page.openedExternally, [URL(string: "https://example.com/a")!])
        XCTAssertEqual(
            center.named(.urlOpenExternal), [["url": "https://example.com/a", "source": "link", "page": "customer_center"]])
        paywall.channel.userInput()
        paywall.channel.openExternally("mailto:help@example.com", source: "link")
        XCTAssertEqual(paywall.page.openedExternally, [URL(string: "mailto:help@example.com")!], "right after a click")
    }

    func testTheInAppBrowserOpensOnlyWebPages() async {
        let rig = Rig<PageMessage>(tag: paywallTag)
        rig.channel.openInApp("https://example.com/terms")
        rig.channel.openInApp("file:///etc/passwd")
        XCTAssertEqual(rig.page.browsed, [URL(string: "https://example.com/terms")!])
        XCTAssertEqual(rig.named(.urlOpenInApp).map { $0["url"] }, ["https://example.com/terms"])
        XCTAssertEqual(rig.named(.navigationBlocked).map { $0["url"] }, ["file:///etc/passwd"])
    }
}
