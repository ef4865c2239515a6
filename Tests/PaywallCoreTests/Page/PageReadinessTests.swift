import XCTest

@testable import PaywallCore

final class PageReadinessTests: XCTestCase {
    func testNotReadyAtStart() {
        let readiness = PageReadiness()
        XCTAssertFalse(readiness.isReady)
        XCTAssertFalse(readiness.loadFinished)
        XCTAssertFalse(readiness.pingReceived)
        XCTAssertFalse(readiness.graceElapsed)
    }

    func testLoadThenPingIsReadyOnce() {
        var readiness = PageReadiness()
        XCTAssertFalse(readiness.loadDidFinish())
        XCTAssertFalse(readiness.isReady)
        XCTAssertTrue(readiness.pingDidArrive())
        XCTAssertTrue(readiness.isReady)
        XCTAssertFalse(readiness.pingDidArrive(), "a second ping must not report readiness again")
        XCTAssertFalse(readiness.graceDidElapse(), "the grace period after a ping must not report again")
        XCTAssertTrue(readiness.isReady)
    }

    func testPingThenLoadIsReady() {
        var readiness = PageReadiness()
        XCTAssertFalse(readiness.pingDidArrive())
        XCTAssertFalse(readiness.isReady)
        XCTAssertTrue(readiness.loadDidFinish())
        XCTAssertTrue(readiness.isReady)
    }

    func testLoadThenGraceIsReady() {
        var readiness = PageReadiness()
        XCTAssertFalse(readiness.loadDidFinish())
        XCTAssertTrue(readiness.graceDidElapse())
        XCTAssertTrue(readiness.isReady)
        XCTAssertFalse(readiness.pingReceived)
        XCTAssertFalse(readiness.pingDidArrive(), "a late ping must not report readiness again")
    }

    func testGraceWithoutLoadIsNotReady() {
        var readiness = PageReadiness()
        XCTAssertFalse(readiness.graceDidElapse())
        XCTAssertFalse(readiness.isReady)
    }

    func testLoadStartedResets() {
        var readiness = PageReadiness()
        _ = readiness.loadDidFinish()
        XCTAssertTrue(readiness.pingDidArrive())
        readiness.loadStarted()
        XCTAssertEqual(readiness, PageReadiness())
        XCTAssertFalse(readiness.isReady)
        XCTAssertFalse(readiness.loadFinished)
        XCTAssertFalse(readiness.pingReceived)
        // The next load reports readiness again, once.
        XCTAssertFalse(readiness.loadDidFinish())
        XCTAssertTrue(readiness.pingDidArrive())
        XCTAssertFalse(readiness.pingDidArrive())
    }
}
