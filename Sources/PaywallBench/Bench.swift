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
    var customerCenterColdSlowest: Double
    var customerCenterPreloaded: Double
    /// Two frames on a page already on screen: the least any "until 2 frames" time can be.
    var twoFramesFloor: Double
    /// A 20-image `snapshot --out-dir` matrix; one `snapshot` of those images; the 20 separately.
    var snapshotMatrix: Double
    var snapshotSingle: Double
    var snapshotSeparate: Double
    /// First content frames (`FirstFrameWatch`), and the plain window they are compared with.
    var plainWindowFirstFrame: Double
    var preloadedFirst: FirstFrames
    var coldFirst: FirstFrames
    var customerCenterPreloadedFirst: FirstFrames
    /// Whole processes: a minimal Swift Foundation program, and the commands that show no window.
    var swiftBaselineProcess: Double
    var commandProcesses: [(key: String, ms: Double)]
    /// Opening the entitlement cache and reading the cold-start status, in this process.
    var statusReadInProcess: Double
    /// A preloaded paywall presented by a request to `paywall serve` (`SidecarBench`).
    var sidecar: Bench.SidecarFigures
    /// Memory kept over `soakCycles` present/dismiss cycles after `soakWarmUp` (`SoakBench`).
    var soakWarmUp: Int
    var soakCycles: Int
    var coldSoak: SoakGrowth
    var preloadedSoak: SoakGrowth

    var json: String {
        var values: [String: Double] = [
            "cold_present_ms": coldPresent, "preloaded_present_ms": preloadedPresent, "bridge_rtt_ms": bridgeRTT,
            "raw_bridge_rtt_ms": rawBridgeRTT, "status_read_ms": statusRead, "scheme_serve_ms": schemeServe,
            "file_serve_ms": fileServe, "preload_rss_mb": preloadRSS,
            "customer_center_cold_ms": customerCenterCold, "customer_center_cold_slowest_ms": customerCenterColdSlowest,
            "customer_center_preloaded_ms": customerCenterPreloaded,
            "two_frames_floor_ms": twoFramesFloor,
            "snapshot_matrix_20_ms": snapshotMatrix, "snapshot_single_ms": snapshotSingle,
            "snapshot_separate_20_ms": snapshotSeparate,
            "plain_window_first_frame_ms": plainWindowFirstFrame,
            "preloaded_first_frame_ms": preloadedFirst.median, "preloaded_blank_frames": Double(preloadedFirst.mostBlank),
            "cold_first_frame_ms": coldFirst.median, "cold_white_frames": Double(coldFirst.mostWhite),
            "customer_center_preloaded_first_frame_ms": customerCenterPreloadedFirst.median,
            "customer_center_preloaded_blank_frames": Double(customerCenterPreloadedFirst.mostBlank),
            "swift_baseline_process_ms": swiftBaselineProcess, "status_read_in_process_ms": statusReadInProcess,
            "sidecar_preloaded_present_ms": sidecar.sidecar.median, "app_preloaded_present_ms": sidecar.facade.median,
            "soak_warmup_cycles": Double(soakWarmUp), "soak_cycles": Double(soakCycles),
            "cold_soak_rss_growth_mb": coldSoak.tree, "cold_soak_ui_rss_growth_mb": coldSoak.ui,
            "cold_soak_webkit_rss_growth_mb": coldSoak.webKit,
            "preloaded_soak_rss_growth_mb": preloadedSoak.tree, "preloaded_soak_ui_rss_growth_mb": preloadedSoak.ui,
            "preloaded_soak_webkit_rss_growth_mb": preloadedSoak.webKit,
            "cold_soak_web_process_recycles": Double(coldSoak.recycles),
            "preloaded_soak_web_process_recycles": Double(preloadedSoak.recycles),
        ]
        for (key, ms) in commandProcesses { values[key] = ms }
        return JSONValue.object(values.mapValues { .number(($0 * 1000).rounded() / 1000) }).jsonText
    }

    func table(runs: Int) -> String {
        func ms(_ v: Double) -> String { String(format: "%8.2f ms", v) }
        func ratio(_ a: Double, _ b: Double, _ what: String) -> String { String(format: "%.2f x ", a / b) + what }
        func soak(_ growth: SoakGrowth) -> String {
            String(
                format: "%8.1f MB   %.1f kB a cycle; this process %+.1f MB, WebKit's %+.1f MB; %d recycles", growth.tree,
                growth.tree * 1024 / Double(max(1, soakCycles)), growth.ui, growth.webKit, growth.recycles)
        }
        let processes = commandProcesses.map { key, value in
            let name = "paywall " + key.replacingOccurrences(of: "_process_ms", with: "")
            return name.padding(toLength: 44, withPad: " ", startingAt: 0)
                + "\(ms(value))   \(ratio(value, swiftBaselineProcess, "Swift baseline"))"
        }.joined(separator: "\n")
        return """
            paywall bench: medians of \(runs) runs, \(ProcessInfo.processInfo.activeProcessorCount) cores
            first content frame (pixels read back after each paint)
            plain GTK window with a label, first frame  \(ms(plainWindowFirstFrame))
            present, preloaded                          \(ms(preloadedFirst.median))   \(ratio(preloadedFirst.median, plainWindowFirstFrame, "plain window")), \(preloadedFirst.mostBlank) blank frames at most
            present, cold (no preload)                  \(ms(coldFirst.median))   \(coldFirst.mostBlank) blank frames at most, \(coldFirst.mostWhite) white
            customer center, preloaded                  \(ms(customerCenterPreloadedFirst.median))   \(customerCenterPreloadedFirst.mostBlank) blank frames at most
            \(sidecar.table(inProcess: preloadedFirst.median))
            until 2 requestAnimationFrames (the old figures)
            present, cold (no preload)                  \(ms(coldPresent))
            present, preloaded                          \(ms(preloadedPresent))   \(String(format: "%.3f", preloadedPresent / coldPresent)) x cold
            2 frames of a page already on screen        \(ms(twoFramesFloor))   (an idle page: the frame cadence)
            customer center, cold                       \(ms(customerCenterCold))   slowest run \(ms(customerCenterColdSlowest))
            customer center, preloaded                  \(ms(customerCenterPreloaded))   \(String(format: "%.3f", customerCenterPreloaded / customerCenterCold)) x cold
            the bridge, serving and memory
            page -> Swift -> page round trip            \(ms(bridgeRTT))   \(ratio(bridgeRTT, rawBridgeRTT, "raw WebKit"))
            raw WebKit round trip                       \(ms(rawBridgeRTT))
            100 files / 5 MB through paywall://         \(ms(schemeServe))   \(ratio(schemeServe, fileServe, "file://"))
            the same files over file://                 \(ms(fileServe))
            memory per extra preloaded paywall          \(String(format: "%8.1f MB", preloadRSS))
            growth over \(soakCycles) present/dismiss cycles, after \(soakWarmUp)
              cold                                      \(soak(coldSoak))
              preloaded                                 \(soak(preloadedSoak))
            status and processes
            status read in this process (open + read)   \(ms(statusReadInProcess))
            minimal Swift Foundation program            \(ms(swiftBaselineProcess))
            paywall status (a whole process)            \(ms(statusRead))   \(ratio(statusRead, swiftBaselineProcess, "Swift baseline"))
            \(processes)
            snapshots
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
    /// Present/dismiss cycles of the soak: not measured, then measured.
    let soakWarmUp: Int
    let soakCycles: Int

    nonisolated static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }

    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e6 }

    func measureAll(paywall: PaywallBundle, marked: PaywallBundle, serving: PaywallBundle, work: URL) async throws -> BenchResults
    {
        // Memory first, before other runs leave pages to be freed while it is measured.
        let rss = try await preloadMemory(paywall)
        let plain = try await plainWindowFirstFrames()
        let cold = try await coldPresents(marked)
        let preloaded = try await preloadedPresents(marked)
        let sidecar = try await sidecarPresents(marked, catalog: paywall.root.appendingPathComponent("store.json"), work: work)
        let (bridge, raw, scheme, file, floor) = try await pageMeasurements(serving)
        let status = try statusReads(work)
        let inProcess = try statusReadsInProcess(work)
        let baseline = try swiftBaseline()
        let processes = try commandProcesses(work, paywall: paywall)
        let centerCold = try await customerCenterPresents(preloaded: false)
        let centerPreloaded = try await customerCenterPresents(preloaded: true)
        let snapshots = try snapshotRuns(paywall, work: work)
        let coldSoak = try await soak(paywall, preloaded: false, warmUp: soakWarmUp, cycles: soakCycles)
        let preloadedSoak = try await soak(paywall, preloaded: true, warmUp: soakWarmUp, cycles: soakCycles)
        return BenchResults(
            coldPresent: cold.twoFrames, preloadedPresent: preloaded.twoFrames, bridgeRTT: bridge, rawBridgeRTT: raw,
            statusRead: status, schemeServe: scheme, fileServe: file, preloadRSS: rss,
            customerCenterCold: centerCold.twoFrames, customerCenterColdSlowest: centerCold.slowest,
            customerCenterPreloaded: centerPreloaded.twoFrames, twoFramesFloor: floor,
            snapshotMatrix: snapshots.matrix, snapshotSingle: snapshots.single, snapshotSeparate: snapshots.separate,
            plainWindowFirstFrame: plain, preloadedFirst: preloaded.first, coldFirst: cold.first,
            customerCenterPreloadedFirst: centerPreloaded.first, swiftBaselineProcess: baseline,
            commandProcesses: processes, statusReadInProcess: inProcess, sidecar: sidecar,
            soakWarmUp: soakWarmUp, soakCycles: soakCycles, coldSoak: coldSoak, preloadedSoak: preloadedSoak)
    }

    /// Present a paywall that was not loaded before: until its page is ready and 2 frames
    /// painted (the old figure), and its first content frame and white frames (`FirstFrameWatch`).
    private func coldPresents(_ bundle: PaywallBundle) async throws -> (twoFrames: Double, first: FirstFrames) {
        var times: [Double] = []
        var first = FirstFrames()
        for _ in 0..<runs {
            let start = Self.now()
            let presentation = presenter.present(bundle) { _ in }
            let watch = FirstFrameWatch(presentation.webView.widget, start: start)
            await ready(presentation.session)
            try await twoFrames(presentation.webView)
            times.append(Self.now() - start)
            first.add(try await watch.result())
            presentation.dismiss()
        }
        return (Self.median(times), first)
    }

    /// Present a paywall preloaded in a hidden window: its first content frame and the frames
    /// before it, and until 2 frames are painted (the old figure).
    private func preloadedPresents(_ bundle: PaywallBundle) async throws -> (twoFrames: Double, first: FirstFrames) {
        var times: [Double] = []
        var first = FirstFrames()
        for _ in 0..<runs {
            presenter.preload(bundle, as: "bench")
            await event(.paywallPreloadComplete)
            try await pause()  // preloaded ahead of time, not a moment ago
            let start = Self.now()
            guard let presentation = presenter.presentPreloaded(id: "bench", completion: { _ in }) else {
                throw BenchError("preloaded paywall missing")
            }
            let watch = FirstFrameWatch(presentation.webView.widget, start: start)
            await event(.paywallOpen)
            try await twoFrames(presentation.webView)
            times.append(Self.now() - start)
            first.add(try await watch.result())
            presentation.dismiss()
        }
        return (Self.median(times), first)
    }

    /// Present the customer center until its screen is drawn and 2 frames painted, loaded cold
    /// or preloaded (`preloadCustomerCenter`, its page ready and drawn, with the bench's marker,
    /// before the clock starts; then its first content frame is watched too). `slowest` is the
    /// longest run: the cold outliers.
    private func customerCenterPresents(preloaded: Bool) async throws -> (twoFrames: Double, slowest: Double, first: FirstFrames)
    {
        var times: [Double] = []
        var first = FirstFrames()
        for _ in 0..<runs {
            if preloaded {
                presenter.preloadCustomerCenter()
                await event(.customerCenterPageReady)
                guard let view = presenter.preloadedCustomerCenter else { throw BenchError("customer center not preloaded") }
                try await rendered(view.session)
                _ = try await number(
                    view.webView,
                    "document.documentElement.insertAdjacentHTML('beforeend', \(JSONValue.string(BenchFixtures.marker).jsonText)); return 0"
                )
                try await pause()
            }
            let start = Self.now()
            guard let view = presenter.presentCustomerCenter() else { throw BenchError("customer center not shown") }
            let watch = preloaded ? FirstFrameWatch(view.webView.widget, start: start) : nil
            try await rendered(view.session)
            try await twoFrames(view.webView)
            times.append(Self.now() - start)
            if let watch { first.add(try await watch.result()) }
            presenter.dismissCustomerCenter()
        }
        return (Self.median(times), times.max() ?? 0, first)
    }

    /// Until the page has drawn the session's latest screen.
    private func rendered(_ session: CustomerCenterSession) async throws {
        guard session.renderedRevision < session.revision || session.revision == 0 else { return }
        await withCheckedContinuation { done in
            session.onRendered = {
                session.onRendered = nil
                done.resume()
            }
        }
    }

    /// A plain GTK window with a label: from `gtk_widget_show_all` to its first painted frame.
    private func plainWindowFirstFrames() async throws -> Double {
        var times: [Double] = []
        for _ in 0..<runs {
            let window = BenchmarkProbes.PlainWindow()
            try await pause()  // realized a while before it is shown, as a preloaded paywall's is
            let start = Self.now()
            window.show()
            let watch = FirstFrameWatch(window.label, start: start, content: { _ in true })
            times.append(try await watch.result().ms)
            window.destroy()
        }
        return Self.median(times)
    }

    /// Bridge and raw round trips (medians of 200 each, per run) and serving 5 MB both ways.
    /// Also times two frames of that page, on screen and idle.
    private func pageMeasurements(_ serving: PaywallBundle) async throws -> (Double, Double, Double, Double, Double) {
        let presentation = presenter.present(serving, options: .init(countsAsView: false)) { _ in }
        await ready(presentation.session)
        BenchmarkProbes.installRawEcho(on: presentation.webView)
        var bridge: [Double] = []
        var raw: [Double] = []
        var scheme: [Double] = []
        var file: [Double] = []
        var frames: [Double] = []
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

    func ready(_ session: PaywallSession) async {
        if session.readiness.isReady { return }
        await withCheckedContinuation { done in
            session.onReady = {
                session.onReady = nil
                done.resume()
            }
        }
    }

    /// The next event named `name`.
    func event(_ name: EventName) async {
        var token = 0
        await withCheckedContinuation { done in
            var resumed = false
            token = presenter.events.observe { event in
                guard event.name == name, !resumed else { return }
                resumed = true
                done.resume()
            }
        }
        presenter.events.removeObserver(token)
    }

    func twoFrames(_ webView: PaywallWebView) async throws {
        _ = try await number(webView, "await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r))); return 0")
    }

    func settle() async throws {
        try await Task.sleep(nanoseconds: 500_000_000)
    }

    /// A moment for a page loaded or changed out of sight to be drawn there.
    func pause() async throws {
        try await Task.sleep(nanoseconds: 150_000_000)
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
