import Foundation
import XCTest

@testable import PaywallCore

final class RedeemLinkTests: XCTestCase {
    func testARedeemLinkOfAnySchemeCarriesItsKey() {
        XCTAssertEqual(RedeemLink(URL(string: "lumennotes://paywall/redeem?license_key=ABC-123")!)?.licenseKey, "ABC-123")
        XCTAssertEqual(RedeemLink(URL(string: "x-app://paywall/redeem/?license_key=A%2BB&utm=1")!)?.licenseKey, "A+B")
    }

    func testOtherLinksAreNotRedeemLinks() {
        for text in [
            "lumennotes://paywall/redeem", "lumennotes://paywall/redeem?license_key=", "lumennotes://other/redeem?license_key=K",
            "lumennotes://paywall/open?license_key=K", "https://example.com/redeem?license_key=K",
        ] {
            XCTAssertNil(RedeemLink(URL(string: text)!), text)
        }
    }

    func testMaskingHidesTheKey() {
        let masked = RedeemLink.masked(
            URL(string: "lumennotes://paywall/redeem?license_key=38b1460a-5104-4067-a91d-77b872934d51&x=1")!)
        XCTAssertEqual(masked, "lumennotes://paywall/redeem?license_key=****4d51&x=1")
    }
}
