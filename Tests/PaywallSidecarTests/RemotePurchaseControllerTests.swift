import Foundation
import PaywallCLI
import PaywallCore
import PaywallSidecar
import XCTest

/// The app's purchase controller over the wire: requests out, answers in, timeouts and cancels.
@MainActor
final class RemotePurchaseControllerTests: XCTestCase {
    private var sent: [JSONValue] = []
    private let product = Product(
        id: "pro.yearly", displayName: "Pro", price: Decimal(string: "39.99")!, currencyCode: "USD",
        kind: .autoRenewable, period: SubscriptionPeriod(value: 1, unit: .year), entitlements: ["pro"])

    private func controller(timeout: Double = 60) -> RemotePurchaseController {
        RemotePurchaseController(timeout: timeout) { [unowned self] in self.sent.append(try! JSONValue(parsing: $0)) }
    }

    private func settle() async {
        for _ in 0..<20 { await Task.yield() }
    }

    func testAPurchaseAsksTheAppWithTheProductAndItsPaywallAndTakesTheAnswer() async throws {
        let events = EventDispatcher()
        let controller = controller()
        controller.follow(events)
        for (answer, expected) in [
            ("purchased", "purchased"), ("cancelled", "cancelled"), ("pending", "pending"), ("failed", "failed"),
            ("refunded", "failed"),
        ] {
            sent = []
            events.emit(.transactionStart, ["product_identifier": "pro.yearly", "paywall_identifier": "upsell"])
            let task = Task { await controller.purchase(product) }
            await settle()
            let request = try XCTUnwrap(sent.first)
            XCTAssertEqual(request["method"], "purchase")
            XCTAssertEqual(request["params"]?["paywall_id"], "upsell")
            XCTAssertEqual(
                request["params"]?["product"], StoreReport.product(product), "the object paywall store products --json prints")
            XCTAssertTrue(
                controller.receive(id: request["id"]!, outcome: .success(["result": .string(answer), "message": "declined"])))
            let result = await task.value
            XCTAssertEqual("\(result)".prefix(expected.count), Substring(expected), answer)
            XCTAssertFalse(controller.receive(id: request["id"]!, outcome: .success(["result": "purchased"])), "answered once")
        }
    }

    func testNoAnswerWithinTheTimeoutFailsThePurchase() async throws {
        let controller = controller(timeout: 0.05)
        let result = await controller.purchase(product)
        guard case .failed(let error) = result else { return XCTFail("\(result)") }
        XCTAssertTrue("\(error)".contains("purchase_timeout_s"), "\(error)")
        XCTAssertEqual(controller.pendingCount, 0)
        XCTAssertFalse(
            controller.receive(id: sent[0]["id"]!, outcome: .success(["result": "purchased"])), "a late answer is ignored")
    }

    func testAPaywallClosedMeanwhileCancelsAndTellsTheApp() async throws {
        let controller = controller()
        let purchase = Task { await controller.purchase(product) }
        await settle()
        controller.paywallClosedDuringPurchase()
        guard case .cancelled = await purchase.value else { return XCTFail("not cancelled") }
        XCTAssertEqual(sent.last, ["jsonrpc": "2.0", "method": "purchaseCancelled", "params": ["id": sent[0]["id"]!]])
        let restore = Task { await controller.restorePurchases() }
        await settle()
        controller.cancelAll()
        guard case .failed = await restore.value else { return XCTFail("a cancelled restore restored") }
    }

    /// The app's message of a `failed` answer is what the paywall's dialog shows; a timeout is an unknown error there.
    func testTheAppsFailureMessageIsTheDialogsReason() async throws {
        let controller = controller(timeout: 0.05)
        let task = Task { await controller.purchase(product) }
        await settle()
        controller.receive(id: sent[0]["id"]!, outcome: .success(["result": "failed", "message": "Karte abgelehnt"]))
        guard case .failed(let error) = await task.value else { return XCTFail("not failed") }
        XCTAssertEqual((error as? LocalizedError)?.errorDescription, "Karte abgelehnt")
        guard case .failed(let timeout) = await controller.purchase(product) else { return XCTFail("not failed") }
        XCTAssertNil((timeout as? LocalizedError)?.errorDescription)
    }

    func testAnErrorAnswerFailsWithTheAppsMessage() async throws {
        let controller = controller()
        let task = Task { await controller.restorePurchases() }
        await settle()
        controller.receive(id: sent[0]["id"]!, outcome: .failure(RPCError(code: 1, message: "server down")))
        guard case .failed(let error) = await task.value else { return XCTFail("restored") }
        XCTAssertTrue("\(error!)".contains("server down"))
    }
}
