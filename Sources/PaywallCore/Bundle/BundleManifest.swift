import Foundation

/// A bundle's `manifest.json` (optional; `paywall bundle pack` writes it):
///
/// ```json
/// {"id": "classic", "version": "1.2.0", "entry": "index.html",
///  "files": {"index.html": {"sha256": "…", "size": 5120}, "style.css": {"sha256": "…", "size": 900}},
///  "products": {"primary": "pro.yearly", "secondary": "pro.monthly"},
///  "preview_store": "store.json", "allowed_origins": ["https://cdn.example.com"],
///  "min_runtime_version": "0.1.0"}
/// ```
///
/// `products` fills the page's slots. `preview_store` is a catalog inside the bundle that
/// `preview` and `snapshot` use when no `--store` is given. `allowed_origins` widen the page's
/// Content-Security-Policy. `files` lists every file with its SHA-256 and size, so a cache can
/// refuse a tampered or half-uploaded bundle.
///
/// Reading refuses what could reach outside the bundle or break a listing: paths (`entry`,
/// `preview_store`, the keys of `files`) must be relative and stay inside it, ids and versions
/// are plain names, and no allowed origin may cover every host.
package struct BundleManifest: Equatable, Sendable {
    package var id: String?
    package var version: String?
    package var entry: String
    package var files: [String: FileEntry]
    package var slots: ProductSlots
    /// The preview catalog as written in the manifest (relative to the bundle).
    package var previewStorePath: String?
    /// Absolute path of the preview catalog, once checked to be a file inside the bundle.
    package var previewStore: String?
    package var allowedOrigins: [String]
    package var minRuntimeVersion: String?

    package struct FileEntry: Equatable, Sendable {
        package var sha256: String
        package var size: Int
        package init(sha256: String, size: Int) {
            self.sha256 = sha256
            self.size = size
        }

        package enum Mismatch: Equatable, Sendable {
            case size(actual: Int)
            case content
        }

        /// How `data` differs from this entry, or nil when it matches (hashed only when the size does).
        package func mismatch(_ data: Data) -> Mismatch? {
            if data.count != size { return .size(actual: data.count) }
            return SHA256.hex(data) == sha256 ? nil : .content
        }
    }

    package static let fileName = "manifest.json"

    package struct ParseError: Error, CustomStringConvertible {
        package let description: String
    }

    package init(
        id: String? = nil, version: String? = nil, entry: String = "index.html", files: [String: FileEntry] = [:],
        slots: ProductSlots = ProductSlots(), previewStorePath: String? = nil, previewStore: String? = nil,
        allowedOrigins: [String] = [], minRuntimeVersion: String? = nil
    ) {
        self.id = id
        self.version = version
        self.entry = entry
        self.files = files
        self.slots = slots
        self.previewStorePath = previewStorePath
        self.previewStore = previewStore
        self.allowedOrigins = allowedOrigins
        self.minRuntimeVersion = minRuntimeVersion
    }

    /// Reads the manifest in `root`; an empty manifest when there is none.
    package init(root: URL) throws(ParseError) {
        let url = root.appendingPathComponent(Self.fileName)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            self.init()
            return
        }
        try self.init(data: data, root: root, path: url.path)
    }

    package init(bundle: PaywallBundle) throws(ParseError) {
        try self.init(root: bundle.root)
    }

    /// - Parameter checkPreviewStore: whether `preview_store` must exist in `root` (not yet,
    ///   for a manifest fetched before its files).
    init(data: Data, root: URL, path: String, checkPreviewStore: Bool = true) throws(ParseError) {
        func fail(_ message: String) -> ParseError { ParseError(description: "\(path): \(message)") }
        let value: JSONValue
        do {
            value = try JSONParser.parseFile(Array(data))
        } catch {
            throw ParseError(description: "\(path) is not a JSON object (\(error)); fix its syntax or remove it")
        }
        guard let object = value.objectValue else {
            throw ParseError(description: "\(path) is not a JSON object; write {\"entry\": \"index.html\", ...} or remove it")
        }
        func string(_ key: String) throws(ParseError) -> String? {
            guard let v = object[key], v != .null else { return nil }
            guard let s = v.stringValue else { throw fail("\"\(key)\" must be a string") }
            return s
        }
        /// The cache files the bundle under its id and version, and `paywall cache list` prints them one per line.
        func name(_ key: String) throws(ParseError) -> String? {
            guard let text = try string(key) else { return nil }
            guard text.utf8.count <= Self.maxNameBytes else {
                throw fail(
                    "\"\(key)\" is \(text.utf8.count) bytes long; it may be at most \(Self.maxNameBytes) (the cache names a folder after it)"
                )
            }
            guard Self.isPlainName(text) else {
                throw fail(
                    "\"\(key)\" may contain only ASCII letters, digits, \".\", \"-\", \"_\" and \"+\", "
                        + "and must not start with \".\"; got \(JSONWriter.text(.string(text)))")
            }
            return text
        }
        func relativePath(_ key: String, _ text: String) throws(ParseError) -> String {
            guard Self.isBundlePath(text) else {
                throw fail(
                    "\(key) must be a relative path inside the bundle like \"store.json\" or \"css/app.css\" "
                        + "(no \"..\" or \".\" segments, no leading \"/\", no backslashes or control characters); "
                        + "got \(JSONWriter.text(.string(text)))")
            }
            return text
        }
        self.init()
        id = try name("id")
        version = try name("version")
        entry =
            try string("entry").map { (text) throws(ParseError) in
                if let problem = Self.entryProblem(text) { throw fail(problem) }
                return text
            } ?? "index.html"
        minRuntimeVersion = try string("min_runtime_version")
        if let files = object["files"] {
            guard let map = files.objectValue else { throw fail("\"files\" must be an object of path -> {sha256, size}") }
            for (file, info) in map {
                _ = try relativePath("files[\(JSONWriter.text(.string(file)))]", file)
                guard let sha = info["sha256"]?.stringValue, sha.count == 64, sha.allSatisfy(\.isHexDigit),
                    case .number(let number)? = info["size"], number >= 0, number <= 1e12, let size = Int(exactly: number)
                else { throw fail("files[\"\(file)\"] must be {\"sha256\": 64 hex digits, \"size\": bytes}") }
                self.files[file] = FileEntry(sha256: sha.lowercased(), size: size)
            }
        }
        if let origins = object["allowed_origins"] {
            guard let list = origins.arrayValue else {
                throw fail("\"allowed_origins\" must be a list of origins like \"https://cdn.example.com\"")
            }
            for (index, origin) in list.enumerated() {
                guard let text = origin.stringValue else {
                    throw fail("allowed_origins[\(index)] must be a string like \"https://cdn.example.com\"")
                }
                if let problem = ContentSecurityPolicy.originProblem(text) {
                    throw fail("allowed_origins[\(index)] \(problem); got \(JSONWriter.text(.string(text)))")
                }
                allowedOrigins.append(text)
            }
        }
        var products: [String: String] = [:]
        if let value = object["products"] {
            guard let map = value.objectValue else { throw fail("\"products\" must be an object of slot -> product id") }
            for (slot, value) in map {
                guard let id = value.stringValue, !id.isEmpty else { throw fail("products.\(slot) must be a product id string") }
                products[slot] = id
            }
        }
        slots = ProductSlots(inPageOrder: products)
        if let path = try string("preview_store").map({ (text) throws(ParseError) in try relativePath("\"preview_store\"", text) }
        ) {
            previewStorePath = path
            if checkPreviewStore {
                guard let file = Self.file(path, in: root) else {
                    throw fail("\"preview_store\" must name a catalog file inside the bundle")
                }
                previewStore = file
            }
        }
    }

    /// The absolute path of the bundle file at `path`, as the bundle server would serve it; nil
    /// when there is no such file inside `root`.
    static func file(_ path: String, in root: URL) -> String? {
        guard let encoded = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed),
            case .file(let file) = BundlePathResolver(root: root).resolve(rawPath: "/" + encoded)
        else { return nil }
        return file.path
    }

    /// Refuses a bundle made for a newer runtime than `runtimeVersion`.
    package func checkRuntimeVersion(_ runtimeVersion: String = DeviceInfo.runtimeVersion) throws(ParseError) {
        guard let needed = minRuntimeVersion, let minimum = Version(needed), let runtime = Version(runtimeVersion),
            runtime < minimum
        else { return }
        throw ParseError(
            description:
                "bundle \(id ?? "") needs paywall runtime \(needed) or newer; this is \(runtimeVersion). Upgrade paywall.")
    }

    /// An id or version: it names a cache directory and is printed on one line by `paywall cache list`.
    /// The longest id or version: the cache's folder for a version, `ID/VERSION`-like, stays
    /// far under the file system's 255-byte name limit.
    static let maxNameBytes = 128

    static func isPlainName(_ text: String) -> Bool {
        !text.isEmpty && !text.hasPrefix(".") && text.utf8.count <= maxNameBytes
            && text.unicodeScalars.allSatisfy {
                $0.isASCII && (Character($0).isLetter || Character($0).isNumber || "._+-".unicodeScalars.contains($0))
            }
    }

    /// Why `entry` cannot be an entry page, or nil. It is served as paywall://host/ENTRY: it must
    /// be a path inside the bundle that needs no escaping.
    static func entryProblem(_ entry: String) -> String? {
        guard isBundlePath(entry), entry.addingPercentEncoding(withAllowedCharacters: plainURLPath) == entry else {
            return
                "\"entry\" must be a file path inside the bundle, without spaces, ?, # or %; got \(JSONWriter.text(.string(entry)))"
        }
        return nil
    }

    private static let plainURLPath = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "%;"))

    /// A path that stays inside the bundle whatever directory it is joined to.
    static func isBundlePath(_ text: String) -> Bool {
        !text.hasPrefix("/") && !text.contains("\\")
            && !text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
            && text.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { !$0.isEmpty && $0 != "." && $0 != ".." }
    }

    /// The manifest as `paywall bundle pack` writes it: stable key order, two-space indent.
    package var json: String {
        var object: [String: JSONValue] = ["entry": .string(entry)]
        if let id { object["id"] = .string(id) }
        if let version { object["version"] = .string(version) }
        if let minRuntimeVersion { object["min_runtime_version"] = .string(minRuntimeVersion) }
        if let previewStorePath { object["preview_store"] = .string(previewStorePath) }
        if !allowedOrigins.isEmpty { object["allowed_origins"] = .array(allowedOrigins.map(JSONValue.string)) }
        if !slots.entries.isEmpty {
            object["products"] = .object(Dictionary(uniqueKeysWithValues: slots.entries.map { ($0.slot, .string($0.productId)) }))
        }
        object["files"] = .object(files.mapValues { .object(["sha256": .string($0.sha256), "size": .number(Double($0.size))]) })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        let data = (try? encoder.encode(JSONValue.object(object))) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
