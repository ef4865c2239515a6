import Foundation
import PaywallCLI
import PaywallCore
import PaywallHost

/// The medians `paywall bench` reports (milliseconds, and megabytes for memory).
struct BenchResults {
    var coldPresent: Double
    var preloadedPresent: Double
    var bridgeRTT: Double
    var rawBridgeRTT: Double
    var statusRead: Double
    var schemeServe: Double
    var fileServe: Double
    var preloadRSS: Double
    var customerCenterCold: Double
    var customerCenterPreloaded: Double
    /// Two frames on a page already on screen: the least any "until 2 frames" time can be.
    var twoFramesFloor: Double
    /// A 20-image `snapshot --out-dir` matrix; one `snapshot` of those images; the 20 separately.
    var snapshotMatrix: Double
    var snapshotSingle: Double
    var snapshotSeparate: Double

    var json: String {
        let values: [String: Double] = [
            "cold_present_ms": coldPresent, "preloaded_present_ms": preloadedPresent, "bridge_rtt_ms": bridgeRTT,
            "raw_bridge_rtt_ms": rawBridgeRTT, "status_read_ms": statusRead, "scheme_serve_ms": schemeServe,
            "file_serve_ms": fileServe, "preload_rss_mb": preloadRSS,
            "customer_center_cold_ms": customerCenterCold, "customer_center_preloaded_ms": customerCenterPreloaded,
            "two_frames_floor_ms": twoFramesFloor,
            "snapshot_matrix_20_ms": snapshotMatrix, "snapshot_single_ms": snapshotSingle,
            "snapshot_separate_20_ms": snapshotSeparate,
        ]
        return JSONValue.object(values.mapValues { .number(($0 * 1000).rounded() / 1000) }).jsonText
    }

    func table(runs: Int) -> String {
        func ms(_ v: Double) -> String { String(format: "%8.2f ms", v) }
        return """
            paywall bench: medians of \(runs) runs, \(ProcessInfo.processInfo.activeProcessorCount) cores
            present, cold (no preload), until 2 frames  \(ms(coldPresent))
            present, preloaded, until 2 frames          \(ms(preloadedPresent))   \(String(format: "%.3f", preloadedPresent / coldPresent)) x cold
            2 frames of a page already on screen        \(ms(twoFramesFloor))   (an idle page: the frame cadence)
            page -> Swift -> page round trip            \(ms(bridgeRTT))   \(String(format: "%.2f", bridgeRTT / rawBridgeRTT)) x raw WebKit
            raw WebKit round trip                       \(ms(rawBridgeRTT))
            status read in a fresh process              \(ms(statusRead))
            100 files / 5 MB through paywall://         \(ms(schemeServe))   \(String(format: "%.2f", schemeServe / fileServe)) x file://
            the same files over file://                 \(ms(fileServe))
            memory per extra preloaded paywall          \(String(format: "%8.1f MB", preloadRSS))
            customer center, cold, until 2 frames       \(ms(customerCenterCold))
            customer center, preloaded, until 2 frames  \(ms(customerCenterPreloaded))   \(String(format: "%.3f", customerCenterPreloaded / customerCenterCold)) x cold
            snapshot matrix of 20 images, one process   \(ms(snapshotMatrix))   \(String(format: "%.3f", snapshotMatrix / snapshotSeparate)) x 20 separate runs
            snapshot, one image per process             \(ms(snapshotSingle))
            the 20 images in 20 separate runs           \(ms(snapshotSeparate))
            """
    }
}

/// Runs each measurement in turn inside the GTK main loop.
@MainActor
struct Bench {
    let presenter: PaywallPresenter
    let runs: Int

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }

    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e6 }

    func measureAll(paywall: PaywallBundle, serving: PaywallBundle, work: URL) async throws -> BenchResults {
        // Memory first, before other runs leave pages to be freed while it is measured.
        let rss = try await preloadMemory(paywall)
        let cold = try await coldPresents(paywall)
        let preloaded = try await preloadedPresents(paywall)
        let (bridge, raw, scheme, file, floor) = try await pageMeasurements(serving)
        let status = try statusReads(work)
        let centerCold = try await customerCenterPresents(preloaded: false)
        let centerPreloaded = try await customerCenterPresents(preloaded: true)
        let snapshots = try snapshotRuns(paywall, work: work)
        return BenchResults(coldPresent: cold, preloadedPresent: preloaded, bridgeRTT: bridge, rawBridgeRTT: raw,
                            statusRead: status, schemeServe: scheme, fileServe: file, preloadRSS: rss,
                            customerCenterCold: centerCold, customerCenterPreloaded: centerPreloaded, twoFramesFloor: floor,
                            snapshotMatrix: snapshots.matrix, snapshotSingle: snapshots.single, snapshotSeparate: snapshots.separate)
    }

    /// Present a paywall that was not loaded before, until its page is ready and 2 frames painted.
    private func coldPresents(_ bundle: PaywallBundle) async throws -> Double {
        var times: [Double] = []
        for _ in 0..<runs {
            let start = Self.now()
            let presentation = presenter.present(bundle) { _ in }
            await ready(presentation.session)
            try await twoFrames(presentation.webView)
            times.append(Self.now() - start)
            presentation.dismiss()
        }
        return Self.median(times)
    }

    /// Present a paywall preloaded in a hidden window, until 2 frames are painted.
    private func preloadedPresents(_ bundle: PaywallBundle) async throws -> Double {
        var times: [Double] = []
        for _ in 0..<runs {
            presenter.preload(bundle, as: "bench")
            await event(.paywallPreloadComplete)
            let start = Self.now()
            guard let presentation = presenter.presentPreloaded(id: "bench", completion: { _ in }) else {
                throw BenchError("preloaded paywall missing")
            }
            await event(.paywallOpen)
            try await twoFrames(presentation.webView)
            times.append(Self.now() - start)
            presentation.dismiss()
        }
        return Self.median(times)
    }

    /// Present the customer center until its screen is drawn and 2 frames painted, loaded cold
    /// or preloaded (`preloadCustomerCenter`, its page ready before the clock starts).
    private func customerCenterPresents(preloaded: Bool) async throws -> Double {
        var times: [Double] = []
        for _ in 0..<runs {
            if preloaded {
                presenter.preloadCustomerCenter()
                await event(.customerCenterPageReady)
            }
            let start = Self.now()
            guard let view = presenter.presentCustomerCenter() else { throw BenchError("customer center not shown") }
            if view.session.renderedRevision == 0 {
                await withCheckedContinuation { done in
                    view.session.onRendered = {
                        view.session.onRendered = nil
                        done.resume()
                    }
                }
            }
            try await twoFrames(view.webView)
            times.append(Self.now() - start)
            presenter.dismissCustomerCenter()
        }
        return Self.median(times)
    }

    /// Bridge and raw round trips (medians of 200 each, per run) and serving 5 MB both ways.
    /// Also times two frames of that page, on screen and idle.
    private func pageMeasurements(_ serving: PaywallBundle) async throws -> (Double, Double, Double, Double, Double) {
        let presentation = presenter.present(serving, options: .init(countsAsView: false)) { _ in }
        await ready(presentation.session)
        BenchmarkProbes.installRawEcho(on: presentation.webView)
        var bridge: [Double] = [], raw: [Double] = [], scheme: [Double] = [], file: [Double] = [], frames: [Double] = []
        for _ in 0..<runs {
            let start = Self.now()
            try await twoFrames(presentation.webView)
            frames.append(Self.now() - start)
            bridge.append(try await number(presentation.webView, "return await benchBridge(200)"))
            raw.append(try await number(presentation.webView, "return await benchRaw(200)"))
            scheme.append(try await number(presentation.webView, "return await benchFetch()"))
            let fileURL = serving.root.appendingPathComponent("index.html")
            let result: String = await withCheckedContinuation { done in
                BenchmarkProbes.runInFileView(fileURL, script: "return await benchFetch()") { done.resume(returning: $0) }
            }
            guard let ms = Double(result) else { throw BenchError("file:// fetch failed: \(result)") }
            file.append(ms)
        }
        presentation.dismiss()
        return (Self.median(bridge), Self.median(raw), Self.median(scheme), Self.median(file), Self.median(frames))
    }

    /// `paywall status` in a new process each time: reading the SQLite cache at a cold start.
    private func statusReads(_ work: URL) throws -> Double {
        let data = work.appendingPathComponent("data").path
        let cache = try EntitlementCache(path: try DataDirectory(explicit: data).entitlementCache)
        try cache.appSetStatus(user: Purchases.anonymousUser, .active(["pro"]))
        var times: [Double] = []
        for _ in 0..<runs {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            process.arguments = ["status", "--data-dir", data, "--json"]
            process.standardOutput = FileHandle.nullDevice
            let start = Self.now()
            try process.run()
            process.waitUntilExit()
            times.append(Self.now() - start)
        }
        return Self.median(times)
    }

    /// Resident memory of the process tree added by each of three extra preloaded paywalls.
    private func preloadMemory(_ bundle: PaywallBundle) async throws -> Double {
        presenter.maxPreloaded = 8
        presenter.preloadMemoryBudgetMB = .infinity  // all four must stay loaded while measured
        presenter.preload(bundle, as: "base")
        await event(.paywallPreloadComplete)
        try await settle()
        let before = ProcessMemory.treeRSS()
        for index in 1...3 {
            presenter.preload(bundle, as: "extra\(index)")
            await event(.paywallPreloadComplete)
        }
        try await settle()
        let after = ProcessMemory.treeRSS()
        for id in ["base", "extra1", "extra2", "extra3"] { presenter.discardPreloaded(id: id) }
        return Double(after - before) / 3 / 1_048_576
    }

    // MARK: Waiting

    private func ready(_ session: PaywallSession) async {
        if session.readiness.isReady { return }
        await withCheckedContinuation { done in
            session.onReady = {
                session.onReady = nil
                done.resume()
            }
        }
    }

    /// The next event named `name`.
    private func event(_ name: EventName) async {
        await withCheckedContinuation { done in
            var token = 0
            var resumed = false
            token = presenter.events.observe { event in
                guard event.name == name, !resumed else { return }
                resumed = true
                presenter.events.removeObserver(token)
                done.resume()
            }
        }
    }

    private func twoFrames(_ webView: PaywallWebView) async throws {
        _ = try await number(webView, "await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r))); return 0")
    }

    private func settle() async throws {
        try await Task.sleep(nanoseconds: 500_000_000)
    }

    private func number(_ webView: PaywallWebView, _ body: String) async throws -> Double {
        let result: Result<String, PaywallWebView.ScriptError> = await withCheckedContinuation { done in
            webView.callAsync(body) { done.resume(returning: $0) }
        }
        let text = try result.get()
        guard let value = Double(text) else { throw BenchError("script gave \(text)") }
        return value
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
