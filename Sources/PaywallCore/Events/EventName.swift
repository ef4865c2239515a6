/// Every event the runtime reports, to observers (`EventDispatcher.observe`) and the event log.
/// The raw values are the names in the log and on the page: a contract with apps, testers and
/// pages, so they never change. Those shared with Superwall keep its spelling; "Ours" marks
/// names Superwall does not have. The documentation's event tables list exactly these cases
/// (`EventNameTests` checks it). Events of a presentation also carry `paywall_identifier`.
public enum EventName: String, CaseIterable, Sendable {
    // MARK: Presenting a paywall

    /// Whether a paywall was shown, decided by the subscription status. `params.status`
    /// (`presentation` / `noPresentation` / `timeout`), `params.reason`, `params.waited_ms`.
    case paywallPresentationRequest
    /// The paywall window is shown (also sent to the page once it is ready).
    case paywallOpen = "paywall_open"
    /// The page sent `close`, or the window was closed. `params.source` (`page` / `window`).
    case paywallDecline = "paywall_decline"
    /// The presentation ended (also sent to the page). `params.result`.
    case paywallClose = "paywall_close"
    /// A placement was registered and decided by the config (`PlacementOutcome`):
    /// `params.placement_name`, `params.result` (`paywall` / `holdout` / `no_audience_match` /
    /// `placement_not_found` / `paywall_not_available`), `params.experiment_id`,
    /// `params.variant_id`, `params.audience_id` (null when no campaign decided).
    case triggerFire = "trigger_fire"
    /// Ours: a campaign of the config has a problem and is left out (the rest loads).
    /// `params.campaign_id`, `params.path` (`campaigns[0].audiences[0].filter`), `params.reason`.
    case campaignRefused = "campaign_refused"
    /// Ours: the user's kept variant was removed from its experiment; they get their bucket's.
    /// `params.experiment_id`, `params.previous_variant_id`, `params.variant_id`.
    case assignmentReassign = "assignment_reassign"
    /// The page was not ready in time; Retry and Close are offered. `params.seconds`.
    case webviewLoadTimeout = "paywallWebviewLoad_timeout"
    /// The bundle could not load; the built-in fallback page lists the products. `params.reason`.
    case paywallFallback = "paywall_fallback"
    /// A slot's product is not in the catalog; the fallback paywall is shown instead of the
    /// page. `params.slot`, `params.product_id`, `params.reason` (`not_in_catalog`).
    case paywallProductsLoadFail = "paywallProductsLoad_fail"

    /// The user answered the paywall's survey (`PaywallSurvey`). `params.survey_id`,
    /// `params.assignment_key`, `params.trigger`, `params.option_id` (`other` for the
    /// free-text answer), `params.option_title`, `params.custom_text` (null but for `other`).
    case surveyResponse = "survey_response"
    /// The paywall's survey was closed unanswered. `params.survey_id`, `params.assignment_key`,
    /// `params.trigger`, `params.auto_answered`: true when `DialogPolicy.auto` closed it at
    /// once without showing it.
    case surveyClose = "survey_close"

    // MARK: Loading the page

    /// The page started loading. `params.url`.
    case webviewLoadStart = "paywallWebviewLoad_start"
    /// The page finished loading. `params.url`.
    case webviewLoadComplete = "paywallWebviewLoad_complete"
    /// The page failed to load. `params.url`, `params.reason`.
    case webviewLoadFail = "paywallWebviewLoad_fail"
    /// The web process died. `params.reason`.
    case webviewProcessTerminated = "paywallWebviewLoad_processTerminated"
    /// The page's `ping` message. `params.version`.
    case ping
    /// Ours: the page is ready (its `ping`, or its load when no ping came). `params.via`.
    case pageReady = "page_ready"

    // MARK: Page messages

    /// Ours: a page message (or one event of it) could not be decoded. `params.reason`, and
    /// `params.index`, `params.event_name` for one event of a batch.
    case pageMessageInvalid = "pageMessage_invalid"
    /// Ours: a decoded page message this runtime does not act on (no purchase controller).
    /// `params.event_name`, `params.reason`.
    case pageMessageUnsupported = "pageMessage_unsupported"
    /// Ours: a page asked for something its limits do not allow (`PageActionLimits`, user
    /// attribute sizes). `params.action` (the page message), `params.reason`.
    case pageActionRefused = "pageAction_refused"
    /// A page's `custom` message. `params.data`.
    case custom
    /// A page's `open_deep_link`, handed to the app. `params.link`.
    case deepLinkOpen = "deepLink_open"
    /// A page's `custom_placement`, handed to the app. `params.name`, `params.params`.
    case customPlacement
    /// A page's `user_attribute_updated`, kept for the user. `params.attributes`.
    case userAttributes = "user_attributes"
    /// A page's `request_store_review`. `params.review_type`.
    case storeReviewRequest = "storeReview_request"
    /// A page's `schedule_notification` was scheduled. `params.type`, `params.title`, `params.delay_ms`.
    case notificationScheduled = "notification_scheduled"
    /// A page's `schedule_notification` with no desktop notifier. Same params.
    case notificationUnavailable = "notification_unavailable"
    /// A page's `request_permission`. `params.permission_type`, `params.status`.
    case permissionRequest = "permission_request"
    /// A page's `request_callback`. `params.name`, `params.behavior`.
    case callbackRequest = "callback_request"
    /// A page's `haptic_feedback` (reported only: desktops have no haptics). `params.haptic_type`.
    case hapticFeedback = "haptic_feedback"
    /// A page's `page_view`, for analytics. `params.page_node_id`, `params.flow_position`, ...
    case pageView = "page_view"
    /// Ours: the page script met `{{ name }}` with no such template variable. `params.name`.
    case templateVariableUnknown = "templateVariable_unknown"

    // MARK: Web checkout (reported only; no web checkout runs on Linux)

    /// `params.checkout_context_id`, and `params.product_identifier` when the page sent one;
    /// the same for every web checkout step below.
    case initiateWebCheckout = "initiate_web_checkout"
    case stripeCheckoutStart = "stripe_checkout_start"
    case stripeCheckoutSubmit = "stripe_checkout_submit"
    case stripeCheckoutComplete = "stripe_checkout_complete"
    case stripeCheckoutFail = "stripe_checkout_fail"
    case stripeCheckoutAbandon = "stripe_checkout_abandon"

    // MARK: Navigation

    /// A URL handed to the system browser. `params.url`, `params.source`.
    case urlOpenExternal = "url_openExternal"
    /// A URL opened in the in-app browser window. `params.url`.
    case urlOpenInApp = "url_openInApp"
    /// Ours: a navigation the policy refused. `params.url`, `params.reason`.
    case navigationBlocked = "navigation_blocked"

    // MARK: Purchases and restores

    /// A purchase began (also sent to the page, as are all purchase and restore events).
    /// `params.product_identifier`.
    case transactionStart = "transaction_start"
    /// The purchase succeeded. `params.product_identifier`, `params.transaction_id`.
    case transactionComplete = "transaction_complete"
    /// After `transactionComplete`: a paid subscription began. Same params.
    case subscriptionStart = "subscription_start"
    /// After `transactionComplete`: a free trial began. Same params.
    case freeTrialStart = "freeTrial_start"
    /// After `transactionComplete`: a one-time or non-renewing purchase. Same params.
    case nonRecurringProductPurchase = "nonRecurringProduct_purchase"
    /// The user cancelled. `params.product_identifier`.
    case transactionAbandon = "transaction_abandon"
    /// The purchase failed, or the product id is unknown. `params.product_identifier`, `params.message`.
    case transactionFail = "transaction_fail"
    /// Ours: the purchase waits for approval (Ask to Buy). `params.product_identifier`.
    case transactionPending = "transaction_pending"
    /// The user already owns it: nothing charged. `params.product_identifier`.
    case transactionRestore = "transaction_restore"
    /// A restore began.
    case restoreStart = "restore_start"
    /// A restore found the user's purchases.
    case restoreComplete = "restore_complete"
    /// A restore found nothing or failed. `params.message`.
    case restoreFail = "restore_fail"
    /// Ours: the runtime showed one of its own dialogs (purchase pending, failed or
    /// unavailable; restore found nothing or failed). `params.title`, `params.message`, and
    /// `params.answer`: `"ok"` when `DialogPolicy.auto` answered it at once, null when it waits
    /// for the user.
    case dialogShown = "dialog_shown"

    // MARK: The user and the databases (no `paywall_identifier`)

    /// The subscription status changed. `params.user_id`, `params.status`, `params.entitlements`.
    case subscriptionStatusDidChange = "subscriptionStatus_didChange"
    /// The transactions or entitlements changed. `params.user_id`, `params.active_entitlements`,
    /// `params.transaction_count`.
    case customerInfoDidChange = "customerInfo_didChange"
    /// Ours: the store made a purchase (or restore, or plan change) but the entitlement cache
    /// could not record it (a full or read-only disk). The purchase stands; the next refresh
    /// that can write brings the cache up to date. `params.message`, and for a purchase
    /// `params.product_identifier` and `params.transaction_id`.
    case entitlementCacheWriteFail = "entitlementCache_writeFail"
    /// Ours: a corrupt or foreign database file was moved aside and a new one started.
    /// `params.path`, `params.moved_to`, `params.reason`.
    case databaseRecovered = "database_recovered"
    /// Ours: events meant for an analytics sink were lost, counted (`AnalyticsOutbox`).
    /// `params.sink` (`posthog` / `webhook`), `params.count`, `params.reason`: `rejected` (the
    /// sink answered 400 or 422), `too_large` (413 for one event), `queue_full` (past 10,000
    /// queued), `too_old` (queued over 30 days), `disk_full` (past the in-memory bound).
    case analyticsDropped = "analytics_dropped"
    /// Ours: the user's language has no string table; the runtime's texts are English.
    /// `params.requested`, `params.resolved`. Once a process, when something is first shown.
    case localeFallback = "locale_fallback"

    // MARK: Bundles and preloading

    /// Ours: a bundle file changed and `preview` reloaded the page. `params.files`.
    case bundleReload = "bundle_reload"
    /// Ours: a cached bundle version failed its hash check and is refused for good.
    /// `params.id`, `params.version`, `params.problems`.
    case bundleRefused = "bundle_refused"
    /// A paywall began loading in a hidden window. `params.paywall_identifier`.
    case paywallPreloadStart = "paywallPreload_start"
    /// A preloaded paywall is ready. `params.paywall_identifier`, `params.preloaded_memory_mb`.
    case paywallPreloadComplete = "paywallPreload_complete"
    /// A preloaded paywall was dropped. `params.paywall_identifier`, `params.reason`
    /// (`count` / `memory_budget`).
    case paywallPreloadEvicted = "paywallPreload_evicted"
    /// Ours: WebKit's web process had grown past `PaywallPresenter.webProcessGrowthBudgetMB`
    /// with nothing on screen; paywalls made from now on get a fresh one. `params.grown_mb`,
    /// `params.budget_mb`.
    case webProcessRecycle = "webProcess_recycle"

    // MARK: License keys

    /// Ours: a license key was activated on this machine. `params.license_key` (masked),
    /// `params.product_identifier`, `params.instance_name`, `params.activation_usage`,
    /// `params.activation_limit` (null: unlimited).
    case licenseActivate = "license_activate"
    /// Ours: a key entered or redeemed did not activate. `params.license_key` (masked),
    /// `params.reason` (`not_found`, `rejected`, `rate_limited`, `server_error`, `network`,
    /// `malformed_response`, `unknown_product`, ...), `params.message`.
    case licenseActivateFail = "license_activateFail"
    /// Ours: the license API answered a validation. `params.license_key` (masked),
    /// `params.status` (the key's: `active`, `expired`, `disabled`, `inactive`), `params.state`,
    /// `params.reason` (null while it gives access), `params.trigger` (`start`, `scheduled`, `demand`).
    case licenseValidate = "license_validate"
    /// Ours: a validation got no answer (offline, 429, 5xx) or a malformed one; the cached
    /// validation stands until the grace period ends. `params.license_key` (masked),
    /// `params.reason`, `params.message`, `params.retry_at`.
    case licenseValidateFail = "license_validateFail"
    /// Ours: this machine's activation was removed ("Deactivate this device"). `params.license_key` (masked).
    case licenseDeactivate = "license_deactivate"
    /// Ours: deactivating failed; the license stays. `params.license_key` (masked), `params.reason`, `params.message`.
    case licenseDeactivateFail = "license_deactivateFail"
    /// Ours: a redeem link (`SCHEME://paywall/redeem?license_key=KEY`) reached the runtime
    /// (`handleDeepLink`). `params.link` (its key masked), `params.queued` (true: it came
    /// before configuration and is redeemed once the runtime is configured).
    case deepLinkRedeem = "deepLink_redeem"

    // MARK: Customer center

    /// The customer center is shown. `params.screen`, `params.presentation`.
    case customerCenterOpen = "customerCenter_open"
    /// The customer center closed.
    case customerCenterClose = "customerCenter_close"
    /// A button or path was chosen. `params.action`, `params.path_id`, `params.product_id`, and
    /// `params.url` or `params.custom_identifier` when relevant.
    case customerCenterAction = "customerCenter_action"
    /// A survey was answered. `params.survey_id`, `params.option_id`, `params.action`,
    /// `params.path_id`, `params.product_id`.
    case customerCenterSurveyResponse = "customerCenter_surveyResponse"
    /// A refund request ended. `params.product_id`, `params.status`.
    case customerCenterRefundRequest = "customerCenter_refundRequest"
    /// Ours: the update feed could not be read. `params.reason`.
    case customerCenterUpdateCheckFail = "customerCenter_updateCheckFail"
    /// Ours: the configuration names something the catalog lacks. `params.reason`.
    case customerCenterConfigWarning = "customerCenter_configWarning"
    /// Ours: the customer center's page is loaded and can draw.
    case customerCenterPageReady = "customerCenter_pageReady"

    /// The web checkout steps a page may report (`PageMessage.webCheckout`).
    static let webCheckoutSteps: [EventName] = [
        .initiateWebCheckout, .stripeCheckoutStart, .stripeCheckoutSubmit, .stripeCheckoutComplete,
        .stripeCheckoutFail, .stripeCheckoutAbandon,
    ]
}
