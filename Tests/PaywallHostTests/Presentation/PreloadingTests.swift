import CGtk
import PaywallCore
import XCTest

@testable import PaywallHost

/// Preloaded paywalls stay within their memory budget, least recently preloaded out first.
/// Real WebKit views; the memory readings are scripted so the budget's arithmetic is exact.
final class PreloadingTests: XCTestCase {
    @MainActor
    func testPreloadsOverTheMemoryBudgetEvictTheOldest() async throws {
        guard try startToolkitOnDisplay() else { return }
        let root = packageRoot
        let presenter = try PaywallPresenter(resources: RuntimeResources(root: root), locale: "en_US")
        var events: [PaywallEvent] = []
        presenter.events.observe { events.append($0) }
        // Each preload's start and completion: the first starts the web process (300 MB, not
        // charged), the others grow memory by 50 MB each.
        var readings = [1000, 1300, 1300, 1350, 1350, 1400, 1400, 1450].map { $0 * 1_048_576 }[...]
        presenter.memoryReader = { readings.popFirst() ?? 0 }
        presenter.preloadMemoryBudgetMB = 120
        presenter.maxPreloaded = 8
        let bundle = try PaywallBundle(path: root.appendingPathComponent("templates/classic").path)

        for (index, id) in ["a", "b", "c", "d"].enumerated() {
            presenter.preload(bundle, as: id)
            let done = await runLoop { events.filter { $0.name == .paywallPreloadComplete }.count == index + 1 }
            XCTAssertTrue(done, "preload \(id) never completed")
        }
        XCTAssertEqual(events.filter { $0.name == .paywallPreloadComplete }.map { $0.params["preloaded_memory_mb"] },
                       [0, 50, 100, 150])
        // 150 MB is over 120: the oldest go until it fits (a was charged nothing, b 50).
        XCTAssertEqual(events.filter { $0.name == .paywallPreloadEvicted }.map(\.params), [
            ["paywall_identifier": "a", "reason": "memory_budget"], ["paywall_identifier": "b", "reason": "memory_budget"],
        ])
        XCTAssertEqual(["a", "b", "c", "d"].map(presenter.isPreloaded), [false, false, true, true])

        // The count bound still applies, oldest first.
        presenter.maxPreloaded = 2
        presenter.preload(bundle, as: "e")
        XCTAssertEqual(events.filter { $0.name == .paywallPreloadEvicted }.last?.params,
                       ["paywall_identifier": "c", "reason": "count"])
        for id in ["d", "e"] { presenter.discardPreloaded(id: id) }
    }
}
