import Foundation
import XCTest

@testable import PaywallCore

/// What a runtime adds to each event for a report: the user, the locale and the event's uuid;
/// on a purchase, the catalog's price and currency and the user's assignments.
final class EventFieldsTests: XCTestCase {
    private var dir: URL!
    override func setUpWithError() throws { dir = try makeTemporaryDirectory("EventFieldsTests") }
    override func tearDown() { removeTemporaryDirectory(dir) }

    @MainActor
    func testAPurchasesEventsCarryThePriceCurrencyAndAssignments() async throws {
        let catalog = TestPaths.repository.appendingPathComponent("templates/classic/store.json").path
        let runtime = try PaywallRuntime(
            .init(dataDirectory: dir.path, store: .fakeStore(catalog: catalog), locale: "de_DE", userId: "alice", logLevel: .none)
        )
        try await runtime.setAssignment(experiment: "pricing", variant: "b")
        var heard: [PaywallEvent] = []
        runtime.events.observe { heard.append($0) }
        let product = try XCTUnwrap(runtime.catalog?.product(id: "lumen.pro.monthly"))
        guard case .purchased = await runtime.purchases!.purchase(product) else { return XCTFail("not bought") }

        let complete = try XCTUnwrap(heard.first { $0.name == .transactionComplete })
        XCTAssertEqual(complete.params["price"], .string(product.priceText))
        XCTAssertEqual(complete.params["currency"], .string(product.currencyCode))
        XCTAssertEqual(complete.params["assignments"], ["pricing": "b"])
        for event in heard {
            XCTAssertEqual(event.userId, "alice")
            XCTAssertEqual(event.locale, "de_DE")
            XCTAssertEqual(event.uuid?.count, 36)
        }
        XCTAssertEqual(Set(heard.compactMap(\.uuid)).count, heard.count, "each event its own uuid")
        let line = try JSONValue(parsing: complete.jsonLine)
        XCTAssertEqual(line["user_id"], "alice")
        XCTAssertEqual(line["locale"], "de_DE")
        XCTAssertEqual(line["uuid"], complete.uuid.map(JSONValue.string))
        XCTAssertNil(heard.first { !$0.name.rawValue.hasPrefix("transaction_") }?.params["assignments"])
    }
}
