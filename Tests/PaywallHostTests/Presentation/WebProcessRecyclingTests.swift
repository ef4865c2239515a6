import CGtk
import PaywallCore
import XCTest

@testable import PaywallHost

/// A web process grown past its budget is replaced when nothing is on screen. Real WebKit views
/// and processes (found in `/proc`); the memory readings are scripted so the budget is crossed
/// at every check after the first.
final class WebProcessRecyclingTests: XCTestCase {
    private let classic = packageRoot.appendingPathComponent("templates/classic").path

    /// Each reading of the web process's memory `megabytes` more than the last.
    @MainActor
    private func growEveryReading(_ presenter: PaywallPresenter, by megabytes: Int) {
        var reading = 0
        presenter.webProcessMemoryReader = { _ in
            reading += megabytes * 1_048_576
            return reading
        }
    }

    /// Presents `classic` and turns the loop until its page is ready.
    @MainActor
    private func presentReady(_ presenter: PaywallPresenter) async throws -> PaywallPresentation {
        let presentation = presenter.present(try PaywallBundle(path: classic)) { _ in }
        let ready = await runLoop { presentation.session.readiness.isReady }
        XCTAssertTrue(ready, "the paywall never became ready")
        return presentation
    }
    @MainActor
    func testAGrownWebProcessIsReplacedWithNothingOnScreenAndEndsWhenItsLastViewGoes() async throws {
        guard try startToolkitOnDisplay() else { return }
        let recording = try RecordingPresenter()
        let presenter = recording.presenter
        var recycles: [[String: JSONValue]] = []
        presenter.events.observe { if $0.name == .webProcessRecycle { recycles.append($0.params) } }
        growEveryReading(presenter, by: 1)  // over the budget from the second reading on
        presenter.webProcessGrowthBudgetMB = 0.5

        // Earlier tests' presenters (each with a context, so a process, of its own) may still run theirs.
        let others = Set(ProcessMemory.webProcesses())
        func ours() -> [Int32] { ProcessMemory.webProcesses().filter { !others.contains($0) } }
        let first = try await presentReady(presenter)
        let firstProcesses = ours()
        XCTAssertEqual(firstProcesses.count, 1, "every paywall view shares one web process")
        let old = try XCTUnwrap(firstProcesses.first)
        first.dismiss()  // its size now is the process's young size
        XCTAssertEqual(recycles.count, 0)
        let preloaded = try await recording.preload(classic, as: "kept")
        XCTAssertTrue(preloaded, "the preload never completed")

        // A paywall closing while another is on screen does not recycle the process under it.
        let below = try await presentReady(presenter)
        let above = try await presentReady(presenter)
        above.dismiss()
        XCTAssertEqual(recycles.count, 0, "recycled while a paywall was on screen")
        below.dismiss()
        XCTAssertEqual(recycles, [["grown_mb": 1, "budget_mb": .number(0.5)]])

        // The next paywall runs in a new process; the old one stays while the preloaded page holds it.
        let next = try await presentReady(presenter)
        let processes = ours()
        XCTAssertEqual(processes.count, 2, "a new web process beside the old one: \(processes)")
        XCTAssertTrue(processes.contains(old), "the preloaded paywall keeps the old process")
        next.dismiss()  // the new process's young size
        XCTAssertEqual(recycles.count, 1)

        // The preloaded paywall is still presented from memory: ready at once, not reloaded.
        presenter.webProcessGrowthBudgetMB = nil
        let kept = try XCTUnwrap(presenter.presentPreloaded(id: "kept") { _ in })
        XCTAssertTrue(kept.session.readiness.isReady, "the preloaded paywall was not shown from memory")
        XCTAssertFalse(kept.needsReload)
        kept.dismiss()
        let ended = await runLoop(timeout: 60) { !ours().contains(old) }
        XCTAssertTrue(ended, "the old web process still runs after its last view went")
        XCTAssertEqual(ours().count, 1)
    }

    /// A customer center on screen holds the process as a paywall does; its closing is a check too.
    @MainActor
    func testACustomerCenterOnScreenIsNotRecycledUnder() async throws {
        guard try startToolkitOnDisplay() else { return }
        let presenter = try PaywallPresenter(resources: RuntimeResources(root: packageRoot), locale: "en_US")
        var recycles = 0
        presenter.events.observe { if $0.name == .webProcessRecycle { recycles += 1 } }
        growEveryReading(presenter, by: 1)
        presenter.webProcessGrowthBudgetMB = 0.5
        try await presentReady(presenter).dismiss()  // the young size
        let center = try XCTUnwrap(presenter.presentCustomerCenter(offscreen: true))
        let drawn = await runLoop { center.session.renderedRevision > 0 }
        XCTAssertTrue(drawn, "the customer center never drew")
        try await presentReady(presenter).dismiss()
        XCTAssertEqual(recycles, 0, "recycled while the customer center was on screen")
        presenter.dismissCustomerCenter()
        XCTAssertEqual(recycles, 1, "the customer center's closing found the process over its budget")
    }

    /// Nil (or 0) turns recycling off: the process stays whatever it grows by.
    @MainActor
    func testNoBudgetNeverRecycles() async throws {
        guard try startToolkitOnDisplay() else { return }
        let presenter = try PaywallPresenter(resources: RuntimeResources(root: packageRoot), locale: "en_US")
        var recycled = false
        presenter.events.observe { if $0.name == .webProcessRecycle { recycled = true } }
        growEveryReading(presenter, by: 100)
        for budget in [nil, 0.0] {
            presenter.webProcessGrowthBudgetMB = budget
            for _ in 0..<2 { try await presentReady(presenter).dismiss() }
        }
        XCTAssertFalse(recycled)
    }
}
