import CGtk
import PaywallCore
import XCTest

@testable import PaywallHost

/// Preloaded paywalls stay within their memory budget, least recently preloaded out first.
/// Real WebKit views; the memory readings are scripted so the budget's arithmetic is exact.
final class PreloadingTests: XCTestCase {
    @MainActor
    func testPreloadsOverTheMemoryBudgetEvictTheOldest() async throws {
        guard ProcessInfo.processInfo.environment["DISPLAY"] != nil else {
            XCTFail("needs a display: run the suite under `xvfb-run -a`")
            return
        }
        try Toolkit.initialize()
        let root = CustomerCenterPresenterTests.packageRoot
        let presenter = try PaywallPresenter(resources: RuntimeResources(root: root), locale: "en_US")
        var events: [PaywallEvent] = []
        presenter.events.observe { events.append($0) }
        // Before any preload, then after each one completes: 50 MB more each time.
        var readings = [1000, 1050, 1100, 1150].map { $0 * 1_048_576 }[...]
        presenter.memoryReader = { readings.popFirst() ?? 0 }
        presenter.preloadMemoryBudgetMB = 120
        presenter.maxPreloaded = 8
        let bundle = try PaywallBundle(path: root.appendingPathComponent("templates/classic").path)

        for (index, id) in ["a", "b", "c"].enumerated() {
            presenter.preload(bundle, as: id)
            let done = await runLoop { events.filter { $0.name == "paywallPreload_complete" }.count == index + 1 }
            XCTAssertTrue(done, "preload \(id) never completed")
        }
        XCTAssertEqual(events.filter { $0.name == "paywallPreload_complete" }.map { $0.params["preloaded_memory_mb"] },
                       [50, 100, 150])
        XCTAssertEqual(events.filter { $0.name == "paywallPreload_evicted" }.map(\.params),
                       [["paywall_identifier": "a", "reason": "memory_budget"]])
        XCTAssertEqual(["a", "b", "c"].map(presenter.isPreloaded), [false, true, true])

        // The count bound still applies, oldest first.
        presenter.maxPreloaded = 2
        presenter.preload(bundle, as: "d")
        XCTAssertEqual(events.filter { $0.name == "paywallPreload_evicted" }.last?.params,
                       ["paywall_identifier": "b", "reason": "count"])
        for id in ["c", "d"] { presenter.discardPreloaded(id: id) }
    }
}
