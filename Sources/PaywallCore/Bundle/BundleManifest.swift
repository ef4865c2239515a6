import Foundation

/// The optional `manifest.json` of a bundle. This version reads the parts a presentation needs:
/// `products`, the product in each slot (`{"primary": "pro.yearly", ...}`), and
/// `preview_store`, a catalog inside the bundle that `preview` and `snapshot` use when no
/// `--store` is given, so designers see real prices.
public struct BundleManifest: Equatable, Sendable {
    public var slots: ProductSlots
    /// Absolute path of the preview catalog, when the manifest names one.
    public var previewStore: String?

    public static let fileName = "manifest.json"
    /// Slots in the order pages show them; others follow alphabetically.
    static let slotOrder = ["primary", "secondary", "tertiary"]

    public struct ParseError: Error, CustomStringConvertible {
        public let description: String
    }

    public init(slots: ProductSlots = ProductSlots(), previewStore: String? = nil) {
        self.slots = slots
        self.previewStore = previewStore
    }

    /// Reads `bundle`'s manifest; an empty manifest when the bundle has none.
    public init(bundle: PaywallBundle) throws(ParseError) {
        let url = bundle.root.appendingPathComponent(Self.fileName)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            self.init()
            return
        }
        guard let root = try? JSONDecoder().decode(JSONValue.self, from: data), let object = root.objectValue else {
            throw ParseError(description: "\(url.path) is not a JSON object; fix its syntax or remove it")
        }
        var entries: [(slot: String, productId: String)] = []
        if let products = object["products"] {
            guard let map = products.objectValue else {
                throw ParseError(description: "\(url.path): \"products\" must be an object of slot -> product id")
            }
            for (slot, value) in map {
                guard let id = value.stringValue, !id.isEmpty else {
                    throw ParseError(description: "\(url.path): products.\(slot) must be a product id string")
                }
                entries.append((slot, id))
            }
        }
        entries.sort { a, b in
            let (ia, ib) = (Self.slotOrder.firstIndex(of: a.slot) ?? 99, Self.slotOrder.firstIndex(of: b.slot) ?? 99)
            return ia != ib ? ia < ib : a.slot < b.slot
        }
        var previewStore: String?
        if let value = object["preview_store"] {
            guard let path = value.stringValue,
                let encoded = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed),
                case .file(let file) = BundlePathResolver(root: bundle.root).resolve(rawPath: "/" + encoded)
            else {
                throw ParseError(description: "\(url.path): \"preview_store\" must name a catalog file inside the bundle")
            }
            previewStore = file.path
        }
        self.init(slots: ProductSlots(entries), previewStore: previewStore)
    }
}
