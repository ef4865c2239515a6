import Foundation

/// Decodes the JSON text a page posts to `paywallMessageHandler` into messages.
///
/// The envelope is `{"version": 1, "payload": {"events": [...]}}`. Each event is decoded on
/// its own: an unknown or malformed event becomes a `Problem` and the rest of the batch still
/// decodes (Superwall's iOS SDK drops the whole batch instead). Keys may be snake_case or
/// camelCase.
package struct PageEnvelopeDecoder: Sendable {
    /// Messages larger than this are rejected before parsing.
    package static let defaultMaximumBytes = 1 << 20

    package var maximumBytes: Int

    package init(maximumBytes: Int = PageEnvelopeDecoder.defaultMaximumBytes) {
        self.maximumBytes = maximumBytes
    }

    /// What one envelope held, in the page's order: each event decoded, or the problem with it.
    package struct Batch: Equatable, Sendable {
        package var items: [Result<PageMessage, Problem>]

        package init(items: [Result<PageMessage, Problem>] = []) {
            self.items = items
        }

        /// The events that decoded, in order.
        package var messages: [PageMessage] {
            items.compactMap { if case .success(let m) = $0 { m } else { nil } }
        }

        /// The events that did not decode, in order.
        package var problems: [Problem] {
            items.compactMap { if case .failure(let p) = $0 { p } else { nil } }
        }
    }

    /// An event of a batch that could not be decoded.
    package struct Problem: Error, Equatable, Sendable, CustomStringConvertible {
        /// Position of the event in the batch.
        package var index: Int
        /// The event's name, when it had a readable one.
        package var eventName: String?
        package var reason: String

        package var description: String {
            "event #\(index)\(eventName.map { " (\($0))" } ?? ""): \(reason)"
        }
    }

    /// Why a whole envelope was rejected.
    package enum EnvelopeError: Error, Equatable, CustomStringConvertible {
        case tooLarge(bytes: Int, limit: Int)
        case notJSON
        case notAnEnvelope(String)

        package var description: String {
            switch self {
            case .tooLarge(let bytes, let limit):
                "page message of \(bytes) bytes is over the \(limit)-byte limit; send smaller batches"
            case .notJSON:
                "page message is not JSON text; post JSON.stringify({version: 1, payload: {events: [...]}})"
            case .notAnEnvelope(let detail):
                "page message is not a protocol envelope (\(detail)); expected {\"version\": 1, \"payload\": {\"events\": [...]}}"
            }
        }
    }

    package func decode(_ text: String) throws(EnvelopeError) -> Batch {
        Batch(
            items: try events(in: text).enumerated().map { index, event in
                Result { () throws(EventError) in try Self.decodeEvent(event) }
                    .mapError { Problem(index: index, eventName: $0.eventName, reason: $0.reason) }
            })
    }

    /// The envelope's raw events, in order (for pages that speak their own events on the same envelope).
    package func events(in text: String) throws(EnvelopeError) -> [JSONValue] {
        let size = text.utf8.count
        guard size <= maximumBytes else { throw .tooLarge(bytes: size, limit: maximumBytes) }
        guard let root = try? JSONValue(parsing: text) else { throw .notJSON }
        guard let envelope = root.objectValue.map(KeyNormalizer.snakeCased) else {
            throw .notAnEnvelope("top level is not an object")
        }
        guard let payload = envelope["payload"]?.objectValue.map(KeyNormalizer.snakeCased) else {
            throw .notAnEnvelope("no \"payload\" object")
        }
        guard let events = payload["events"]?.arrayValue else {
            throw .notAnEnvelope("no \"payload.events\" array")
        }
        return events
    }

    static func decodeEvent(_ value: JSONValue) throws(EventError) -> PageMessage {
        guard let object = value.objectValue else { throw EventError(eventName: nil, reason: "event is not an object") }
        let fields = EventFields(KeyNormalizer.snakeCased(object))
        guard let nameValue = fields.raw["event_name"] else {
            throw EventError(eventName: nil, reason: "missing \"event_name\"")
        }
        guard let rawName = nameValue.stringValue else {
            throw EventError(eventName: nil, reason: "\"event_name\" must be a string")
        }
        do {
            return try message(named: KeyNormalizer.snakeCase(rawName), spelled: rawName, fields)
        } catch let error as EventError {
            // Name the event as the page spelled it, so the page's author can find it.
            throw EventError(eventName: rawName, reason: error.reason)
        } catch {
            throw EventError(eventName: rawName, reason: "\(error)")
        }
    }

    private static func message(named name: String, spelled rawName: String, _ f: EventFields) throws -> PageMessage {
        switch name {
        case "ping": return .ping(version: try f.optionalString("version"))
        case "close": return .close
        case "restore": return .restore
        case "purchase":
            return .purchase(
                productId: try f.string("product_identifier"),
                shouldDismiss: try f.optionalBool("should_dismiss") ?? true,
                slot: try f.optionalString("product"))
        case "open_url":
            return .openURL(url: try f.string("url"), browserType: try f.optionalString("browser_type"))
        case "open_url_external": return .openURLExternal(url: try f.string("url"))
        case "open_deep_link": return .openDeepLink(link: try f.string("link"))
        case "custom": return .custom(data: try f.string("data"))
        case "custom_placement":
            return .customPlacement(name: try f.string("name"), params: try f.optionalObject("params") ?? [:])
        case "user_attribute_updated":
            return .userAttributesUpdated(try f.userAttributes("attributes"))
        case "request_store_review": return .requestStoreReview(reviewType: try f.string("review_type"))
        case "schedule_notification":
            return .scheduleNotification(
                PageMessage.Notification(
                    type: try f.string("type"), title: try f.string("title"),
                    subtitle: try f.optionalString("subtitle"), body: try f.string("body"),
                    delay: try f.number("delay")))
        case "request_permission":
            return .requestPermission(permissionType: try f.string("permission_type"), requestId: try f.string("request_id"))
        case "request_callback":
            return .requestCallback(
                requestId: try f.string("request_id"), name: try f.string("name"),
                behavior: try f.string("behavior"), variables: try f.optionalObject("variables"))
        case "haptic_feedback": return .hapticFeedback(hapticType: try f.string("haptic_type"))
        case "page_view":
            return .pageView(
                PageMessage.PageView(
                    pageNodeId: try f.string("page_node_id"), flowPosition: try f.number("flow_position"),
                    pageName: try f.string("page_name"), navigationNodeId: try f.string("navigation_node_id"),
                    previousPageNodeId: try f.optionalString("previous_page_node_id"),
                    previousFlowPosition: try f.optionalNumber("previous_flow_position"),
                    type: try f.string("type"),
                    timeOnPreviousPageMs: try f.optionalNumber("time_on_previous_page_ms")))
        case "template_variable_unknown": return .templateVariableUnknown(name: try f.string("name"))
        case "navigation_blocked": return .navigationBlocked(url: try f.string("url"), reason: try f.string("reason"))
        default:
            // The web checkout messages are reported under their own names (`EventName`).
            if let step = EventName(rawValue: name), EventName.webCheckoutSteps.contains(step) {
                return .webCheckout(
                    kind: step, checkoutContextId: try f.string("checkout_context_id"),
                    productId: try f.optionalString("product_identifier"))
            }
            throw EventError(
                eventName: rawName, reason: "unknown event_name \"\(rawName)\"; see PROTOCOL.md for the known events")
        }
    }

    struct EventError: Error {
        var eventName: String?
        var reason: String
    }
}

/// Typed access to one event's fields, with errors that name the field and what was expected.
struct EventFields {
    let raw: [String: JSONValue]

    init(_ raw: [String: JSONValue]) { self.raw = raw }

    private func missing(_ key: String, _ type: String) -> PageEnvelopeDecoder.EventError {
        PageEnvelopeDecoder.EventError(eventName: nil, reason: "missing \(type) field \"\(key)\"")
    }

    private func wrongType(_ key: String, _ type: String) -> PageEnvelopeDecoder.EventError {
        let article = "aeiou".contains(type.first ?? "x") ? "an" : "a"
        return PageEnvelopeDecoder.EventError(eventName: nil, reason: "field \"\(key)\" must be \(article) \(type)")
    }

    private func optional<T>(_ key: String, _ type: String, _ pick: (JSONValue) -> T?) throws -> T? {
        guard let value = raw[key], value != .null else { return nil }
        guard let picked = pick(value) else { throw wrongType(key, type) }
        return picked
    }

    func optionalString(_ key: String) throws -> String? { try optional(key, "string") { $0.stringValue } }
    func optionalBool(_ key: String) throws -> Bool? { try optional(key, "boolean") { $0.boolValue } }
    func optionalObject(_ key: String) throws -> [String: JSONValue]? { try optional(key, "object") { $0.objectValue } }
    func optionalNumber(_ key: String) throws -> Double? {
        try optional(key, "number") { value in
            if case .number(let n) = value { return n }
            return nil
        }
    }

    func string(_ key: String) throws -> String {
        guard let s = try optionalString(key) else { throw missing(key, "string") }
        return s
    }

    func number(_ key: String) throws -> Double {
        guard let n = try optionalNumber(key) else { throw missing(key, "number") }
        return n
    }

    func userAttributes(_ key: String) throws -> [PageMessage.UserAttribute] {
        guard let list = try optional(key, "array", { $0.arrayValue }) else { throw missing(key, "array") }
        return try list.map { item in
            guard let pair = item.objectValue, let name = pair["key"]?.stringValue else {
                throw wrongType(key, "list of {key, value} objects")
            }
            return PageMessage.UserAttribute(key: name, value: pair["value"] ?? .null)
        }
    }
}
