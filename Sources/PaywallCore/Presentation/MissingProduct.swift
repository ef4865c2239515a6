/// A slot of a paywall whose product the catalog does not sell. Its page would show raw
/// `{{ primary.price }}`, so the runtime reports it (`paywallProductsLoad_fail`) and shows the
/// fallback paywall instead; `paywall present --strict` ends the run on it.
///
/// Without any catalog (no purchases and no preview catalog) nothing is checked: there is
/// nothing to check against, and such a page has no prices to show anyway.
package struct MissingProduct: Equatable, Sendable, CustomStringConvertible {
    /// Why the product is missing; the raw value is the event's `reason`.
    package enum Reason: String, Sendable {
        /// The catalog has no product with this id.
        case notInCatalog = "not_in_catalog"
    }

    /// The slot's name (`primary`, or any name the page uses).
    package let slot: String
    package let productId: String
    package let reason: Reason

    package init(slot: String, productId: String, reason: Reason) {
        self.slot = slot
        self.productId = productId
        self.reason = reason
    }

    package var description: String {
        "slot \(slot): product \(productId) is not in the catalog; fix the product id or add the product to the catalog"
    }

    /// The `paywallProductsLoad_fail` event's params.
    package var eventParams: [String: JSONValue] {
        ["slot": .string(slot), "product_id": .string(productId), "reason": .string(reason.rawValue)]
    }

    /// What a `present` or `register` result carries when slots' products did not resolve:
    /// `{"kind": "missing_products", "slots": [{"slot", "product_id", "reason"}]}`; nil for none.
    package static func problem(_ missing: [MissingProduct]) -> JSONValue? {
        guard !missing.isEmpty else { return nil }
        return ["kind": "missing_products", "slots": .array(missing.map { .object($0.eventParams) })]
    }
}
