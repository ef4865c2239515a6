import Foundation
import XCTest

@testable import PaywallCore

final class NavigationPolicyTests: XCTestCase {
    private func decide(_ target: String, newWindow: Bool = false) -> NavigationPolicy.Decision {
        NavigationPolicy.decide(target: target, bundleHost: "b", newWindow: newWindow)
    }

    private func assertBlocked(_ target: String, newWindow: Bool = false, file: StaticString = #filePath, line: UInt = #line) {
        guard case .block = decide(target, newWindow: newWindow) else {
            return XCTFail("\(target) was not blocked: \(decide(target, newWindow: newWindow))", file: file, line: line)
        }
    }

    func testSameBundleIsAllowed() {
        XCTAssertEqual(decide("paywall://b/index.html"), .allow)
        XCTAssertEqual(decide("paywall://b/page2.html#top"), .allow)
    }

    func testOtherBundleHostIsBlocked() {
        XCTAssertEqual(decide("paywall://other/index.html"), .block(reason: "navigation outside the bundle"))
    }

    func testNewWindowToBundleIsBlocked() {
        XCTAssertEqual(decide("paywall://b/index.html", newWindow: true), .block(reason: "new windows are not allowed"))
    }

    func testWebAndMailLinksOpenExternally() {
        XCTAssertEqual(decide("https://example.com/terms"), .openExternally(URL(string: "https://example.com/terms")!))
        XCTAssertEqual(decide("http://example.com"), .openExternally(URL(string: "http://example.com")!))
        XCTAssertEqual(decide("mailto:help@example.com"), .openExternally(URL(string: "mailto:help@example.com")!))
        XCTAssertEqual(
            decide("https://example.com", newWindow: true), .openExternally(URL(string: "https://example.com")!))
    }

    func testDangerousSchemesAreBlocked() {
        XCTAssertEqual(decide("javascript:alert(1)"), .block(reason: "scheme javascript: is not allowed"))
        assertBlocked("JavaScript:alert(1)")
        assertBlocked("file:///etc/passwd")
        assertBlocked("data:text/html,<script>alert(1)</script>")
        assertBlocked("about:blank")
    }

    func testGarbageIsBlocked() {
        assertBlocked("")
        assertBlocked("not a url")
        assertBlocked("::::")
        assertBlocked("/relative/path")
    }

    func testExternalURL() {
        XCTAssertEqual(NavigationPolicy.externalURL("https://x.y/z"), URL(string: "https://x.y/z"))
        XCTAssertNil(NavigationPolicy.externalURL("javascript:alert(1)"))
        XCTAssertNil(NavigationPolicy.externalURL("paywall://b/index.html"))
    }
}
