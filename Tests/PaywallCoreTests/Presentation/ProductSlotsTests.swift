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

    /// `secondary=` drops the manifest's slot, also when laid over a config entry's slots
    /// first (`--products` over `products` over the manifest's); a dropped slot is neither
    /// sent to the page nor reported missing.
    func testASlotGivenNoProductIsDropped() throws {
        let manifest = try slots("primary=lumen.pro.yearly,secondary=lumen.pro.monthly,tertiary=lumen.pro.lifetime")
        let config = ProductSlots(inPageOrder: ["primary": "pdfapp.pro", "tertiary": ""])
        let merged = manifest.merging(config.merging(try slots("secondary=")))
        XCTAssertEqual(merged.entries.map(\.slot), ["primary"])
        XCTAssertEqual(merged.productId(forSlot: "primary"), "pdfapp.pro")
        XCTAssertEqual(
            merged.productsEvent, ["event_name": "products", "products": [["product": "primary", "productId": "pdfapp.pro"]]])
        let catalog = Catalog(products: [
            Product(id: "pdfapp.pro", displayName: "PDF App Pro", price: 49, currencyCode: "USD", kind: .nonConsumable)
        ])
        XCTAssertEqual(merged.missingProducts(in: catalog), [])
        XCTAssertEqual(manifest.merging(try slots("secondary=pro.weekly")).merging(try slots("secondary=")).entries.count, 2)
        XCTAssertEqual(manifest.merging(try slots("secondary=,secondary2=x")).productId(forSlot: "secondary2"), "x")
        XCTAssertThrowsError(try slots("=pro")) { XCTAssertTrue("\($0)".contains("secondary= drops a slot"), "\($0)") }
    }

    func testMissingProductsAreTheProblemOfTheResult() {
        let missing = [MissingProduct(slot: "secondary", productId: "lumen.pro.monthly", reason: .notInCatalog)]
        XCTAssertEqual(
            MissingProduct.problem(missing),
            [
                "kind": "missing_products",
                "slots": [["slot": "secondary", "product_id": "lumen.pro.monthly", "reason": "not_in_catalog"]],
            ])
        XCTAssertNil(MissingProduct.problem([]))
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
