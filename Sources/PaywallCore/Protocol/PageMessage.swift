/// One event a paywall page sends to the host, decoded from the wire protocol
/// (`PROTOCOL.md`, "Page -> host"). Decoding lives in `PageEnvelopeDecoder`;
/// what each message does lives in `PaywallSession`.
package enum PageMessage: Equatable, Sendable {
    /// The page script is ready; `version` is the page script's version.
    case ping(version: String?)
    case close
    case restore
    case purchase(productId: String, shouldDismiss: Bool, slot: String?)
    /// In-app browsing; `browserType` is `"payment_sheet"` for web checkout sheets.
    case openURL(url: String, browserType: String?)
    case openURLExternal(url: String)
    case openDeepLink(link: String)
    case custom(data: String)
    case customPlacement(name: String, params: [String: JSONValue])
    /// Attributes in the order the page sent them.
    case userAttributesUpdated([UserAttribute])
    case requestStoreReview(reviewType: String)
    case scheduleNotification(Notification)
    case requestPermission(permissionType: String, requestId: String)
    case requestCallback(requestId: String, name: String, behavior: String, variables: [String: JSONValue]?)
    case hapticFeedback(hapticType: String)
    case pageView(PageView)
    /// `initiate_web_checkout` and the `stripe_checkout_*` family; `kind` is the event it reports.
    case webCheckout(kind: EventName, checkoutContextId: String, productId: String?)
    /// Ours: the runtime's page script met `{{ name }}` with no such template variable.
    case templateVariableUnknown(name: String)
    /// Ours: the runtime's page script refused a link (a `javascript:` URL, or a filled-in URL
    /// attribute that is no http, https, mailto or bundle URL).
    case navigationBlocked(url: String, reason: String)

    /// The wire name of the message, as the page sent it (snake_case).
    package var eventName: String {
        switch self {
        case .ping: "ping"
        case .close: "close"
        case .restore: "restore"
        case .purchase: "purchase"
        case .openURL: "open_url"
        case .openURLExternal: "open_url_external"
        case .openDeepLink: "open_deep_link"
        case .custom: "custom"
        case .customPlacement: "custom_placement"
        case .userAttributesUpdated: "user_attribute_updated"
        case .requestStoreReview: "request_store_review"
        case .scheduleNotification: "schedule_notification"
        case .requestPermission: "request_permission"
        case .requestCallback: "request_callback"
        case .hapticFeedback: "haptic_feedback"
        case .pageView: "page_view"
        case .webCheckout(let kind, _, _): kind.rawValue
        case .templateVariableUnknown: "template_variable_unknown"
        case .navigationBlocked: "navigation_blocked"
        }
    }

    package struct UserAttribute: Equatable, Sendable {
        package var key: String
        package var value: JSONValue
        package init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    package struct Notification: Equatable, Sendable {
        package var type: String
        package var title: String
        package var subtitle: String?
        package var body: String
        /// Milliseconds from now.
        package var delay: Double
        package init(type: String, title: String, subtitle: String?, body: String, delay: Double) {
            self.type = type
            self.title = title
            self.subtitle = subtitle
            self.body = body
            self.delay = delay
        }
    }

    package struct PageView: Equatable, Sendable {
        package var pageNodeId: String
        package var flowPosition: Double
        package var pageName: String
        package var navigationNodeId: String
        package var previousPageNodeId: String?
        package var previousFlowPosition: Double?
        package var type: String
        package var timeOnPreviousPageMs: Double?
        package init(
            pageNodeId: String, flowPosition: Double, pageName: String, navigationNodeId: String,
            previousPageNodeId: String? = nil, previousFlowPosition: Double? = nil, type: String,
            timeOnPreviousPageMs: Double? = nil
        ) {
            self.pageNodeId = pageNodeId
            self.flowPosition = flowPosition
            self.pageName = pageName
            self.navigationNodeId = navigationNodeId
            self.previousPageNodeId = previousPageNodeId
            self.previousFlowPosition = previousFlowPosition
            self.type = type
            self.timeOnPreviousPageMs = timeOnPreviousPageMs
        }
    }
}

extension PageMessage: PageChannelMessage {
    package static func decode(event: JSONValue) throws -> PageMessage {
        try PageEnvelopeDecoder.decodeEvent(event)
    }

    package var isPing: Bool {
        if case .ping = self { true } else { false }
    }
}
