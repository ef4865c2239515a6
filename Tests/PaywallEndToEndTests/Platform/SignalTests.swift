import Foundation
import PaywallCore
import XCTest

/// A window command stopped by a signal (a tester's Ctrl+C, a supervisor's SIGTERM) ends what
/// it shows as a dismissal would: the close is logged, the result printed, exit 128 + signal.
final class SignalTests: EndToEndTestCase {
    private func start(_ arguments: [String]) throws -> PaywallProcess {
        try PaywallProcess(arguments + ["--events", eventsPath], in: workDir)
    }

    func testSIGTERMClosesAPresentedPaywallCleanly() throws {
        let bundle = try inlineBundle("idle", body: "<p>waiting</p>")
        let process = try start(["present", bundle.path, "--timeout", "60"])
        waitForEvents { $0.contains { $0.name == .pageReady } }
        kill(process.process.processIdentifier, SIGTERM)
        let result = process.wait()
        XCTAssertEqual(result.status, 128 + SIGTERM, result.stderr)
        XCTAssertEqual(result.stdout, "{\"result\":\"declined\"}\n")
        XCTAssertEqual(eventNames().last, .paywallClose)
        XCTAssertEqual(loggedEvents().last?.params["result"], "declined")
    }

    func testSIGINTClosesAPreviewCleanly() throws {
        let bundle = try inlineBundle("idle", body: "<p>waiting</p>")
        let process = try start(["preview", bundle.path])
        waitForEvents { $0.contains { $0.name == .pageReady } }
        kill(process.process.processIdentifier, SIGINT)
        let result = process.wait()
        XCTAssertEqual(result.status, 128 + SIGINT, result.stderr)
        XCTAssertEqual(eventNames().last, .paywallClose)
    }

    func testSIGTERMClosesTheCustomerCenterCleanly() throws {
        let process = try start(["customer-center", "--timeout", "60", "--data-dir", workDir.appendingPathComponent("data").path])
        waitForEvents { $0.contains { $0.name == .customerCenterOpen } }
        kill(process.process.processIdentifier, SIGTERM)
        let result = process.wait()
        XCTAssertEqual(result.status, 128 + SIGTERM, result.stderr)
        XCTAssertEqual(result.stdout, "{\"result\":\"closed\"}\n")
        XCTAssertEqual(eventNames().last, .customerCenterClose)
    }

    /// A close during a purchase waits for the store; a second signal does not wait.
    func testASecondSignalDuringAPurchaseExitsAtOnceWithTheSignalsCode() throws {
        let catalog = EndToEndTestCase.packageRoot.appendingPathComponent("templates/classic/store.json").path
        let data = workDir.appendingPathComponent("data").path
        XCTAssertEqual(
            try PaywallProcess.run(
                [
                    "store", "set-outcome", "success", "--delay", "3600", "--store", catalog,
                    "--data-dir", data,
                ], in: workDir
            ).status, 0)
        let bundle = try inlineBundle("buy", body: "<p>buy</p>")
        let process = try start([
            "present", bundle.path, "--store", catalog, "--data-dir", data, "--products",
            "primary=lumen.pro.monthly", "--timeout", "60", "--eval", "Paywall.purchase('primary')",
        ])
        waitForEvents { $0.contains { $0.name == .transactionStart } }
        kill(process.process.processIdentifier, SIGTERM)
        usleep(300_000)
        XCTAssertTrue(process.process.isRunning, "the first signal waits for the store's answer")
        kill(process.process.processIdentifier, SIGTERM)
        let result = process.wait()
        XCTAssertEqual(result.status, 128 + SIGTERM, result.stderr)
        XCTAssertEqual(result.stdout, "", "nothing is known of the purchase: no result line")
        XCTAssertTrue(result.stderr.contains("the outcome of anything still running is unknown"), result.stderr)
    }
}
