import Foundation
import PaywallCore

/// Presenting and preloading a paywall by its name, with its result: what an app does without
/// a placement (and what `paywall serve` exposes). A name is a config entry's id (its bundle
/// from the bundle cache, or the runtime's fallback paywall while it is not cached), or a
/// bundle folder's path: anything with a `/`.
extension Paywalls {
    /// A paywall name that is neither a configured or cached paywall nor a bundle folder.
    public struct PaywallNotFound: Error, CustomStringConvertible {
        public let name: String
        public let reason: String
        public var description: String { "paywall \"\(name)\": \(reason)" }
    }

    /// Presents `paywall` in its own window, modal over `parent` when given (another
    /// process's window: `parentProblem` on the presentation says when it could not be used).
    /// One preloaded under this name (`preload(paywall:)`) shows from
    /// memory. `products` is laid over the paywall's slots (a slot with an empty product id is
    /// dropped: the page hides what sells it). `completion` gets the result when it closes.
    /// Throws `PaywallNotFound` (or the bundle's load error) when there is nothing to show.
    @discardableResult
    public func present(
        paywall: String, params: [String: JSONValue] = [:], parent: ParentWindow? = nil, products: ProductSlots = ProductSlots(),
        completion: @escaping @MainActor (PresentationResult) -> Void
    ) async throws -> PaywallPresentation {
        if params.isEmpty, products == ProductSlots(),
            let shown = presenter.presentPreloaded(id: paywall, parent: parent, completion: completion)
        {
            return shown
        }
        // Dismissed while its bundle is found: it is then dismissed as it starts, never shown.
        let asked = presenter.dismissals
        presenter.resolving += 1
        let resolved: (PaywallBundle, PaywallPresenter.Options, FileLock?)
        do {
            resolved = try await resolve(paywall)
            presenter.resolving -= 1
        } catch {
            presenter.resolving -= 1
            throw error
        }
        var (bundle, options, inUse) = resolved
        options.params = params
        options.slots = options.slots.merging(products)
        let shown = presenter.present(bundle, options: options, parent: parent) { result in
            withExtendedLifetime(inUse) {}
            completion(result)
        }
        presenter.dismissIfAskedBefore(asked, shown)
        return shown
    }

    /// For a `present(paywall:)` asked for before the task that calls it runs (the sidecar's):
    /// a `dismissPresented` meanwhile still counts it and reaches it. Returns the mark to give
    /// `presentationStarted`; call `reservationEnded` as the task starts.
    package func reservePresentation() -> Int {
        presenter.resolving += 1
        return presenter.dismissals
    }

    /// The reservation's task started (`present(paywall:)` counts itself from here).
    package func reservationEnded() { presenter.resolving -= 1 }

    /// Dismisses `presentation` at once when a `dismissPresented` came since `mark`.
    package func presentationStarted(_ presentation: PaywallPresentation, reservedAt mark: Int) {
        presenter.dismissIfAskedBefore(mark, presentation)
    }

    /// Loads `paywall` into a hidden window ahead of time, so `present(paywall:)` of the same
    /// name shows a finished page at once (`maxPreloaded` and `preloadMemoryBudgetMB` bound
    /// how many stay loaded). `finished` runs
    /// once, always: when the page is ready, or how the preload ended before (`PreloadEnd`).
    /// Throws as `present(paywall:)` does.
    public func preload(paywall: String, finished: (@MainActor (PreloadEnd) -> Void)? = nil) async throws {
        let (bundle, options, inUse) = try await resolve(paywall)
        presenter.preload(bundle, as: paywall, options: options) { end in
            withExtendedLifetime(inUse) {}
            finished?(end)
        }
    }

    /// `paywall` as a widget for the app to place: `.embedded` in one of its containers, or
    /// `.pushed` onto its navigation stack (a `GtkStack`): add `presentation.widget` to it. The
    /// page loads once the status check lets it show (a user with access gets `.skipped` and
    /// the widget stays empty); taking the widget out of its container closes the paywall as
    /// its close button would, and so does `presentation.dismiss()`. Throws as
    /// `present(paywall:)` does.
    public func paywallWidget(
        paywall: String, as style: PresentationStyle, params: [String: JSONValue] = [:],
        completion: @escaping @MainActor (PresentationResult) -> Void
    ) async throws -> PaywallPresentation {
        precondition(style != .sheet, "use present(paywall:params:parent:completion:) for a sheet")
        var (bundle, options, inUse) = try await resolve(paywall)
        options.params = params
        return presenter.paywallWidget(bundle, as: style, options: options) { result in
            withExtendedLifetime(inUse) {}
            completion(result)
        }
    }

    /// The paywall preloaded as `name`, still hidden (`paywall bench` watches its first frame).
    package func preloadedPresentation(_ name: String) -> PaywallPresentation? {
        presenter.preloadedPresentation(id: name)
    }

    /// Takes every paywall on screen down (each result `.declined`; a purchase running ends
    /// first); returns how many there were.
    @discardableResult
    public func dismissPresented() -> Int {
        presenter.dismissPresented()
    }

    /// The bundle, options (slots, condition, survey) and in-use lock that `name` stands for.
    private func resolve(_ name: String) async throws -> (PaywallBundle, PaywallPresenter.Options, FileLock?) {
        if name.contains("/") {
            return (try PaywallBundle(path: name), PaywallPresenter.Options(), nil)
        }
        let config = await runtime.config()
        if let entry = config?.entry(id: name) {
            guard var found = await cachedOrFallback(entry) else {
                throw PaywallNotFound(name: name, reason: "not cached, and the fallback paywall is missing")
            }
            found.1.condition = entry.condition ?? .checkUserSubscription
            return found
        }
        if let cached = try await CachedPaywall.find(id: name, config: config, in: runtime.bundleCache()) {
            var options = PaywallPresenter.Options(slots: cached.slots)
            options.survey = cached.survey
            return (cached.bundle, options, cached.inUse)
        }
        let known = config?.paywalls.map(\.id) ?? []
        throw PaywallNotFound(
            name: name,
            reason: "no config entry or cached bundle has this id"
                + (known.isEmpty ? "" : " (the config's paywalls: \(known.joined(separator: ", ")))")
                + "; a bundle folder's path needs a / (e.g. ./\(name))")
    }

    /// A config entry's bundle from the cache, or the fallback paywall with the entry's slots
    /// while it is not cached (reported as `paywall_fallback`); nil when neither exists.
    func cachedOrFallback(_ entry: PaywallConfig.Entry) async -> (PaywallBundle, PaywallPresenter.Options, FileLock?)? {
        var options = PaywallPresenter.Options()
        options.survey = entry.survey
        do {
            if let found = try await CachedPaywall.find(id: entry.id, config: await runtime.config(), in: runtime.bundleCache()) {
                options.slots = found.slots
                return (found.bundle, options, found.inUse)
            }
        } catch {
            events.emit(.paywallFallback, ["paywall_identifier": .string(entry.id), "reason": .string("\(error)")])
        }
        guard let fallback = presenter.runtime.fallbackBundle else { return nil }
        options.slots = entry.slots
        return (fallback, options, nil)
    }
}
