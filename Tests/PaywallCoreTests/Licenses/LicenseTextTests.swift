import Foundation
import XCTest

@testable import PaywallCore

/// What the license-key panel takes as its answer: keys trimmed, signed licenses in one
/// canonical form whatever line breaks they came with, and long text that is no license refused.
final class LicenseTextTests: XCTestCase {
    private let body = String(repeating: "eyJhbGciOiJlZDI1NTE5In0=", count: 250)

    @MainActor
    func testAKeyIsTrimmed() async throws {
        XCTAssertEqual(
            try LicenseText.answer("  38b1460a-5104-4067-a91d-77b872934d51 \n"), "38b1460a-5104-4067-a91d-77b872934d51")
        XCTAssertFalse(LicenseText.looksLikeLicense("38b1460a-5104-4067-a91d-77b872934d51"))
    }

    @MainActor
    func testAKeygenFileComesOutCanonicalFromAnyLineBreaks() async throws {
        let canonical = "-----BEGIN LICENSE FILE-----\n\(body)\n-----END LICENSE FILE-----"
        var wrapped = "-----BEGIN LICENSE FILE-----\r\n"
        var rest = Substring(body)
        while !rest.isEmpty {
            wrapped += rest.prefix(64) + "\r\n"
            rest = rest.dropFirst(64)
        }
        wrapped += "-----END LICENSE FILE-----\r\n"
        XCTAssertTrue(LicenseText.looksLikeLicense(wrapped))
        XCTAssertEqual(try LicenseText.answer(wrapped), canonical)
        XCTAssertEqual(try LicenseText.answer(wrapped.replacingOccurrences(of: "\r\n", with: "")), canonical, "lines joined")
        XCTAssertEqual(try LicenseText.answer(wrapped.replacingOccurrences(of: "\r\n", with: " ")), canonical, "breaks as spaces")
    }

    @MainActor
    func testOurFormatLosesTheWhitespaceAPasteBrought() async throws {
        XCTAssertTrue(LicenseText.looksLikeLicense("eyJhIjoxfQ.c2ln_-"))
        XCTAssertEqual(try LicenseText.answer("eyJhIjox\nfQ.c2ln\n_-\n"), "eyJhIjoxfQ.c2ln_-")
        XCTAssertFalse(LicenseText.looksLikeLicense("a.b.c"))
        XCTAssertFalse(LicenseText.looksLikeLicense("a+b.c"), "base64url only")
    }

    @MainActor
    func testLongTextIsTakenOnlyAsALicense() async throws {
        let signed = String(repeating: "A", count: 6000) + "." + String(repeating: "B", count: 86)
        XCTAssertEqual(try LicenseText.answer(signed), signed, "longer than a key, but a signed license")
        let email = String(repeating: "Thanks for buying. ", count: 300)
        XCTAssertThrowsError(try LicenseText.answer(email)) {
            XCTAssertEqual($0 as? LicenseText.Problem, .tooLong(bytes: email.trimmingCharacters(in: .whitespaces).utf8.count))
        }
        let huge = "-----BEGIN LICENSE FILE-----\n" + String(repeating: "A", count: LicenseKeyStore.maxLicenseFileBytes)
        XCTAssertThrowsError(try LicenseText.answer(huge)) {
            XCTAssertEqual($0 as? LicenseText.Problem, .tooLong(bytes: huge.utf8.count))
        }
    }

    @MainActor
    func testEachProblemIsToldInTheUsersLanguage() async throws {
        let english = try StringTable(directory: TestPaths.locales, locale: "en")
        let german = try StringTable(directory: TestPaths.locales, locale: "de")
        XCTAssertEqual(
            LicenseKeyForm.problem(.fileTooBig(name: "a.bin", bytes: 70_000), strings: english),
            "“a.bin” is 69 KB, too big for a license file (at most 64 KB). "
                + "Choose the license file from your receipt email, or paste your license key.")
        XCTAssertTrue(
            LicenseKeyForm.problem(.notLicenseFile(name: "a.png"), strings: german).hasPrefix("„a.png“ ist keine Lizenzdatei."))
        for problem: LicenseText.Problem in [
            .fileTooBig(name: "f", bytes: 1), .notLicenseFile(name: "f"), .unreadable(name: "f", reason: "x"),
            .tooLong(bytes: 9000),
        ] {
            let text = LicenseKeyForm.problem(problem, strings: english)
            XCTAssertFalse(text.hasPrefix("license."), "a missing string: \(text)")
        }
    }
}
