import Foundation
import XCTest

@testable import PaywallCore

final class ProductSlotsTests: XCTestCase {
    private func slots(_ text: String) throws -> ProductSlots { try ProductSlots(parsing: text) }

    /// `--products` lays its slots over the manifest's: a slot given wins, the others stay,
    /// and a new (free-form) slot is added.
    func testMergingKeepsTheSlotsNotGivenAndLetsTheGivenOnesWin() throws {
        let manifest = try slots("primary=pro.yearly,secondary=pro.monthly")
        let merged = manifest.merging(try slots("secondary=pro.weekly,hero_badge=pro.lifetime"))
        XCTAssertEqual(merged, try slots("primary=pro.yearly,secondary=pro.weekly,hero_badge=pro.lifetime"))
        XCTAssertEqual(manifest.merging(ProductSlots()), manifest)
        XCTAssertEqual(ProductSlots().merging(manifest), manifest)
    }

    func testMissingProductsAreTheSlotsTheCatalogDoesNotSell() throws {
        let catalog = Catalog(products: [
            Product(id: "pro.yearly", displayName: "Pro", price: 1, currencyCode: "USD", kind: .nonConsumable)
        ])
        let page = try slots("primary=pro.yearly,secondary=pro.yerly,badge=gone")
        XCTAssertEqual(
            page.missingProducts(in: catalog),
            [
                MissingProduct(slot: "secondary", productId: "pro.yerly", reason: .notInCatalog),
                MissingProduct(slot: "badge", productId: "gone", reason: .notInCatalog),
            ])
        XCTAssertEqual(
            page.missingProducts(in: catalog)[0].eventParams,
            ["slot": "secondary", "product_id": "pro.yerly", "reason": "not_in_catalog"])
        XCTAssertEqual(try slots("primary=pro.yearly").missingProducts(in: catalog), [])
        // No catalog at all: nothing to check against, nothing reported.
        XCTAssertEqual(page.missingProducts(in: nil), [])
    }
}
