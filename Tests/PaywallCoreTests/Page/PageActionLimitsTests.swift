import Foundation
import XCTest

@testable import PaywallCore

/// A page cannot exhaust the machine: notifications are counted, the system opener needs a
/// recent user gesture and is not run in bursts, user attributes have sizes.
@MainActor
final class PageActionLimitsTests: XCTestCase {
    private let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    func testTheSystemOpenerNeedsARecentGesture() async {
        var limits = PageActionLimits()
        XCTAssertNotNil(limits.openInSystem(at: t0), "no input at all")
        limits.userInput(at: t0)
        XCTAssertNil(limits.openInSystem(at: t0.addingTimeInterval(0.5)))
        limits.userInput(at: t0.addingTimeInterval(10))
        XCTAssertNotNil(limits.openInSystem(at: t0.addingTimeInterval(11.5)), "the click was 1.5 s ago")
    }

    func testTheSystemOpenerRunsAtMostOnceASecond() async {
        var limits = PageActionLimits()
        limits.userInput(at: t0)
        XCTAssertNil(limits.openInSystem(at: t0))
        let refusal = limits.openInSystem(at: t0.addingTimeInterval(0.2))
        XCTAssertEqual(refusal, "a page's URLs go to the system at most once every second")
        limits.userInput(at: t0.addingTimeInterval(1.1))
        XCTAssertNil(limits.openInSystem(at: t0.addingTimeInterval(1.2)))
    }

    func testNotificationsAreCountedPerPresentation() async {
        var limits = PageActionLimits()
        for _ in 0..<10 { XCTAssertNil(limits.scheduleNotification()) }
        XCTAssertEqual(limits.scheduleNotification(), "a paywall may schedule at most 10 notifications")
    }

    // MARK: Through a session

    func testAScriptedOpenWithoutInputIsRefusedAndReported() async {
        let h = PaywallSessionTests.Harness()
        h.session.channel.receive(envelope([#"{"event_name": "open_url_external", "url": "https://example.com/a"}"#]))
        XCTAssertEqual(h.page.openedExternally, [])
        let refused = h.events.first { $0.name == EventName.pageActionRefused }
        XCTAssertEqual(refused?.params["action"], "open_url_external")
        XCTAssertEqual(refused?.params["url"], "https://example.com/a")
        XCTAssertNotNil(refused?.params["reason"]?.stringValue)
        XCTAssertFalse(h.names.contains(EventName.urlOpenExternal))

        h.session.channel.userInput()
        h.session.channel.receive(envelope([#"{"event_name": "open_url_external", "url": "https://example.com/b"}"#]))
        XCTAssertEqual(h.page.openedExternally, [URL(string: "https://example.com/b")!])
        // A burst right after the allowed one: refused.
        h.session.channel.receive(envelope([#"{"event_name": "open_url_external", "url": "https://example.com/c"}"#]))
        XCTAssertEqual(h.page.openedExternally.count, 1)
        XCTAssertEqual(h.events.filter { $0.name == EventName.pageActionRefused }.count, 2)
    }

    func testALinkNavigationNeedsAGestureToo() async {
        let h = PaywallSessionTests.Harness()
        XCTAssertFalse(
            h.session.channel.shouldAllowNavigation(to: "https://example.com/terms", bundleHost: "bundle", newWindow: false))
        XCTAssertEqual(h.page.openedExternally, [])
        XCTAssertEqual(h.events.last?.params["action"], "link")
    }

    func testTheEleventhNotificationIsRefused() async {
        let h = PaywallSessionTests.Harness()
        let one = #"{"event_name": "schedule_notification", "type": "t", "title": "T", "body": "B", "delay": 0}"#
        h.session.channel.receive(envelope(Array(repeating: one, count: 12)))
        XCTAssertEqual(h.page.notifications.count, 10)
        let refused = h.events.filter { $0.name == EventName.pageActionRefused }
        XCTAssertEqual(refused.count, 2)
        XCTAssertEqual(refused.first?.params["action"], "schedule_notification")
    }

    func testOversizedUserAttributesAreRefusedAndNothingIsStored() async throws {
        let state = try RuntimeState(path: makeTemporaryDirectory().appendingPathComponent("runtime.sqlite").path)
        let h = PaywallSessionTests.Harness()
        h.session.onUserAttributes = { try state.setUserAttributes($0, user: "u") }
        let big = String(repeating: "x", count: RuntimeState.maxAttributeBytes)
        h.session.channel.receive(
            envelope([
                #"{"event_name": "user_attribute_updated", "attributes": [{"key": "small", "value": 1}, {"key": "big", "value": "\#(big)"}]}"#
            ]))
        XCTAssertEqual(try state.userAttributes(user: "u"), [:], "the update is refused whole")
        XCTAssertEqual(h.events.last?.name, EventName.pageActionRefused)
        XCTAssertEqual(h.events.last?.params["action"], "user_attribute_updated")
        XCTAssertFalse(h.names.contains(.userAttributes))
    }

    func testAUserHasAtMostOneMegabyteOfAttributes() throws {
        let state = try RuntimeState(path: makeTemporaryDirectory().appendingPathComponent("runtime.sqlite").path)
        let value = JSONValue.string(String(repeating: "y", count: 60_000))
        for i in 0..<17 { try state.setUserAttributes(["k\(i)": value], user: "u") }  // ~1.02 MB would follow
        XCTAssertThrowsError(try state.setUserAttributes(["k17": value], user: "u")) { error in
            XCTAssertTrue("\(error)".contains("at most 1048576"), "\(error)")
        }
        XCTAssertEqual(try state.userAttributes(user: "u").count, 17, "the refused update rolled back")
        try state.setUserAttributes(["k0": .null], user: "u")
        try state.setUserAttributes(["k17": value], user: "u")  // room again after a removal
        try state.setUserAttributes(["k17": value], user: "other")  // each user has their own budget
    }

    /// A page looping on refused requests cannot fill the event log: the 100th refusal is the
    /// last reported, and says so.
    func testRefusalsAreReportedUpToALimit() async {
        let h = PaywallSessionTests.Harness()
        let one = #"{"event_name": "open_url_external", "url": "https://example.com/x"}"#
        h.session.channel.receive(envelope(Array(repeating: one, count: 250)))
        let refused = h.events.filter { $0.name == EventName.pageActionRefused }
        XCTAssertEqual(refused.count, 100)
        XCTAssertEqual(refused.last?.params["further_refusals"], "not reported")
        XCTAssertNil(refused.first?.params["further_refusals"])
    }
}
