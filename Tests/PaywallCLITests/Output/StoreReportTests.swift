import Foundation
import PaywallCore
import XCTest

@testable import PaywallCLI

/// The JSON `paywall store products --json` prints, which the sidecar also sends the app with a purchase.
final class StoreReportTests: XCTestCase {
    func testAProductsPriceIsTheCatalogsText() throws {
        let catalog = try CatalogFile.parse(
            Data(
                #"""
                {"products": [
                  {"id": "pdfapp.pro", "display_name": "PDF App Pro", "price": "49.00", "currency": "USD",
                   "kind": "non_consumable"},
                  {"id": "yen", "display_name": "Yen", "price": "500", "currency": "JPY", "kind": "consumable"}
                ]}
                """#.utf8))

        XCTAssertEqual(catalog.products.map { StoreReport.product($0)["price"] }, ["49.00", "500"])
    }
}
