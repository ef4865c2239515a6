import Foundation

/// A problem found in a bundle (by validation, or a cached version that failed its hash
/// check), with the file it is about.
package struct BundleProblem: Equatable, Sendable, CustomStringConvertible {
    package var file: String
    package var message: String
    /// Packing the bundle again (listing every file with its hash in manifest.json) fixes it.
    package var fixedByPacking: Bool
    package init(file: String, message: String, fixedByPacking: Bool = false) {
        self.file = file
        self.message = message
        self.fixedByPacking = fixedByPacking
    }
    package var description: String { "\(file): \(message)" }
}

/// Packs and validates bundle directories: `paywall bundle pack` and `paywall validate`.
package enum BundleInspector {
    /// Every regular file below `root`, relative and sorted; hidden files and the manifest
    /// itself are not part of a bundle's content.
    package static func contentFiles(of root: URL) -> [String] {
        let base = root.resolvingSymlinksInPath().path
        var files: [String] = []
        guard let walker = FileManager.default.enumerator(atPath: base) else { return [] }
        while let relative = walker.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            if name.hasPrefix(".") {
                walker.skipDescendants()
                continue
            }
            var isDirectory: ObjCBool = false
            let full = base + "/" + relative
            guard FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue,
                relative != BundleManifest.fileName
            else { continue }
            files.append(relative)
        }
        return files.sorted()
    }

    /// Writes `manifest.json` with every file's hash and size, keeping the manifest's other
    /// fields; `id` defaults to the folder name and `version` to 1.0.0. Packing content that
    /// changed since the last pack bumps the patch version (1.0.0 -> 1.0.1), since a cache
    /// refuses other content under a version it holds (unless `bumpsChangedContent` is false:
    /// `paywall new`, whose copy of a template is a first version).
    @discardableResult
    package static func pack(_ root: URL, bumpsChangedContent: Bool = true) throws -> BundleManifest {
        var manifest = try BundleManifest(root: root)
        let packed = manifest.files
        manifest.id = manifest.id ?? root.resolvingSymlinksInPath().lastPathComponent
        manifest.version = manifest.version ?? "1.0.0"
        manifest.minRuntimeVersion = manifest.minRuntimeVersion ?? DeviceInfo.runtimeVersion
        manifest.files = [:]
        for file in contentFiles(of: root) {
            let data = try Data(contentsOf: root.appendingPathComponent(file))
            manifest.files[file] = .init(sha256: SHA256.hex(data), size: data.count)
        }
        if bumpsChangedContent, !packed.isEmpty, packed != manifest.files, let version = manifest.version,
            let next = nextPatch(of: version)
        {
            manifest.version = next
        }
        try manifest.json.write(to: root.appendingPathComponent(BundleManifest.fileName), atomically: true, encoding: .utf8)
        return manifest
    }

    /// `1.0.1` for `1.0.0`, `2.1` -> `2.1.1`; nil for a version that is not numbers and dots.
    static func nextPatch(of version: String) -> String? {
        let parts = version.split(separator: ".", omittingEmptySubsequences: false).map { Int($0) }
        guard !parts.isEmpty, parts.allSatisfy({ $0 != nil }) else { return nil }
        var numbers = parts.map { $0! } + Array(repeating: 0, count: max(0, 3 - parts.count))
        numbers[numbers.count - 1] += 1
        return numbers.map(String.init).joined(separator: ".")
    }

    /// The files of a packed bundle that changed since it was packed (edited, removed, or new
    /// and not listed); empty for a bundle with no file list (never packed).
    package static func changedSincePacking(_ root: URL) -> [String] {
        guard let manifest = try? BundleManifest(root: root), !manifest.files.isEmpty else { return [] }
        let changed = manifest.files.keys.sorted().filter { file in
            guard let data = FileManager.default.contents(atPath: root.appendingPathComponent(file).path) else { return true }
            return manifest.files[file]?.mismatch(data) != nil
        }
        return changed + contentFiles(of: root).filter { manifest.files[$0] == nil }
    }

    /// Every problem of the bundle at `root`: its manifest (optional: without one, the rest is
    /// still checked), its preview catalog and the manifest's slots against it, its entry page,
    /// files missing, changed or unlisted, and references in HTML, CSS and JS that point at nothing.
    package static func validate(_ root: URL) -> [BundleProblem] {
        let root = root.resolvingSymlinksInPath()
        var problems: [BundleProblem] = []
        let manifestPath = root.appendingPathComponent(BundleManifest.fileName).path
        let data = FileManager.default.contents(atPath: manifestPath)
        var manifest = BundleManifest()
        var manifestRead = data != nil
        do {
            // The preview catalog is checked below, with the rest, rather than failing the manifest.
            if let data { manifest = try BundleManifest(data: data, root: root, path: manifestPath, checkPreviewStore: false) }
        } catch {
            // A manifest that cannot be read: the files are checked as if there were none.
            problems.append(BundleProblem(file: BundleManifest.fileName, message: error.description))
            manifestRead = false
        }
        problems += previewStoreProblems(manifest, root: root)
        let present = contentFiles(of: root)
        // The manifest's parse checked the entry's and files' paths.
        if !present.contains(manifest.entry) {
            problems.append(BundleProblem(file: manifest.entry, message: "the entry page is missing"))
        }
        // Broken tables would show the fallback paywall instead of the page; missing plural
        // forms, English inside it.
        for problem in BundleStrings.problems(bundleRoot: root) {
            problems.append(BundleProblem(file: BundleStrings.folder, message: problem))
        }
        if !manifestRead {
            // No manifest (allowed), or one already reported: no file list to check against.
        } else if manifest.files.isEmpty {
            problems.append(
                BundleProblem(
                    file: BundleManifest.fileName,
                    message: "no file list with hashes", fixedByPacking: true))
        } else {
            for (file, entry) in manifest.files.sorted(by: { $0.key < $1.key }) {
                guard let data = FileManager.default.contents(atPath: root.appendingPathComponent(file).path) else {
                    problems.append(BundleProblem(file: file, message: "listed in manifest.json but missing"))
                    continue
                }
                // Edited since the bundle was packed: packing again lists it as it is now.
                switch entry.mismatch(data) {
                case .size(let actual):
                    problems.append(
                        BundleProblem(
                            file: file, message: "size is \(actual) bytes, manifest.json says \(entry.size)",
                            fixedByPacking: true))
                case .content:
                    problems.append(
                        BundleProblem(
                            file: file, message: "content does not match its sha256 in manifest.json", fixedByPacking: true))
                case nil:
                    break
                }
            }
            for file in present where manifest.files[file] == nil {
                problems.append(BundleProblem(file: file, message: "not listed in manifest.json", fixedByPacking: true))
            }
        }
        let resolver = BundlePathResolver(root: root)
        for file in present {
            for reference in references(in: root.appendingPathComponent(file)) {
                if !resolves(reference, from: file, resolver) {
                    problems.append(BundleProblem(file: file, message: "refers to \"\(reference)\", which is not in the bundle"))
                }
            }
        }
        return problems
    }

    /// A `preview_store` that is missing or does not load, and each of the manifest's slots whose
    /// product it does not sell (`preview` and `snapshot` would show the fallback paywall).
    static func previewStoreProblems(_ manifest: BundleManifest, root: URL) -> [BundleProblem] {
        guard let path = manifest.previewStorePath else { return [] }
        guard let file = BundleManifest.file(path, in: root) else {
            return [
                BundleProblem(
                    file: BundleManifest.fileName, message: "\"preview_store\" names \(path), which is not a file in the bundle")
            ]
        }
        let catalog: Catalog
        do { catalog = try CatalogLoader.load(path: file) } catch {
            return [BundleProblem(file: path, message: "the preview_store does not load: \(error.description)")]
        }
        return manifest.slots.missingProducts(in: catalog).map { missing in
            BundleProblem(
                file: BundleManifest.fileName,
                message: "products.\(missing.slot): \(missing.productId) is not in the preview_store \(path) "
                    + "(it sells \(catalog.products.map(\.id).joined(separator: ", "))); fix the id or add the product to \(path)"
            )
        }
    }

    // MARK: References

    private static let patterns: [String: [NSRegularExpression]] = {
        func re(_ p: String) -> NSRegularExpression { try! NSRegularExpression(pattern: p, options: [.caseInsensitive]) }
        let css = [re(#"url\(\s*['"]?([^'")]+)['"]?\s*\)"#), re(#"@import\s+['"]([^'"]+)['"]"#)]
        let js = [
            re(#"(?:import|export)[^'"`;]*?from\s*['"]([^'"]+)['"]"#), re(#"import\s*\(\s*['"]([^'"]+)['"]\s*\)"#),
            re(#"^\s*import\s+['"]([^'"]+)['"]"#),
        ]
        return [
            "html": [re(#"\s(?:src|href|poster)\s*=\s*["']([^"']+)["']"#)] + css,
            "htm": [re(#"\s(?:src|href|poster)\s*=\s*["']([^"']+)["']"#)] + css,
            "css": css, "js": js, "mjs": js,
        ]
    }()

    /// Local references a file makes (relative or absolute paths, not URLs with a scheme).
    static func references(in file: URL) -> [String] {
        guard let expressions = patterns[file.pathExtension.lowercased()],
            let text = try? String(contentsOf: file, encoding: .utf8)
        else { return [] }
        var found: [String] = []
        let range = NSRange(text.startIndex..., in: text)
        for expression in expressions {
            for match in expression.matches(in: text, options: [], range: range) {
                guard let r = Range(match.range(at: 1), in: text) else { continue }
                let reference = String(text[r]).trimmingCharacters(in: .whitespaces)
                if isLocal(reference), !found.contains(reference) { found.append(reference) }
            }
        }
        return found
    }

    private static func isLocal(_ reference: String) -> Bool {
        if reference.isEmpty || reference.hasPrefix("#") || reference.hasPrefix("//") || reference.contains("{{") { return false }
        if let colon = reference.firstIndex(of: ":"), !reference[..<colon].contains("/") { return false }  // has a scheme
        // A bare module specifier (`from "lib"`) is checked as a path too: without an import map,
        // a browser cannot load it either.
        return true
    }

    private static func resolves(_ reference: String, from file: String, _ resolver: BundlePathResolver) -> Bool {
        let path = String(reference.prefix { $0 != "?" && $0 != "#" })
        let directory = (file as NSString).deletingLastPathComponent
        let joined = path.hasPrefix("/") ? path : (directory.isEmpty ? path : directory + "/" + path)
        var segments: [String] = []
        for segment in joined.split(separator: "/") {
            if segment == "." { continue }
            if segment == ".." {
                guard !segments.isEmpty else { return false }  // leaves the bundle
                segments.removeLast()
            } else {
                segments.append(String(segment))
            }
        }
        let encoded = segments.map { $0.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? $0 }
        let raw = "/" + encoded.joined(separator: "/")
        if case .file = resolver.resolve(rawPath: raw) { return true }
        // A percent-encoded reference in the file names the decoded file.
        if case .file = resolver.resolve(rawPath: "/" + segments.joined(separator: "/")) { return true }
        return false
    }
}
