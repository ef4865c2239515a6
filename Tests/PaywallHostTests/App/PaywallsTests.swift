import CGtk
import PaywallCore
import XCTest

@testable import PaywallHost

/// The app's entry point with real WebKit and real databases: placements gate features the way
/// Superwall's do. Needs a display.
final class PaywallsTests: XCTestCase {
    private var dir: URL!
    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("PaywallsTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    @MainActor
    private func configure() throws -> Paywalls {
        let config = dir.appendingPathComponent("paywalls.json")
        let template = packageRoot.appendingPathComponent("templates/classic").path
        try """
        {"paywalls": [{"id": "upsell", "manifest_url": "\(template)"}],
         "placements": {"export_pdf": {"paywall": "upsell", "gated": true},
                        "share": {"paywall": "upsell"},
                        "upgrade": {"paywall": "upsell", "gated": true, "presentation_condition": "always"}}}
        """.write(to: config, atomically: true, encoding: .utf8)
        let catalog = packageRoot.appendingPathComponent("templates/classic/store.json").path
        return try Paywalls.configure(
            .init(
                dataDirectory: dir.path, store: .fakeStore(catalog: catalog), config: .file(config.path),
                logLevel: .none),
            resources: RuntimeResources(root: packageRoot))
    }

    @MainActor
    func testAGatedFeatureRunsAtOnceForAnEntitledUserAndNotAfterADecline() async throws {
        guard try startToolkitOnDisplay() else { return }
        let paywalls = try configure()
        var fallbacks = 0
        paywalls.events.observe { if $0.name == .paywallFallback { fallbacks += 1 } }
        var shown: [PaywallPresentation] = []
        var dismissed: [PresentationResult] = []
        var skipped: [SkipReason] = []
        var ran = 0
        let handler = Paywalls.PlacementHandler(
            presented: { shown.append($0) }, dismissed: { dismissed.append($0) },
            skipped: { skipped.append($0) })
        // Not subscribed: the paywall shows; declining it leaves a gated feature locked.
        paywalls.register(placement: "export_pdf", handler: handler) { ran += 1 }
        let appeared = await runLoop { !shown.isEmpty }
        XCTAssertTrue(appeared, "the paywall never showed")
        shown[0].dismiss()
        _ = await runLoop { !dismissed.isEmpty }
        XCTAssertEqual(dismissed, [.declined])
        XCTAssertEqual(ran, 0, "a gated feature waits for access")
        XCTAssertEqual(fallbacks, 1, "a paywall not in the cache yet shows the fallback paywall")

        // Subscribed: nothing is shown and the feature runs at once.
        let product = try XCTUnwrap(paywalls.runtime.catalog?.product(id: "lumen.pro.monthly"))
        _ = await paywalls.runtime.purchases!.purchase(product)
        paywalls.register(placement: "export_pdf", handler: handler) { ran += 1 }
        _ = await runLoop { ran == 1 }
        XCTAssertEqual(ran, 1)
        XCTAssertEqual(skipped, [.subscribed])
        XCTAssertEqual(shown.count, 1, "no second paywall")

        // An upgrade paywall (`always`) is shown to the subscriber too; they keep their access.
        paywalls.register(placement: "upgrade", handler: handler) { ran += 1 }
        _ = await runLoop { shown.count == 2 }
        XCTAssertEqual(shown.count, 2)
        shown[1].dismiss()
        _ = await runLoop { ran == 2 }
        XCTAssertEqual(ran, 2, "a subscriber declining an upgrade still has the feature")
    }

    @MainActor
    func testANonGatedFeatureRunsAfterADeclineAndAnUnknownPlacementIsAnError() async throws {
        guard try startToolkitOnDisplay() else { return }
        let paywalls = try configure()
        var requests: [[String: JSONValue]] = []
        var fallbacks = 0
        var triggers: [[String: JSONValue]] = []
        paywalls.events.observe {
            if $0.name == .paywallPresentationRequest { requests.append($0.params) }
            if $0.name == .paywallFallback { fallbacks += 1 }
            if $0.name == .triggerFire { triggers.append($0.params) }
        }
        let cached = try await paywalls.cacheConfiguredPaywalls()
        XCTAssertEqual(cached.map(\.entry.id), ["upsell"])
        XCTAssertNotNil(try? cached.first?.result.get(), "the template is in the cache")
        var shown: [PaywallPresentation] = []
        var ran = 0
        paywalls.register(placement: "share", handler: .init(presented: { shown.append($0) })) { ran += 1 }
        _ = await runLoop { !shown.isEmpty }
        XCTAssertEqual(ran, 0, "not before the paywall closes")
        shown.first?.dismiss()
        _ = await runLoop { ran == 1 }
        XCTAssertEqual(ran, 1, "a non-gated feature runs after the paywall closes, whatever happened")
        XCTAssertEqual(fallbacks, 0, "a cached paywall is shown itself")

        var errors: [Paywalls.PlacementError] = []
        paywalls.register(placement: "teleport", handler: .init(error: { errors.append($0) })) { ran += 1 }
        _ = await runLoop { !errors.isEmpty }
        XCTAssertEqual(errors.map(\.placement), ["teleport"])
        guard case .placementNotFound(_, let reason)? = errors.first else { return XCTFail("\(errors)") }
        XCTAssertTrue(reason.contains("no placement \"teleport\""), reason)
        XCTAssertEqual(ran, 1, "nothing runs for an unknown placement")
        XCTAssertEqual(requests.last, ["placement": "teleport", "status": "noPresentation", "reason": "placementNotFound"])
        // Each registration fires its trigger, with the outcome's one vocabulary.
        XCTAssertEqual(triggers.map { $0["placement_name"] }, ["share", "teleport"])
        XCTAssertEqual(triggers.map { $0["result"] }, ["paywall", "placement_not_found"])
    }

    /// A second registration while a placement's paywall loads or shows opens no second window
    /// (a user tapping "Go Pro" again): Superwall's `paywallAlreadyPresented`. Once it closed,
    /// the next registration shows again.
    @MainActor
    func testOnePlacementsPaywallAtATime() async throws {
        guard try startToolkitOnDisplay() else { return }
        let paywalls = try configure()
        var requests: [[String: JSONValue]] = []
        paywalls.events.observe { if $0.name == .paywallPresentationRequest { requests.append($0.params) } }
        var shown: [PaywallPresentation] = []
        var errors: [Paywalls.PlacementError] = []
        var completed: [Bool] = []
        let handler = Paywalls.PlacementHandler(
            presented: { shown.append($0) }, error: { errors.append($0) },
            completed: { completed.append($0) })
        var ran = 0
        // Two taps in a row, before the first paywall is even on screen.
        paywalls.register(placement: "export_pdf", handler: handler) { ran += 1 }
        paywalls.register(placement: "share", handler: handler) { ran += 1 }
        _ = await runLoop { !shown.isEmpty && !errors.isEmpty }
        XCTAssertEqual(errors, [.paywallAlreadyPresented(placement: "share")])
        XCTAssertTrue(
            requests.contains(["placement": "share", "status": "noPresentation", "reason": "paywallAlreadyPresented"]),
            "\(requests)")
        // And one while it shows.
        paywalls.register(placement: "share", handler: handler) { ran += 1 }
        _ = await runLoop { errors.count == 2 }
        XCTAssertEqual(errors.count, 2)
        XCTAssertEqual(completed, [false, false])
        _ = await runLoop(timeout: 0.3) { false }
        XCTAssertEqual(shown.count, 1, "one paywall window")
        shown[0].dismiss()
        _ = await runLoop { completed.count == 3 }
        XCTAssertEqual(ran, 0)
        paywalls.register(placement: "share", handler: handler) { ran += 1 }
        _ = await runLoop { shown.count == 2 }
        XCTAssertEqual(shown.count, 2, "after the close a placement shows again")
        shown[1].dismiss()
        _ = await runLoop { ran == 1 }
    }
}
