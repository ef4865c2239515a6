import Foundation
import XCTest

@testable import PaywallCore

final class RedeemLinkTests: XCTestCase {
    @MainActor
    func testARedeemLinkOfAnySchemeCarriesItsKey() async {
        XCTAssertEqual(RedeemLink(URL(string: "lumennotes://paywall/redeem?license_key=ABC-123")!)?.licenseKey, "ABC-123")
        XCTAssertEqual(RedeemLink(URL(string: "x-app://paywall/redeem/?license_key=A%2BB&utm=1")!)?.licenseKey, "A+B")
    }

    @MainActor
    func testOtherLinksAreNotRedeemLinks() async {
        for text in [
            "lumennotes://paywall/redeem", "lumennotes://paywall/redeem?license_key=", "lumennotes://other/redeem?license_key=K",
            "lumennotes://paywall/open?license_key=K", "https://example.com/redeem?license_key=K",
        ] {
            XCTAssertNil(RedeemLink(URL(string: text)!), text)
        }
    }

    @MainActor
    func testMaskingHidesTheKey() async {
        let masked = RedeemLink.masked(
            URL(string: "lumennotes://paywall/redeem?license_key=38b1460a-5104-4067-a91d-77b872934d51&x=1")!)
        XCTAssertEqual(masked, "lumennotes://paywall/redeem?license_key=****4d51&x=1")
    }

    /// `key` in a redeem link, URL-encoded as a query value (every byte but unreserved ones).
    @MainActor
    private func link(_ key: String) -> URL {
        let encoded = key.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        return URL(string: "lumennotes://paywall/redeem?license_key=\(encoded)")!
    }

    /// A Keygen license file of about 5 KB, longer than any key, with its line breaks.
    private let keygenBody = String(repeating: "eyJlbmMiOiJBQUFBIiwic2lnIjoiQkJCQiIsImFsZyI6ImVkMjU1MTkifQ==", count: 90)
    private var keygenFile: String { "-----BEGIN LICENSE FILE-----\n\(keygenBody)\n-----END LICENSE FILE-----\n" }

    @MainActor
    func testASignedLicenseRoundTripsThroughALink() async throws {
        XCTAssertGreaterThan(keygenFile.utf8.count, LicenseKeyStore.maxKeyBytes)
        XCTAssertEqual(
            try RedeemLink(redeeming: link(keygenFile)).licenseKey,
            "-----BEGIN LICENSE FILE-----\n\(keygenBody)\n-----END LICENSE FILE-----")
        // CRLF and wrapped lines come back the same canonical text.
        let wrapped = keygenFile.replacingOccurrences(of: "==eyJ", with: "==\r\neyJ")
        XCTAssertEqual(
            try RedeemLink(redeeming: link(wrapped)).licenseKey, try RedeemLink(redeeming: link(keygenFile)).licenseKey)
        let ours = "eyJsaWNlbnNlIjoiMSIsImVudGl0bGVtZW50cyI6WyJwcm8iXX0.c2lnbmF0dXJlLWJ5dGVz_-A"
        XCTAssertEqual(try RedeemLink(redeeming: link(ours)).licenseKey, ours)
        XCTAssertEqual(RedeemLink(link(ours))?.licenseKey, ours)
    }

    @MainActor
    func testALinkTooLongIsRefusedUnreadWithAClearError() async throws {
        let long = URL(
            string: "lumennotes://paywall/redeem?license_key=" + String(repeating: "A", count: RedeemLink.maxLinkBytes))!
        XCTAssertThrowsError(try RedeemLink(redeeming: long)) { error in
            let message = (error as? LicenseError)?.message ?? ""
            XCTAssertTrue(message.contains("longer than any redeem link"), message)
            XCTAssertTrue(message.contains("choose it in the license-key panel"), message)
        }
        XCTAssertNil(RedeemLink(long))
        XCTAssertTrue(RedeemLink.isRedeemLink(long), "still a redeem link, to be refused as one")

        // Under the link's limit, but the key itself is longer than any license.
        let key = String(repeating: "B", count: LicenseKeyStore.maxLicenseFileBytes + 1)
        XCTAssertThrowsError(try RedeemLink(redeeming: link(key))) { error in
            let message = (error as? LicenseError)?.message ?? ""
            XCTAssertTrue(message.contains("license_key is \(key.utf8.count) bytes long"), message)
        }
        // Longer than a key and no license.
        XCTAssertThrowsError(try RedeemLink(redeeming: link(String(repeating: "C", count: LicenseKeyStore.maxKeyBytes + 1))))
    }

    @MainActor
    func testAKeylessLinkSaysWhatIsMissing() async {
        XCTAssertThrowsError(try RedeemLink(redeeming: URL(string: "lumennotes://paywall/redeem?utm=1")!)) { error in
            XCTAssertEqual((error as? LicenseError)?.kind, .emptyKey)
            XCTAssertTrue((error as? LicenseError)?.message.contains("has no license_key") == true)
        }
    }
}
