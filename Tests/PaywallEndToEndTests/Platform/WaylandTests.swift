import Foundation
import PaywallCore
import XCTest

/// A smoke set of the end-to-end tests on Wayland (GNOME's and KDE's default session), under
/// Weston: a snapshot's size and pixels, a purchase, the customer center.
final class WaylandTests: EndToEndTestCase {
    private var weston: Weston!
    private var dataDir: String { workDir.appendingPathComponent("data").path }
    private let catalog = EndToEndTestCase.packageRoot.appendingPathComponent("templates/classic/store.json").path
    private let template = EndToEndTestCase.packageRoot.appendingPathComponent("templates/classic").path

    override func setUpWithError() throws {
        try super.setUpWithError()
        weston = try Weston(in: workDir)
    }

    override func tearDownWithError() throws {
        weston?.stop()
        try super.tearDownWithError()
    }

    private func run(_ arguments: [String], environment: [String: String?] = [:]) throws -> PaywallProcess.Outcome {
        try PaywallProcess.run(arguments, in: workDir, environment: weston.environment.merging(environment) { _, given in given })
    }

    func testSnapshotHasTheRequestedSizeAndThePagesPixels() throws {
        let bundle = try inlineBundle(
            "colour",
            body: """
                <style>html, body { margin: 0; height: 100%; background: rgb(10, 120, 200); }</style>
                <div style="position:fixed; left:0; top:0; width:40px; height:40px; background:rgb(250, 200, 0)"></div>
                """)
        for (size, expected) in [(nil, [400, 720]), ("320x480", [320, 480])] {
            let out = workDir.appendingPathComponent("wayland-\(size ?? "default").png").path
            let result = try run(["snapshot", bundle.path, "--out", out] + (size.map { ["--size", $0] } ?? []))
            XCTAssertEqual(result.status, 0, result.stderr)
            let image = try PNGImage(path: out)
            XCTAssertEqual([image.width, image.height], expected, "--size is the image's size")
            image.assertColor(20, 20, [250, 200, 0], "the page's top-left corner is the image's")
            image.assertColor(expected[0] - 5, expected[1] - 5, [10, 120, 200], "the page fills the image to its bottom")
        }
    }

    func testAPurchaseOnWayland() throws {
        let result = try run(
            [
                "present", template, "--store", catalog, "--data-dir", dataDir, "--products", "primary=lumen.pro.yearly",
                "--events", eventsPath, "--timeout", "30", "--eval", "document.getElementById('purchase').click()",
            ],
            environment: PaywallProcess.scribbledMemory)
        XCTAssertEqual(result.stdout, "{\"result\":\"purchased\",\"product_id\":\"lumen.pro.yearly\"}\n", result.stderr)
        XCTAssertEqual(result.status, 0)
        XCTAssertTrue(eventNames().contains(.transactionComplete))
    }

    func testTheCustomerCenterOnWayland() throws {
        XCTAssertEqual(try run(["store", "buy", "lumen.pro.monthly", "--store", catalog, "--data-dir", dataDir]).status, 0)
        let out = workDir.appendingPathComponent("cc.png").path
        let result = try run([
            "customer-center", "--store", catalog, "--data-dir", dataDir, "--snapshot", out,
            "--events", eventsPath,
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        let image = try PNGImage(path: out)
        XCTAssertEqual([image.width, image.height], [400, 720])
        XCTAssertGreaterThan(image.distinctColors(), 3, "the management screen is drawn")
        XCTAssertEqual(loggedEvents().first { $0.name == .customerCenterOpen }?.params["screen"], "management")
    }
}
