import Foundation
import XCTest

@testable import PaywallCore

/// The license-key prompt as the host draws it: its texts for a purchase and a restore, in the
/// page's language, and each problem of the previous attempt told apart by what the provider said.
final class LicenseKeyFormTests: XCTestCase {
    private let product = Product(
        id: "pro.lifetime", displayName: "Lumen Pro", price: 49, currencyCode: "USD", kind: .nonConsumable,
        checkoutURL: URL(string: "https://shop.example/buy/1"))
    private let checkout = URL(string: "https://shop.example/buy/1?checkout%5Bcustom%5D%5Buser_id%5D=ada")!

    private func strings(_ locale: String = "en") throws -> StringTable {
        try StringTable(directory: TestPaths.locales, locale: locale)
    }

    func testAPurchaseNamesTheProductAndOffersTheCheckoutAgain() throws {
        let form = LicenseKeyForm(
            LicenseKeyRequest(purpose: .purchase(product: product, checkoutURL: checkout)), strings: try strings())
        XCTAssertEqual(form.title, "Finish in Your Browser")
        XCTAssertEqual(
            form.message,
            "Complete the checkout for Lumen Pro in your browser. Then enter the license key from your receipt email here.")
        XCTAssertEqual(form.fieldLabel, "License key")
        XCTAssertEqual(form.activate, "Activate")
        XCTAssertEqual(form.activating, "Activating…")
        XCTAssertEqual(form.cancel, "Cancel")
        XCTAssertEqual(form.checkoutAgain, .init(label: "Open checkout again", url: checkout))
        XCTAssertNil(form.problem, "nothing went wrong on the first ask")
    }

    func testARestoreAsksForTheKeyWithoutACheckout() throws {
        let form = LicenseKeyForm(LicenseKeyRequest(purpose: .restore), strings: try strings())
        XCTAssertEqual(form.title, "Enter Your License Key")
        XCTAssertNil(form.checkoutAgain)
    }

    func testTheTextsAreThePagesLanguage() throws {
        let german = LicenseKeyForm(
            LicenseKeyRequest(
                purpose: .purchase(product: product, checkoutURL: checkout),
                problem: LicenseError(.network, "offline"), attempt: 2), strings: try strings("de"))
        XCTAssertEqual(german.activate, "Aktivieren")
        XCTAssertTrue(german.message.contains("Lumen Pro"), german.message)
        XCTAssertEqual(german.problem, try strings("de").text("license.problem.network"))
        XCTAssertNotEqual(german.problem, try strings().text("license.problem.network"))
        let british = LicenseKeyForm(LicenseKeyRequest(purpose: .restore), strings: try strings("en_GB"))
        XCTAssertEqual(british.fieldLabel, "Licence key")
    }

    func testEachProblemIsToldApart() throws {
        let strings = try strings()
        func key(status: LicenseKeyStatus, limit: Int? = 2, usage: Int = 0) -> LicenseKeyDetails {
            LicenseKeyDetails(
                id: "1", status: status, key: "SECRET-KEY-4d51", activationLimit: limit, activationUsage: usage,
                createdAt: nil, expiresAt: nil)
        }
        let cases: [(LicenseError, String)] = [
            (LicenseError(.notFound, "404"), "license.problem.not_found"),
            (LicenseError(.rejected, "expired", licenseKey: key(status: .expired)), "license.problem.expired"),
            (LicenseError(.rejected, "disabled", licenseKey: key(status: .disabled)), "license.problem.disabled"),
            (LicenseError(.rejected, "limit", licenseKey: key(status: .active, limit: 1, usage: 1)), "license.problem.limit"),
            (
                LicenseError(.rejected, "other", licenseKey: key(status: .active, limit: nil, usage: 9)),
                "license.problem.rejected"
            ),
            (LicenseError(.rejected, "422"), "license.problem.rejected"),
            (LicenseError(.rateLimited, "429"), "license.problem.unavailable"),
            (LicenseError(.serverError, "503"), "license.problem.unavailable"),
            (LicenseError(.malformedResponse, "junk"), "license.problem.unavailable"),
            (LicenseError(.network, "offline"), "license.problem.network"),
            (LicenseError(.insecureURL, "http"), "license.problem.insecure_url"),
            (LicenseError(.emptyKey, "empty"), "license.problem.empty_key"),
            (LicenseError(.unknownProduct, "other product"), "license.problem.unknown_product"),
            (LicenseError(.noLicense, "none"), "license.problem.no_license"),
            (LicenseError(.storage, "disk full"), "license.problem.storage"),
        ]
        for (error, expected) in cases {
            let text = LicenseKeyForm.problem(error, strings: strings)
            XCTAssertEqual(text, strings.text(expected), "\(error.kind) \(error.message)")
            XCTAssertNotEqual(text, expected, "\(expected) has an English text")
        }
        XCTAssertEqual(
            LicenseKeyForm.problem(LicenseError(.notFound, "404"), strings: strings),
            "This license key was not found. Check that you copied all of it.")
    }
}
