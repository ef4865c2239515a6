import Foundation

/// Which product fills each named slot of a paywall (`primary`, `secondary`, `tertiary`, ...),
/// written `primary=ID,secondary=ID` on the command line. A slot given no product
/// (`secondary=`, or `null` in a config entry's `products`) is dropped from the slots it is laid
/// over (`merging`): the page gets no product for it and hides its `data-product-slot` elements.
public struct ProductSlots: Equatable, Sendable {
    /// Slot name and product id, in the order given.
    public private(set) var entries: [(slot: String, productId: String)]
    /// The slots these drop when laid over others.
    public private(set) var dropped: [String]

    /// `entries` with an empty product id are slots to drop.
    public init(_ entries: [(slot: String, productId: String)] = []) {
        self.entries = entries.filter { !$0.productId.isEmpty }
        dropped = entries.filter(\.productId.isEmpty).map(\.slot)
    }

    public static func == (a: ProductSlots, b: ProductSlots) -> Bool {
        a.entries.elementsEqual(b.entries) { $0.slot == $1.slot && $0.productId == $1.productId } && a.dropped == b.dropped
    }

    /// Slots in the order pages show them; others follow alphabetically.
    static let pageOrder = ["primary", "secondary", "tertiary"]

    /// Slots from a JSON object of slot -> product id (manifests, configs), in page order; an
    /// empty id drops the slot.
    package init(inPageOrder map: [String: String]) {
        let rank = { (slot: String) in Self.pageOrder.firstIndex(of: slot) ?? Self.pageOrder.count }
        self.init(
            map.sorted { a, b in rank(a.key) != rank(b.key) ? rank(a.key) < rank(b.key) : a.key < b.key }
                .map { (slot: $0.key, productId: $0.value) })
    }

    package struct ParseError: Error, CustomStringConvertible {
        package let description: String
    }

    /// Parses `primary=ID,secondary=ID`; `secondary=` (no id) drops the slot.
    package init(parsing text: String) throws(ParseError) {
        var entries: [(String, String)] = []
        for pair in text.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, !parts[0].isEmpty else {
                throw ParseError(
                    description: "'\(pair)' is not SLOT=PRODUCT_ID; write e.g. primary=pro.yearly,secondary=pro.monthly "
                        + "(secondary= drops a slot)")
            }
            guard !entries.contains(where: { $0.0 == parts[0] }) else {
                throw ParseError(description: "slot '\(parts[0])' is given twice")
            }
            entries.append((parts[0], parts[1]))
        }
        self.init(entries)
    }

    /// These slots with `overrides` laid over them: a slot of `overrides` wins, one it drops is
    /// gone, the others are kept (`--products` and a config entry's `products` over the
    /// manifest's). The drops carry on, so a drop on the command line still drops the
    /// manifest's slot when laid over a config entry's slots first. Slot names are free-form.
    package func merging(_ overrides: ProductSlots) -> ProductSlots {
        var merged = entries.filter { !overrides.dropped.contains($0.slot) }.map { entry in
            (slot: entry.slot, productId: overrides.productId(forSlot: entry.slot) ?? entry.productId)
        }
        merged += overrides.entries.filter { productId(forSlot: $0.slot) == nil }
        var result = ProductSlots(merged)
        result.dropped = (dropped + overrides.dropped).reduce(into: []) { drops, slot in
            if !drops.contains(slot), result.productId(forSlot: slot) == nil { drops.append(slot) }
        }
        return result
    }

    /// The slots whose product `catalog` does not sell, in slot order. Without a catalog
    /// nothing can be checked, so nothing is reported missing (`MissingProduct` says why).
    package func missingProducts(in catalog: Catalog?) -> [MissingProduct] {
        guard let catalog else { return [] }
        return entries.filter { catalog.product(id: $0.productId) == nil }
            .map { MissingProduct(slot: $0.slot, productId: $0.productId, reason: .notInCatalog) }
    }

    public func productId(forSlot slot: String) -> String? {
        entries.first { $0.slot == slot }?.productId
    }

    /// The page's `products` event: `{"event_name":"products","products":[{"product":"primary","productId":"..."}]}`.
    package var productsEvent: JSONValue {
        .object([
            "event_name": "products",
            "products": .array(entries.map { .object(["product": .string($0.slot), "productId": .string($0.productId)]) }),
        ])
    }
}
