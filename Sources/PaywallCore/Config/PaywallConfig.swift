import Foundation

/// The paywalls an app uses, as a JSON document (a file or a URL):
///
/// ```json
/// {"paywalls": [{"id": "promo", "manifest_url": "https://cdn.example.com/promo/manifest.json",
///                "products": {"primary": "pro.yearly"}, "preload": true}]}
/// ```
///
/// `manifest_url` may also be a local directory. `products` overrides the bundle's own slots;
/// `preload` (default false) keeps the bundle pinned in the cache and loaded ahead of time.
/// `survey` (optional) attaches a `PaywallSurvey`.
public struct PaywallConfig: Equatable, Sendable {
    public struct Entry: Equatable, Sendable {
        public var id: String
        public var source: String
        public var slots: ProductSlots
        public var preload: Bool
        /// Asked when the paywall closes (`survey`, see `PaywallSurvey(json:path:)`).
        public var survey: PaywallSurvey? = nil
    }

    public var paywalls: [Entry]

    public struct ParseError: Error, CustomStringConvertible {
        public let description: String
    }

    public init(paywalls: [Entry]) {
        self.paywalls = paywalls
    }

    public init(data: Data, origin: String) throws(ParseError) {
        func fail(_ message: String) -> ParseError { ParseError(description: "\(origin): \(message)") }
        let root: JSONValue
        do {
            root = try JSONParser.parseFile(Array(data))
        } catch {
            throw fail("not a config: not valid JSON (\(error)); expected {\"paywalls\": [...]}")
        }
        guard let list = root["paywalls"]?.arrayValue else { throw fail("not a config: expected {\"paywalls\": [...]}") }
        var entries: [Entry] = []
        for (index, item) in list.enumerated() {
            guard let id = item["id"]?.stringValue, !id.isEmpty else { throw fail("paywalls[\(index)] needs an \"id\"") }
            guard let source = item["manifest_url"]?.stringValue, !source.isEmpty else {
                throw fail("paywalls[\(index)] (\"\(id)\") needs a \"manifest_url\"")
            }
            guard !entries.contains(where: { $0.id == id }) else { throw fail("paywall id \"\(id)\" appears twice") }
            var slots = ProductSlots()
            if let products = item["products"] {
                guard let map = products.objectValue, map.values.allSatisfy({ $0.stringValue != nil }) else {
                    throw fail("paywalls[\(index)] (\"\(id)\"): \"products\" must be an object of slot -> product id")
                }
                slots = ProductSlots(inPageOrder: map.compactMapValues(\.stringValue))
            }
            if let preload = item["preload"], preload.boolValue == nil {
                throw fail("paywalls[\(index)] (\"\(id)\"): \"preload\" must be true or false")
            }
            var survey: PaywallSurvey?
            do { survey = try item["survey"].map { json throws(ParseError) in try PaywallSurvey(json: json, path: "paywalls[\(index)].survey") } } catch {
                throw fail(error.description)
            }
            entries.append(Entry(id: id, source: source, slots: slots, preload: item["preload"]?.boolValue ?? false, survey: survey))
        }
        self.init(paywalls: entries)
    }

    public func entry(id: String) -> Entry? {
        paywalls.first { $0.id == id }
    }
}
