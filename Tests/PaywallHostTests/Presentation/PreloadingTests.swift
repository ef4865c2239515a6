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
        XCTAssertEqual(
            events.filter { $0.name == .paywallPreloadComplete }.map { $0.params["preloaded_memory_mb"] },
            [0, 50, 100, 150])
        // 150 MB is over 120: the oldest go until it fits (a was charged nothing, b 50).
        XCTAssertEqual(
            events.filter { $0.name == .paywallPreloadEvicted }.map(\.params),
            [
                ["paywall_identifier": "a", "reason": "memory_budget"], ["paywall_identifier": "b", "reason": "memory_budget"],
            ])
        XCTAssertEqual(["a", "b", "c", "d"].map(presenter.isPreloaded), [false, false, true, true])

        // The count bound still applies, oldest first.
        presenter.maxPreloaded = 2
        presenter.preload(bundle, as: "e")
        XCTAssertEqual(
            events.filter { $0.name == .paywallPreloadEvicted }.last?.params,
            ["paywall_identifier": "c", "reason": "count"])
        for id in ["d", "e"] { presenter.discardPreloaded(id: id) }
    }

    /// Every preload hears how it ended, once: loaded, or dropped, replaced or presented before
    /// its page was ready, or not ready in time (`paywall serve` answers its `preload` with it).
    @MainActor
    func testEveryPreloadIsFinishedOnceWhateverHappensToIt() async throws {
        guard try startToolkitOnDisplay() else { return }
        let root = packageRoot
        let presenter = try PaywallPresenter(resources: RuntimeResources(root: root), locale: "en_US")
        let bundle = try PaywallBundle(path: root.appendingPathComponent("templates/classic").path)
        var ends: [String: [PreloadEnd]] = [:]
        func preload(_ id: String, as name: String, options: PaywallPresenter.Options = .init()) {
            presenter.preload(bundle, as: id, options: options) { ends[name, default: []].append($0) }
        }
        presenter.maxPreloaded = 1
        preload("a", as: "evicted")
        preload("b", as: "replaced")
        preload("b", as: "presented")
        XCTAssertEqual(ends["evicted"], [.dropped(reason: "count")], "a newer preload over maxPreloaded evicted it")
        XCTAssertEqual(ends["replaced"], [.dropped(reason: "replaced")])
        let shown = try XCTUnwrap(presenter.presentPreloaded(id: "b") { _ in })
        XCTAssertEqual(ends["presented"], [.presentedBeforeReady])

        var slow = PaywallPresenter.Options()
        slow.loadTimeout = 0  // the next turn of the loop: before any page can be ready
        preload("c", as: "slow", options: slow)
        let timedOut = await runLoop { ends["slow"] != nil }
        XCTAssertTrue(timedOut, "preload c never finished")
        XCTAssertEqual(ends["slow"], [.timedOut(0)])

        preload("d", as: "loaded")
        let loaded = await runLoop { ends["loaded"] != nil }
        XCTAssertTrue(loaded, "preload d never finished")
        XCTAssertEqual(ends["loaded"], [.loaded])
        presenter.discardPreloaded(id: "d")
        shown.dismiss()
        XCTAssertFalse(presenter.isPreloaded("c"), "preloading d evicted c, which had already finished (timed out)")
        XCTAssertEqual(
            ends.mapValues(\.count), ["evicted": 1, "replaced": 1, "presented": 1, "slow": 1, "loaded": 1],
            "each preload finished once")
    }
}
