import Foundation

/// Something that happened during a presentation, delivered to observers and the event log.
/// Names follow `PROTOCOL.md`; see `EventName` for the full list.
public struct PaywallEvent: Equatable, Sendable {
    public var name: String
    public var params: [String: JSONValue]
    public var timestamp: Date

    public init(_ name: String, _ params: [String: JSONValue] = [:], timestamp: Date = Date()) {
        self.name = name
        self.params = params
        self.timestamp = timestamp
    }

    /// One line of the event log: `{"name": ..., "params": {...}, "timestamp": "ISO 8601"}`.
    public var jsonLine: String {
        let stamp = timestamp.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        let object: JSONValue = ["name": .string(name), "params": .object(params), "timestamp": .string(stamp)]
        return object.jsonText
    }
}

/// The event names the runtime reports. Those shared with Superwall keep its spelling.
public enum EventName {
    public static let paywallOpen = "paywall_open"
    public static let paywallClose = "paywall_close"
    public static let paywallDecline = "paywall_decline"
    public static let webviewLoadStart = "paywallWebviewLoad_start"
    public static let webviewLoadComplete = "paywallWebviewLoad_complete"
    public static let webviewLoadFail = "paywallWebviewLoad_fail"
    public static let webviewProcessTerminated = "paywallWebviewLoad_processTerminated"
    /// A page's `custom` message; `params.data` holds its string.
    public static let custom = "custom"
    /// Ours: the page is ready (its `ping`, or its load when no ping came).
    public static let pageReady = "page_ready"
    /// Ours: a page message (or one event of it) could not be decoded. `params.reason`.
    public static let pageMessageInvalid = "pageMessage_invalid"
    /// Ours: a decoded page message this runtime version does not act on yet.
    public static let pageMessageUnsupported = "pageMessage_unsupported"
    /// Ours: a URL handed to the system browser. `params.url`, `params.source`.
    public static let urlOpenExternal = "url_openExternal"
    /// Ours: a navigation the policy refused. `params.url`, `params.reason`.
    public static let navigationBlocked = "navigation_blocked"
    /// Ours: a bundle file changed and `preview` reloaded the page.
    public static let bundleReload = "bundle_reload"
    /// Ours: a page asked for something its limits do not allow (`PageActionLimits`, user
    /// attribute sizes). `params.action` (the page message), `params.reason`.
    public static let pageActionRefused = "pageAction_refused"
    /// Ours: the user's language has no string table; the runtime's texts are English.
    /// `params.requested`, `params.resolved`. Once a process, when something is first shown.
    public static let localeFallback = "locale_fallback"
    /// Ours: the store made a purchase (or restore, or plan change) but the entitlement cache
    /// could not record it (a full or read-only disk). The purchase stands; the next refresh
    /// that can write brings the cache up to date. `params.message`, and for a purchase
    /// `params.product_identifier` and `params.transaction_id`.
    public static let entitlementCacheWriteFail = "entitlementCache_writeFail"
    /// Ours: the runtime showed one of its own dialogs (purchase pending, failed or
    /// unavailable; restore found nothing or failed). `params.title`, `params.message`, and
    /// `params.answer`: `"ok"` when `DialogPolicy.auto` answered it at once, null when it waits
    /// for the user.
    public static let dialogShown = "dialog_shown"
}
