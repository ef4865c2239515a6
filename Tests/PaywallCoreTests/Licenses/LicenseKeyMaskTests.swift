import XCTest

@testable import PaywallCore

final class LicenseKeyMaskTests: XCTestCase {
    func testOnlyTheLastFourCharactersShow() {
        XCTAssertEqual(LicenseKeyMask.mask("38b1460a-5104-4067-a91d-77b872934d51"), "****4d51")
        XCTAssertEqual(LicenseKeyMask.mask("  38b1460a-5104-4067-a91d-77b872934d51\n"), "****4d51")
    }

    func testShortKeysAreAllStars() {
        XCTAssertEqual(LicenseKeyMask.mask("ABCDEFGH"), "********")
        XCTAssertEqual(LicenseKeyMask.mask("AB"), "****")
    }
}
