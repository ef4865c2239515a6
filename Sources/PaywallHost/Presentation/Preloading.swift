import Foundation
import PaywallCore

/// Paywalls loaded ahead of time into hidden windows that share one web process, so
/// presenting one shows a finished page at once.
extension PaywallPresenter {
    /// Loads `bundle` into a hidden window ahead of time, so `presentPreloaded(id:)` shows a
    /// finished page at once: the window's first frame on screen carries the page (the window
    /// waits mapped off screen on X11, realized with its view shown elsewhere; see
    /// `HiddenDrawing`). Reports `paywallPreload_start` and `paywallPreload_complete` (with
    /// the preloads' estimated memory); the least recently preloaded beyond `maxPreloaded` or
    /// `preloadMemoryBudgetMB` are dropped with `paywallPreload_evicted`.
    /// `finished` runs once, always: when the page is ready, or when it is presented, dropped
    /// or still not ready after `options.loadTimeout` before that (see `PreloadEnd`).
    package func preload(
        _ bundle: PaywallBundle, as id: String, options: Options = Options(),
        finished: (@MainActor (PreloadEnd) -> Void)? = nil
    ) {
        discardPreloaded(id: id, reason: "replaced")
        while preloaded.count >= max(1, maxPreloaded) { evict(reason: "count") }
        let startsWebProcess = runtime.viewsInCurrentProcess == 0
        let before = memoryReader()
        let (presentation, entry) = prepare(bundle, options: options)
        events.emit(.paywallPreloadStart, ["paywall_identifier": .string(id)])
        presentation.preloadFinished = finished
        presentation.session.onReady = { [weak self, weak presentation] in
            presentation?.session.onReady = nil
            guard let self, let presentation, self.isPreloaded(id) else { return }
            let grown = Double(max(0, self.memoryReader() - before)) / 1_048_576
            presentation.preloadCostMB = startsWebProcess ? 0 : grown
            let used = self.preloaded.reduce(0) { $0 + $1.presentation.preloadCostMB }
            self.events.emit(
                .paywallPreloadComplete,
                [
                    "paywall_identifier": .string(id), "preloaded_memory_mb": .number((used * 10).rounded() / 10),
                ])
            self.keepWithinMemoryBudget(used: used)
            presentation.endPreload(.loaded)
        }
        MainLoop.after(seconds: options.loadTimeout) { [weak presentation] in
            presentation?.endPreload(.timedOut(options.loadTimeout))
        }
        presentation.view.drawWhileHidden()
        presentation.webView.load(entry)
        preloaded.append((id, presentation, options))
    }

    /// Whether `id` is loaded and waiting in a hidden window.
    package func isPreloaded(_ id: String) -> Bool { preloaded.contains { $0.id == id } }

    /// The paywall preloaded as `id`, still hidden (`paywall bench` watches its first frame).
    package func preloadedPresentation(id: String) -> PaywallPresentation? {
        preloaded.first { $0.id == id }?.presentation
    }

    /// Shows a preloaded paywall without reloading it: its first frame shows the page as it was
    /// drawn while hidden. Its template variables are worked out again as it shows, and sent
    /// only if they changed (the status or products may have); the page's update then lands in
    /// the frames after. Modal over `parent` when it is another process's window. Nil when `id`
    /// was not preloaded, or `parent` is a window of this app (its sheet is made for the parent).
    @discardableResult
    package func presentPreloaded(
        id: String, parent: ParentWindow? = nil,
        completion: @escaping @MainActor (PresentationResult) -> Void
    ) -> PaywallPresentation? {
        let (own, foreignParent) = parent?.placement ?? (nil, nil)
        guard own == nil, let index = preloaded.firstIndex(where: { $0.id == id }) else { return nil }
        let entry = preloaded.remove(at: index)
        let presentation = entry.presentation
        presentation.endPreload(.presentedBeforeReady)
        start(presentation, options: entry.options, foreignParent: foreignParent, completion: completion) {
            if presentation.needsReload {
                presentation.webView.reload()  // its web process died while it waited
            }
        } shown: {
            // After the window shows, so that its first frame comes at once; an update lands
            // in the frames after.
            if !presentation.needsReload { presentation.session.refreshTemplateVariables() }
        }
        return presentation
    }

    /// Evicts the least recently preloaded paywalls until what they were charged (`used` MB in
    /// all) fits the budget.
    private func keepWithinMemoryBudget(used: Double) {
        var used = used
        while used > preloadMemoryBudgetMB, preloaded.count > 1 {
            used -= preloaded[0].presentation.preloadCostMB
            evict(reason: "memory_budget")
        }
    }

    private func evict(reason: String) {
        let entry = preloaded.removeFirst()
        events.emit(.paywallPreloadEvicted, ["paywall_identifier": .string(entry.id), "reason": .string(reason)])
        discard(entry, reason: reason)
    }

    /// Drops a preloaded paywall without showing it.
    package func discardPreloaded(id: String) {
        discardPreloaded(id: id, reason: "discarded")
    }

    private func discardPreloaded(id: String, reason: String) {
        if let index = preloaded.firstIndex(where: { $0.id == id }) { discard(preloaded.remove(at: index), reason: reason) }
    }

    func discard(_ entry: (id: String, presentation: PaywallPresentation, options: Options), reason: String) {
        entry.presentation.endPreload(.dropped(reason: reason))
        entry.presentation.view.destroy()
        runtime.unmount(host: entry.presentation.webView.bundleHost)
        recycleWebProcessIfGrown()
    }
}
