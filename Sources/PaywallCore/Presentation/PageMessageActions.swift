import Foundation

/// What the page's messages beyond closing, buying and links do on Linux. Each reports an
/// event; those only the app can act on go to its `PaywallDelegate`.
extension PaywallSession {
    func handleAppMessage(_ message: PageMessage) {
        switch message {
        case .openDeepLink(let link):
            events.emit(.deepLinkOpen, params(["link": .string(link)]))
            delegate?.handleDeepLink(link)
        case .customPlacement(let name, let placementParams):
            events.emit(.customPlacement, params(["name": .string(name), "params": .object(placementParams)]))
            delegate?.handleCustomPlacement(name: name, params: placementParams)
        case .userAttributesUpdated(let attributes):
            var values: [String: JSONValue] = [:]
            for attribute in attributes { values[attribute.key] = attribute.value }
            do {
                try onUserAttributes?(values)
            } catch {
                return refuse(message.eventName, "\(error)")
            }
            events.emit(.userAttributes, params(["attributes": .object(values)]))
        case .requestStoreReview(let reviewType):
            events.emit(.storeReviewRequest, params(["review_type": .string(reviewType)]))
            delegate?.handleStoreReviewRequest(reviewType: reviewType)
        case .scheduleNotification(let n):
            if let reason = limits.scheduleNotification() { return refuse(message.eventName, reason) }
            let shown =
                page?.scheduleNotification(
                    title: n.title, subtitle: n.subtitle, body: n.body,
                    delay: max(0, n.delay) / 1000) ?? false
            events.emit(
                shown ? .notificationScheduled : .notificationUnavailable,
                params([
                    "type": .string(n.type), "title": .string(n.title), "delay_ms": .number(n.delay),
                ]))
        case .requestPermission(let type, let requestId):
            let status = permissionStatus(type)
            events.emit(.permissionRequest, params(["permission_type": .string(type), "status": .string(status)]))
            deliver([
                "event_name": "permission_result", "permission_type": .string(type),
                "request_id": .string(requestId), "status": .string(status),
            ])
        case .requestCallback(let requestId, let name, let behavior, let variables):
            events.emit(.callbackRequest, params(["name": .string(name), "behavior": .string(behavior)]))
            let answer = { [weak self] (result: CallbackResult) in
                var reply: [String: JSONValue] = [
                    "event_name": "callback_result", "request_id": .string(requestId),
                    "name": .string(name),
                ]
                switch result {
                case .success(let data):
                    reply["status"] = "success"
                    if let data { reply["data"] = .object(data) }
                case .failure:
                    reply["status"] = "failure"
                }
                self?.deliver(.object(reply))
            }
            // Without an app handler the answer is known now: no hop through the main queue.
            guard let delegate else { return answer(.failure) }
            // Started at once: a handler that answers without waiting answers in this turn of
            // the loop, not after a hop through the main queue (a fifth of the bridge's round trip).
            Task.immediate { @MainActor in answer(await delegate.handleCallback(name: name, variables: variables)) }
        case .hapticFeedback(let type):
            // Desktops have no haptics: reported only, so a page's flow is visible in the log.
            events.emit(.hapticFeedback, params(["haptic_type": .string(type)]))
        case .pageView(let view):
            var p: [String: JSONValue] = [
                "page_node_id": .string(view.pageNodeId), "flow_position": .number(view.flowPosition),
                "page_name": .string(view.pageName), "navigation_node_id": .string(view.navigationNodeId),
                "type": .string(view.type),
            ]
            if let previous = view.previousPageNodeId { p["previous_page_node_id"] = .string(previous) }
            if let position = view.previousFlowPosition { p["previous_flow_position"] = .number(position) }
            if let time = view.timeOnPreviousPageMs { p["time_on_previous_page_ms"] = .number(time) }
            events.emit(.pageView, params(p))
        case .webCheckout(let kind, let contextId, let productId):
            // Web checkout (Stripe) is not run on Linux; the steps are reported for analytics.
            var p: [String: JSONValue] = ["checkout_context_id": .string(contextId)]
            if let productId { p["product_identifier"] = .string(productId) }
            events.emit(kind, params(p))
        case .templateVariableUnknown(let name):
            events.emit(.templateVariableUnknown, params(["name": .string(name)]))
        case .navigationBlocked(let url, let reason):
            events.emit(.navigationBlocked, params(["url": .string(url), "reason": .string(reason)]))
        case .custom(let data):
            events.emit(.custom, params(["data": .string(data)]))
            delegate?.handleCustom(data)
        case .ping, .close, .restore, .purchase, .openURL, .openURLExternal:
            events.emit(
                .pageMessageUnsupported,
                params([
                    "event_name": .string(message.eventName),
                    "reason": .string("no purchase controller is configured"),
                ]))
        }
    }

    /// Desktop notifications are the one permission Linux apps have; the others do not exist here.
    private func permissionStatus(_ type: String) -> String {
        switch type {
        case "notification", "notifications": notificationsAvailable ? "granted" : "denied"
        default: "unsupported"
        }
    }
}
