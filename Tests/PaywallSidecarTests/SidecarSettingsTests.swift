import Foundation
import PaywallCore
import PaywallSidecar
import XCTest

/// `initialize`'s params, read into the runtime's configuration.
final class SidecarSettingsTests: XCTestCase {
    private let catalog = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("templates/classic/store.json").path

    func testTheAppsControllerTheFakeStoreOrNone() throws {
        let app = try SidecarSettings(
            RPCParams([
                "catalog": .string(catalog), "controller": "app", "purchase_timeout_s": 5,
                "user_id": "ada", "locale": "de", "app_version": "2.1",
            ]))
        XCTAssertEqual(app.configuration.store, .controller(catalog: catalog))
        XCTAssertTrue(app.appController)
        XCTAssertEqual(app.purchaseTimeout, 5)
        XCTAssertEqual(app.configuration.userId, "ada")
        XCTAssertEqual(app.configuration.appVersion, "2.1")
        let fake = try SidecarSettings(RPCParams(["catalog": .string(catalog)]))
        XCTAssertEqual(fake.configuration.store, .fakeStore(catalog: catalog))
        XCTAssertEqual(fake.purchaseTimeout, 900)
        XCTAssertEqual(try SidecarSettings(RPCParams([:])).configuration.store, PaywallRuntime.Store.none)
    }

    func testConfigIsAFileAURLOrTheObject() throws {
        XCTAssertEqual(try SidecarSettings(RPCParams(["config": "c.json"])).configuration.config, .file("c.json"))
        XCTAssertEqual(
            try SidecarSettings(RPCParams(["config": "https://example.com/c.json"])).configuration.config,
            .url(URL(string: "https://example.com/c.json")!))
        let object: JSONValue = ["paywalls": [["id": "upsell", "manifest_url": "https://cdn.example.com/upsell/manifest.json"]]]
        guard case .value(let config) = try SidecarSettings(RPCParams(["config": object])).configuration.config else {
            return XCTFail("not a value")
        }
        XCTAssertEqual(config.paywalls.map(\.id), ["upsell"])
    }

    func testEveryWrongFieldIsNamed() {
        let cases: [([String: JSONValue], String)] = [
            (["controller": "app"], "catalog"),
            (["catalog": "/nonexistent/store.json"], "catalog"),
            (["catalog": .string(catalog), "controller": "shop"], "controller"),
            (["locale": "not a locale!"], "locale"),
            (["purchase_timeout_s": 0], "purchase_timeout_s"),
            (["data_dir": 1], "data_dir"),
            (["data_dir": ""], "data_dir"),
            (["data_dir": "/tmp/a\u{0}b"], "data_dir"),
            (["config": ["paywalls": 1]], "config"),
            (["datadir": "x"], "datadir"),
        ]
        for (params, field) in cases {
            XCTAssertThrowsError(try SidecarSettings(RPCParams(params)), field) { error in
                XCTAssertEqual((error as? RPCError)?.data, ["field": .string(field)], "\(params): \(error)")
            }
        }
    }
}
