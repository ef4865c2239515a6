import Foundation
import PaywallCore
import XCTest

/// A slot whose product the catalog does not sell: reported on stderr and as
/// `paywallProductsLoad_fail`, the fallback paywall shown instead of raw `{{ }}`, and under
/// `--strict` the run ends at once with `missing_product` and exit 4.
final class MissingProductTests: EndToEndTestCase {
    private var dataDir: String { workDir.appendingPathComponent("data").path }
    private let catalog = EndToEndTestCase.packageRoot.appendingPathComponent("templates/classic/store.json").path
    private let template = EndToEndTestCase.packageRoot.appendingPathComponent("templates/classic").path
    /// Waits for the template variables, sends what the page shows as a `custom` event, and closes.
    private let reportPage = """
        await new Promise(done => Paywall.variables ? done() : Paywall.on('template_variables', done));
        Paywall.custom(JSON.stringify({fallback: !!document.querySelector('link[href="fallback.css"]'), slots: Paywall.products,
                                       buttons: document.querySelectorAll('#products .product').length}));
        Paywall.close()
        """

    private func present(_ extra: [String]) throws -> PaywallProcess.Outcome {
        try PaywallProcess.run(
            ["present", template, "--store", catalog, "--data-dir", dataDir, "--events", eventsPath, "--timeout", "60"] + extra,
            in: workDir, timeout: 90)
    }

    /// What the page reported through `reportPage`.
    private func shown() throws -> JSONValue {
        let custom = try XCTUnwrap(loggedEvents().first { $0.name == .custom }, "\(eventNames())")
        return try JSONValue(parsing: custom.params["data"]?.stringValue ?? "")
    }

    func testAMissingProductIsReportedAndTheFallbackPaywallShown() throws {
        let result = try present(["--products", "secondary=lumen.pro.weekly", "--eval", reportPage])
        // The result says why the page was not shown (`problem`), as the app's `register` result does.
        XCTAssertEqual(
            result.stdout,
            #"{"result":"declined","problem":{"kind":"missing_products","slots":[{"product_id":"lumen.pro.weekly","#
                + #""reason":"not_in_catalog","slot":"secondary"}]}}"# + "\n", result.stderr)
        XCTAssertEqual(result.status, 0)
        XCTAssertTrue(result.stderr.contains("slot secondary: product lumen.pro.weekly is not in the catalog"), result.stderr)
        let failures = loggedEvents().filter { $0.name == .paywallProductsLoadFail }
        XCTAssertEqual(
            failures.map(\.params),
            [
                [
                    "slot": "secondary", "product_id": "lumen.pro.weekly", "reason": "not_in_catalog",
                    "paywall_identifier": "classic",
                ]
            ])
        let fallback = try XCTUnwrap(loggedEvents().first { $0.name == .paywallFallback })
        XCTAssertTrue(fallback.params["reason"]?.stringValue?.contains("lumen.pro.weekly") ?? false, "\(fallback.params)")
        // The fallback page, selling the two products that exist.
        let page = try shown()
        XCTAssertEqual(page["fallback"], true)
        XCTAssertEqual(page["buttons"], 2, "\(page)")
        XCTAssertEqual(page["slots"]?["secondary"], "lumen.pro.weekly")
    }

    /// `--products` lays its slots over the manifest's (primary, secondary, tertiary) rather than replacing them.
    func testProductsMergeWithTheManifestsSlots() throws {
        let result = try present(["--products", "secondary=lumen.pro.lifetime,hero=lumen.pro.monthly", "--eval", reportPage])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(eventNames().contains(.paywallProductsLoadFail), "\(eventNames())")
        XCTAssertFalse(eventNames().contains(.paywallFallback), "\(eventNames())")
        XCTAssertEqual(try shown()["fallback"], false)
        XCTAssertEqual(
            try shown()["slots"],
            [
                "primary": "lumen.pro.yearly", "secondary": "lumen.pro.lifetime", "tertiary": "lumen.pro.lifetime",
                "hero": "lumen.pro.monthly",
            ])
    }

    private func assertMissingProductLine(
        _ result: PaywallProcess.Outcome, slot: String, productId: String,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(
            result.stdout, "{\"result\":\"missing_product\",\"slot\":\"\(slot)\",\"product_id\":\"\(productId)\"}\n",
            result.stderr, file: file, line: line)
        XCTAssertEqual(result.status, 4, file: file, line: line)
    }

    func testStrictPresentEndsAtOnceOnAMissingProduct() throws {
        let result = try present(["--strict", "--products", "primary=lumen.pro.yerly"])
        assertMissingProductLine(result, slot: "primary", productId: "lumen.pro.yerly")
        XCTAssertFalse(eventNames().contains(.paywallOpen), "nothing is shown: \(eventNames())")
        // A manifest slot counts as much as one given on the command line.
        let bundle = workDir.appendingPathComponent("typo")
        try FileManager.default.copyItem(atPath: template, toPath: bundle.path)
        let manifest = bundle.appendingPathComponent("manifest.json")
        try String(contentsOf: manifest, encoding: .utf8).replacingOccurrences(of: "lumen.pro.monthly", with: "lumen.pro.montly")
            .write(to: manifest, atomically: true, encoding: .utf8)
        let fromManifest = try PaywallProcess.run(
            ["present", bundle.path, "--store", catalog, "--data-dir", dataDir, "--strict"], in: workDir)
        assertMissingProductLine(fromManifest, slot: "secondary", productId: "lumen.pro.montly")
    }

    func testStrictSnapshotEndsOnAMissingProductAndWritesNothing() throws {
        let png = workDir.appendingPathComponent("s.png")
        let result = try PaywallProcess.run(
            ["snapshot", template, "--out", png.path, "--strict", "--products", "badge=lumen.pro.none"], in: workDir)
        assertMissingProductLine(result, slot: "badge", productId: "lumen.pro.none")
        XCTAssertFalse(FileManager.default.fileExists(atPath: png.path))
    }

    func testStrictCustomerCenterEndsOnAChangePlanProductTheStoreLacks() throws {
        let config = workDir.appendingPathComponent("cc.json")
        try
            #"{"management": {"paths": [{"id": "change_plan", "type": "change_plan", "product_ids": ["lumen.pro.yearly", "lumen.pro.weekly"]}]}}"#
            .write(to: config, atomically: true, encoding: .utf8)
        let result = try PaywallProcess.run(
            [
                "customer-center", "--store", catalog, "--data-dir", dataDir, "--config", config.path, "--strict", "--timeout",
                "60",
            ],
            in: workDir, timeout: 90)
        assertMissingProductLine(result, slot: "management/change_plan", productId: "lumen.pro.weekly")
    }
}
