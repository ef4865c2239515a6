import Foundation

/// One message the customer-center page (`web/customer-center`) posts, in the page protocol's
/// envelope. The page only reports what the user touched; `CustomerCenterSession` decides.
package enum CustomerCenterMessage: Equatable, Sendable, PageChannelMessage {
    /// The page script is ready.
    case ping
    /// A row carrying `data-path-id`, with its purchase's `data-purchase-key` and
    /// `data-product-id` (or a plan's product id) when it has them.
    case path(id: String, purchaseKey: String?, productId: String?)
    /// A survey option (`data-option-id`).
    case option(id: String)
    /// A button carrying `data-action`: `back`, `close`, or a dialog's button.
    case action(String)
    /// The page drew the screen model of `revision`.
    case rendered(revision: Int)

    package var isPing: Bool { self == .ping }

    /// Decodes one event of the envelope; throws `PageEnvelopeDecoder.EventError` naming the field.
    package static func decode(event value: JSONValue) throws -> CustomerCenterMessage {
        guard let object = value.objectValue else {
            throw PageEnvelopeDecoder.EventError(eventName: nil, reason: "event is not an object")
        }
        let f = EventFields(KeyNormalizer.snakeCased(object))
        guard let name = try f.optionalString("event_name") else {
            throw PageEnvelopeDecoder.EventError(eventName: nil, reason: "missing string field \"event_name\"")
        }
        switch name {
        case "ping": return .ping
        case "customer_center_path":
            let entitlement = try f.optionalString("entitlement_id").map { "entitlement:\($0)" }
            return .path(
                id: try f.string("path_id"), purchaseKey: try f.optionalString("purchase_key") ?? entitlement,
                productId: try f.optionalString("product_id"))
        case "customer_center_option": return .option(id: try f.string("option_id"))
        case "customer_center_action": return .action(try f.string("action"))
        case "customer_center_rendered":
            let number = try f.number("revision")
            guard let revision = Int(exactly: number), revision >= 0 else {
                throw PageEnvelopeDecoder.EventError(
                    eventName: name, reason: "field \"revision\" must be a whole number of at least 0")
            }
            return .rendered(revision: revision)
        default:
            throw PageEnvelopeDecoder.EventError(
                eventName: name, reason: "unknown event_name \"\(name)\" for the customer center")
        }
    }
}
