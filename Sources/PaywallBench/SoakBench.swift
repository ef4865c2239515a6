import Foundation
import PaywallCore
import PaywallHost

/// What a long-running process keeps: resident memory before and after many present/dismiss
/// cycles of one paywall in this process, after a warm-up (the web process started, caches
/// filled). Growth is split between this process and WebKit's (web and network processes).
struct SoakGrowth {
    /// Megabytes the process tree, this process and WebKit's processes grew by.
    var tree = 0.0, ui = 0.0, webKit = 0.0
    /// How often the web process was recycled during the measured cycles (`webProcess_recycle`).
    var recycles = 0
}

extension Bench {
    /// Presents and dismisses `bundle` `warmUp + cycles` times, until each is ready and has
    /// painted two frames; memory is read after the warm-up and at the end. Cold: a new
    /// presentation each time. Preloaded: as an app does, preloaded, then presented, dismissed
    /// and preloaded again for next time.
    func soak(_ bundle: PaywallBundle, preloaded: Bool, warmUp: Int, cycles: Int) async throws -> SoakGrowth {
        let id = "soak"
        if preloaded {
            presenter.preload(bundle, as: id)
            await event(.paywallPreloadComplete)
        }
        func cycle() async throws {
            if preloaded {
                guard let presentation = presenter.presentPreloaded(id: id, completion: { _ in }) else {
                    throw BenchError("preloaded paywall missing")
                }
                await ready(presentation.session)
                try await twoFrames(presentation.webView)
                presentation.dismiss()
                presenter.preload(bundle, as: id)
                await event(.paywallPreloadComplete)
            } else {
                let presentation = presenter.present(bundle) { _ in }
                await ready(presentation.session)
                try await twoFrames(presentation.webView)
                presentation.dismiss()
            }
        }
        // Memory is read after a pause: the web process frees a closed page's memory a moment
        // later (its garbage collector runs on timers), and readings taken at once varied by
        // tens of MB from run to run.
        func settled() async throws -> [(pid: Int32, bytes: Int)] {
            try await Task.sleep(nanoseconds: 2_500_000_000)
            return ProcessMemory.tree()
        }
        for _ in 0..<warmUp { try await cycle() }
        let before = try await settled()
        var recycles = 0
        let token = presenter.events.observe { if $0.name == .webProcessRecycle { recycles += 1 } }
        for _ in 0..<cycles { try await cycle() }
        presenter.events.removeObserver(token)
        let after = try await settled()
        if preloaded { presenter.discardPreloaded(id: id) }
        func mb(_ tree: [(pid: Int32, bytes: Int)], ui: Bool) -> Double {
            Double(tree.filter { ($0.pid == getpid()) == ui }.reduce(0) { $0 + $1.bytes }) / 1_048_576
        }
        let uiGrowth = mb(after, ui: true) - mb(before, ui: true)
        let webKitGrowth = mb(after, ui: false) - mb(before, ui: false)
        return SoakGrowth(tree: uiGrowth + webKitGrowth, ui: uiGrowth, webKit: webKitGrowth, recycles: recycles)
    }
}
