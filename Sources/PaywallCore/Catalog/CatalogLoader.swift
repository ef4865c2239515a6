import Foundation

/// Loads a `Catalog` from a file, in whichever format its extension names.
package enum CatalogLoader {
    /// Reads the catalog at `path`: Apple's `.storekit` format (`StoreKitConfiguration`) when the
    /// extension is `.storekit`, our JSON format (`CatalogFile`) otherwise.
    ///
    /// Every error message starts with the path (`"<path>: <message>"`), so a tool can print it as is.
    package static func load(path: String) throws(CatalogError) -> Catalog {
        let data = try read(path: path)
        do {
            if URL(fileURLWithPath: path).pathExtension.lowercased() == "storekit" {
                return try StoreKitConfiguration.parse(data)
            }
            var catalog = try CatalogFile.parse(data)
            // The machine fingerprint's key when the catalog names no `app_id`.
            if catalog.licensing != nil, catalog.licensing?.appId == nil {
                catalog.licensing?.appId = URL(fileURLWithPath: path).lastPathComponent
            }
            return catalog
        } catch {
            throw CatalogError("\(path): \(error.message)")
        }
    }

    private static func read(path: String) throws(CatalogError) -> Data {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CatalogError(
                "\(path): no such file; pass the path of a catalog file "
                    + "(a .json catalog in our format, or an Xcode .storekit file)")
        }
        guard !isDirectory.boolValue else {
            throw CatalogError(
                "\(path): is a directory; pass the path of the catalog file inside it (for example store.json)")
        }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CatalogError("\(path): cannot be read (\(error.localizedDescription)); check the file's permissions")
        }
    }
}

/// Why a catalog could not be loaded. `message` is written for the person who wrote the file:
/// it names the product and field at fault and what was expected.
package struct CatalogError: Error, Equatable, CustomStringConvertible {
    package let message: String

    package init(_ message: String) {
        self.message = message
    }

    package var description: String { message }
}

// MARK: - JSON reading shared by both catalog formats

/// A JSON value as the catalog parsers read it. Unlike `JSONValue`, numbers stay exact `Decimal`s:
/// a price written as a JSON number (`4.99`) must never pass through `Double`.
enum CatalogJSON: Sendable, JSONTree {
    case null
    case bool(Bool)
    case number(Decimal)
    case string(String)
    case array([CatalogJSON])
    case object([String: CatalogJSON])

    /// Parses `data`, which must hold a JSON object, into a reader for that object. Duplicate keys
    /// are refused: `{"products": [...], "products": 5}` has no right answer to guess.
    static func parseObject(_ data: Data) throws(CatalogError) -> CatalogObject {
        let value: CatalogJSON
        do {
            value = try JSONParser.parseFile(Array(data), as: CatalogJSON.self)
        } catch {
            throw CatalogError("is not valid JSON (\(error))")
        }
        guard case .object(let fields) = value else {
            throw CatalogError("must hold a JSON object at the top level, got \(value.summary)")
        }
        return CatalogObject(fields: fields, location: "")
    }

    /// Built from the number's digits, so 0.1 stays exactly 0.1.
    static func number(text: String, value _: Double) -> CatalogJSON? {
        Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")).map(CatalogJSON.number)
    }

    /// The value as an error message shows what was found: strings quoted, numbers and
    /// booleans as written, containers by kind.
    var summary: String {
        switch self {
        case .null: "null"
        case .bool(let value): "\(value)"
        case .number(let value): "\(value)"
        case .string(let value): "\"\(value)\""
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// Reads typed fields out of one JSON object, turning every problem into a `CatalogError` that
/// says where the object is (`location`, e.g. `products[2] ("lumen.x")`) and which field is wrong.
struct CatalogObject {
    let fields: [String: CatalogJSON]
    /// Where the object sits in the file; empty for the top level.
    let location: String
    /// Prepended to field names in messages, so fields of a nested object read as `intro_offer.period`.
    var fieldPrefix = ""

    /// The same object reported at another location (once its id is known, say).
    func located(at location: String) -> CatalogObject {
        CatalogObject(fields: fields, location: location, fieldPrefix: fieldPrefix)
    }

    /// An error about `key`: `<location>: "<key>" <problem>`.
    func error(_ key: String, _ problem: String) -> CatalogError {
        let field = "\"\(fieldPrefix)\(key)\" \(problem)"
        return CatalogError(location.isEmpty ? field : "\(location): \(field)")
    }

    /// `value` when the field was present, else the error that `key` is required.
    func required<T>(_ key: String, _ value: T?) throws(CatalogError) -> T {
        guard let value else { throw error(key, "is required") }
        return value
    }

    /// The raw value of `key`; `null` counts as absent, as generated files write it for "none".
    func value(_ key: String) -> CatalogJSON? {
        switch fields[key] {
        case nil, .null?: nil
        case let value?: value
        }
    }

    func string(_ key: String) throws(CatalogError) -> String? {
        guard let value = value(key) else { return nil }
        guard case .string(let text) = value else { throw error(key, "must be a string, got \(value.summary)") }
        return text
    }

    /// A string that must not be empty (ids and names).
    func nonEmptyString(_ key: String) throws(CatalogError) -> String? {
        guard let text = try string(key) else { return nil }
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw error(key, "must not be empty")
        }
        return text
    }

    func bool(_ key: String) throws(CatalogError) -> Bool? {
        guard let value = value(key) else { return nil }
        guard case .bool(let flag) = value else { throw error(key, "must be true or false, got \(value.summary)") }
        return flag
    }

    /// A whole number no smaller than `minimum`.
    /// A whole number from `minimum` to `maximum` (counts and day numbers stay far from overflow).
    func integer(_ key: String, minimum: Int, maximum: Int = 10_000) throws(CatalogError) -> Int? {
        guard let value = value(key) else { return nil }
        // A Decimal prints whole numbers without a fraction, so Int(...) accepts exactly those.
        guard case .number(let number) = value, let integer = Int("\(number)"), integer >= minimum, integer <= maximum else {
            throw error(key, "must be a whole number from \(minimum) to \(maximum), got \(value.summary)")
        }
        return integer
    }

    /// A non-negative amount of money, written as a decimal string (`"4.99"`) or a JSON number.
    /// Strings are parsed exactly with the POSIX locale, whatever the machine's locale is.
    func price(_ key: String) throws(CatalogError) -> Decimal? {
        guard let value = value(key) else { return nil }
        let amount: Decimal
        switch value {
        case .number(let number):
            amount = number
        case .string(let text) where Self.isDecimalLiteral(text):
            // Checked first because Decimal(string:) accepts a valid prefix ("4.99abc" -> 4.99).
            guard let parsed = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
                throw error(key, "must be a decimal amount like \"4.99\", got \(value.summary)")
            }
            amount = parsed
        default:
            throw error(key, "must be a decimal amount like \"4.99\", got \(value.summary)")
        }
        guard amount >= 0 else { throw error(key, "must not be negative, got \(value.summary)") }
        return amount
    }

    /// A price field as the file wrote it (`"49.00"` stays `49.00`, which `Decimal` would make
    /// `49`); nil for a JSON number, whose text the parser does not keep. Read after `price(key)`.
    func priceText(_ key: String) -> String? {
        guard case .string(let text)? = value(key) else { return nil }
        return text
    }

    /// An ISO 8601 period of one unit, as stores sell them (`P3D`, `P1W`, `P1M`, `P1Y`).
    func period(_ key: String) throws(CatalogError) -> SubscriptionPeriod? {
        guard let value = value(key) else { return nil }
        guard case .string(let text) = value, let period = SubscriptionPeriod(iso8601: text) else {
            throw error(key, "must be an ISO 8601 period like P1M, got \(value.summary)")
        }
        return period
    }

    /// A URL that may carry license keys or a purchase: `https`, or `http` to a loopback address.
    func url(_ key: String) throws(CatalogError) -> URL? {
        guard let text = try string(key) else { return nil }
        guard let url = URL(string: text) else { throw error(key, "must be a URL like https://example.com/, got \"\(text)\"") }
        if let problem = LicenseSettings.insecurity(of: url) { throw error(key, problem) }
        return url
    }

    /// An id a service writes as a number or a string (`12345` or `"12345"`), as text.
    func identifier(_ key: String) throws(CatalogError) -> String? {
        guard let value = value(key) else { return nil }
        switch value {
        case .number(let number) where Int("\(number)") != nil: return "\(number)"
        case .string(let text) where !text.isEmpty: return text
        default: throw error(key, "must be an id, a whole number or a non-empty string, got \(value.summary)")
        }
    }

    func array(_ key: String) throws(CatalogError) -> [CatalogJSON]? {
        guard let value = value(key) else { return nil }
        guard case .array(let items) = value else { throw error(key, "must be an array, got \(value.summary)") }
        return items
    }

    /// An array of strings, such as entitlement names.
    func stringArray(_ key: String) throws(CatalogError) -> [String]? {
        guard let items = try array(key) else { return nil }
        var strings: [String] = []
        for (index, item) in items.enumerated() {
            guard case .string(let text) = item, !text.isEmpty else {
                throw error("\(key)[\(index)]", "must be a non-empty string, got \(item.summary)")
            }
            strings.append(text)
        }
        return strings
    }

    /// An array of objects, whose fields are reported as `<key>[<index>].<field>` at this object's location.
    func objects(_ key: String) throws(CatalogError) -> [CatalogObject]? {
        guard let items = try array(key) else { return nil }
        var objects: [CatalogObject] = []
        for (index, item) in items.enumerated() {
            guard case .object(let nested) = item else {
                throw error("\(key)[\(index)]", "must be an object, got \(item.summary)")
            }
            objects.append(CatalogObject(fields: nested, location: location, fieldPrefix: "\(fieldPrefix)\(key)[\(index)]."))
        }
        return objects
    }

    /// A nested object, whose fields are reported as `<key>.<field>` at this object's location.
    func object(_ key: String) throws(CatalogError) -> CatalogObject? {
        guard let value = value(key) else { return nil }
        guard case .object(let nested) = value else { throw error(key, "must be an object, got \(value.summary)") }
        return CatalogObject(fields: nested, location: location, fieldPrefix: "\(fieldPrefix)\(key).")
    }

    /// An element of an array of objects, reported at `location`.
    static func element(_ item: CatalogJSON, at location: String) throws(CatalogError) -> CatalogObject {
        guard case .object(let fields) = item else {
            throw CatalogError("\(location): must be an object, got \(item.summary)")
        }
        return CatalogObject(fields: fields, location: location)
    }

    /// `-?digits(.digits)?`: the only amounts accepted, so "4,99", "1e3" and "$4.99" are errors.
    private static func isDecimalLiteral(_ text: String) -> Bool {
        text.wholeMatch(of: /-?[0-9]+(\.[0-9]+)?/) != nil
    }
}
