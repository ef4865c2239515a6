/// How one `PaywallPresenter.preload` ended: its `finished` callback gets exactly one of these,
/// so a caller waiting on a preload (`paywall serve`'s `preload` request) is always answered.
public enum PreloadEnd: Equatable, Sendable {
    /// Its page is ready in the hidden window.
    case loaded
    /// Presented (`presentPreloaded`) before its page was ready: it shows as it finishes loading.
    case presentedBeforeReady
    /// Its page was not ready after the load timeout (seconds). It stays preloaded; presented,
    /// it shows what it has, as a cold page that slow would.
    case timedOut(Double)
    /// Dropped before its page was ready: `count` or `memory_budget` (evicted for a newer
    /// preload), `replaced` (preloaded again under its id) or `discarded` (`discardPreloaded`).
    case dropped(reason: String)

    /// What happened, in words, for a message to the app.
    public var description: String {
        switch self {
        case .loaded: "loaded"
        case .presentedBeforeReady: "presented before its page was ready; it shows as it finishes loading"
        case .timedOut(let seconds):
            "its page was not ready after \(seconds) s; it stays preloaded, and presenting it shows it as it loads"
        case .dropped("count"): "evicted before its page was ready: a newer preload went over maxPreloaded"
        case .dropped("memory_budget"): "evicted before its page was ready: the preloads went over the memory budget"
        case .dropped("replaced"): "replaced before its page was ready by a new preload under the same name"
        case .dropped(let reason): "dropped before its page was ready (\(reason))"
        }
    }
}
