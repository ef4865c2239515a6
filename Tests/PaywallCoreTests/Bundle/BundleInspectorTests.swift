import Foundation
import XCTest

@testable import PaywallCore

/// `paywall bundle pack` and `paywall validate`.
final class BundleInspectorTests: XCTestCase {
    private var root: URL!

    override func setUpWithError() throws {
        root = try makeTemporaryDirectory("BundleInspectorTests").resolvingSymlinksInPath()
        _ = try writeFile(
            ##"<link rel="stylesheet" href="css/site.css"><script type="module" src="app.mjs"></script><img src="img/a%20b.png"><a href="https://example.com">x</a><img src="data:image/png;base64,AA"><a href="#top">t</a>"##,
            to: "index.html", in: root)
        _ = try writeFile(#"body { background: url("../img/a b.png") } @import "theme.css";"#, to: "css/site.css", in: root)
        _ = try writeFile("p {}", to: "css/theme.css", in: root)
        _ = try writeFile(#"import { x } from "./lib/x.mjs"; export * from "./lib/x.mjs";"#, to: "app.mjs", in: root)
        _ = try writeFile("export const x = 1;", to: "lib/x.mjs", in: root)
        _ = try writeFile("png", to: "img/a b.png", in: root)
        _ = try writeFile("secret", to: ".git/config", in: root)
    }

    override func tearDown() { removeTemporaryDirectory(root) }

    func testPackListsEveryContentFileWithItsHash() throws {
        let manifest = try BundleInspector.pack(root)
        XCTAssertEqual(
            manifest.files.keys.sorted(), ["app.mjs", "css/site.css", "css/theme.css", "img/a b.png", "index.html", "lib/x.mjs"],
            "hidden files and the manifest are not content")
        XCTAssertEqual(manifest.files["lib/x.mjs"], .init(sha256: SHA256.hex(Data("export const x = 1;".utf8)), size: 19))
        XCTAssertEqual(manifest.id, root.lastPathComponent)
        XCTAssertEqual(manifest.version, "1.0.0")
        XCTAssertEqual(try BundleManifest(root: root), manifest, "what pack writes reads back the same")
        XCTAssertEqual(BundleInspector.validate(root), [])
    }

    func testPackKeepsTheManifestsOtherFields() throws {
        _ = try writeFile(
            #"{"id": "spring", "version": "2.0.0", "products": {"primary": "pro"}, "allowed_origins": ["https://cdn.example.com"]}"#,
            to: "manifest.json", in: root)
        let manifest = try BundleInspector.pack(root)
        XCTAssertEqual(manifest.id, "spring")
        XCTAssertEqual(manifest.version, "2.0.0")
        XCTAssertEqual(manifest.slots.productId(forSlot: "primary"), "pro")
        XCTAssertEqual(manifest.allowedOrigins, ["https://cdn.example.com"])
    }

    /// Packing content that changed bumps the patch version (a cache refuses other content
    /// under a version it holds); packing unchanged content, or the first pack, keeps it.
    func testPackingChangedContentBumpsThePatchVersion() throws {
        XCTAssertEqual(try BundleInspector.pack(root).version, "1.0.0")
        XCTAssertEqual(try BundleInspector.pack(root).version, "1.0.0", "nothing changed")
        XCTAssertEqual(BundleInspector.changedSincePacking(root), [])
        try Data("p { color: blue }".utf8).write(to: root.appendingPathComponent("css/theme.css"))
        XCTAssertEqual(BundleInspector.changedSincePacking(root), ["css/theme.css"])
        XCTAssertEqual(try BundleInspector.pack(root).version, "1.0.1")
        _ = try writeFile("new", to: "extra.txt", in: root)
        XCTAssertEqual(try BundleInspector.pack(root, bumpsChangedContent: false).version, "1.0.1")
        XCTAssertEqual(BundleInspector.nextPatch(of: "2.1"), "2.1.1")
        XCTAssertEqual(BundleInspector.nextPatch(of: "1.2.9"), "1.2.10")
        XCTAssertNil(BundleInspector.nextPatch(of: "1.0-beta"))
    }

    func testValidateListsEveryProblemWithItsFile() throws {
        try BundleInspector.pack(root)
        try Data("export const x = 2;".utf8).write(to: root.appendingPathComponent("lib/x.mjs"))  // same size, new content
        try Data("p { color: red }".utf8).write(to: root.appendingPathComponent("css/theme.css"))
        try FileManager.default.removeItem(at: root.appendingPathComponent("img/a b.png"))
        _ = try writeFile("new", to: "extra.txt", in: root)
        _ = try writeFile(#"<img src="gone.png"><script src="../outside.js"></script>"#, to: "page2.html", in: root)
        let problems = Set(BundleInspector.validate(root).map(\.description))
        XCTAssertEqual(
            problems,
            [
                "lib/x.mjs: content does not match its sha256 in manifest.json",
                "css/theme.css: size is 16 bytes, manifest.json says 4",
                "img/a b.png: listed in manifest.json but missing",
                "extra.txt: not listed in manifest.json",
                "page2.html: not listed in manifest.json",
                "index.html: refers to \"img/a%20b.png\", which is not in the bundle",
                "css/site.css: refers to \"../img/a b.png\", which is not in the bundle",
                "page2.html: refers to \"gone.png\", which is not in the bundle",
                "page2.html: refers to \"../outside.js\", which is not in the bundle",
            ])
        XCTAssertEqual(
            Set(BundleInspector.validate(root).filter(\.fixedByPacking).map(\.file)),
            ["lib/x.mjs", "css/theme.css", "extra.txt", "page2.html"],
            "packing again fixes files edited since packing and files the manifest does not list, nothing else")
        XCTAssertEqual(
            BundleInspector.changedSincePacking(root), ["css/theme.css", "img/a b.png", "lib/x.mjs", "extra.txt", "page2.html"])
    }

    /// The manifest is optional: without one, the rest is still checked, and nothing else is a problem.
    func testAMissingEntryIsAProblemAndAMissingManifestIsNot() throws {
        XCTAssertEqual(BundleInspector.validate(root), [])
        try FileManager.default.removeItem(at: root.appendingPathComponent("index.html"))
        XCTAssertEqual(BundleInspector.validate(root).map(\.file), ["index.html"])
    }

    /// The entry `present` could not serve: one that leaves the bundle or needs escaping.
    func testAnEntryThatIsNotAPlainPathIsAProblem() throws {
        try writeFile("<p>x</p>", to: "a page.html", in: root)
        for entry in ["../index.html", "a page.html"] {
            try writeFile(#"{"entry": "\#(entry)"}"#, to: "manifest.json", in: root)
            let problem = BundleInspector.validate(root).first
            XCTAssertEqual(problem?.file, "manifest.json")
            XCTAssertTrue(
                problem?.message.hasSuffix(
                    "\"entry\" must be a file path inside the bundle, without spaces, ?, # or %; got \"\(entry)\"") ?? false,
                "\(String(describing: problem))")
        }
    }

    /// A manifest that cannot be read is one problem; the files are still checked.
    func testBrokenManifestIsReportedAlongWithEveryOtherProblem() throws {
        _ = try writeFile("{", to: "manifest.json", in: root)
        _ = try writeFile(#"<img src="gone.png">"#, to: "page2.html", in: root)
        XCTAssertEqual(BundleInspector.validate(root).map(\.file), ["manifest.json", "page2.html"])
    }

    private let previewStore =
        #"{"products": [{"id": "pro.yearly", "display_name": "Pro", "price": "29.99", "currency": "USD", "kind": "auto_renewable", "period": "P1Y", "group": "pro", "entitlements": ["pro"]}]}"#

    /// The manifest's slots are checked against its preview catalog, every slot reported.
    func testSlotsMissingFromThePreviewStoreAreProblems() throws {
        _ = try writeFile(previewStore, to: "store.json", in: root)
        _ = try writeFile(
            #"{"products": {"primary": "pro.yearly", "secondary": "pro.weekly", "badge": "pro.daily"}, "preview_store": "store.json"}"#,
            to: "manifest.json", in: root)
        try BundleInspector.pack(root)
        let problems = BundleInspector.validate(root)
        XCTAssertEqual(problems.map(\.file), ["manifest.json", "manifest.json"], "\(problems)")
        XCTAssertTrue(
            problems[0].message.hasPrefix(
                "products.secondary: pro.weekly is not in the preview_store store.json (it sells pro.yearly)"),
            problems[0].message)
        XCTAssertTrue(
            problems[1].message.hasPrefix("products.badge: pro.daily is not in the preview_store store.json"), problems[1].message
        )
    }

    /// A preview catalog that is missing or does not load is a problem, and the rest is still checked.
    func testAPreviewStoreThatDoesNotLoadIsAProblem() throws {
        _ = try writeFile(
            #"{"products": {"primary": "pro.yearly"}, "preview_store": "store.json"}"#, to: "manifest.json", in: root)
        _ = try writeFile(#"<img src="gone.png">"#, to: "page2.html", in: root)
        var problems = BundleInspector.validate(root)
        XCTAssertEqual(
            problems.first,
            BundleProblem(file: "manifest.json", message: "\"preview_store\" names store.json, which is not a file in the bundle")
        )
        XCTAssertTrue(problems.contains { $0.file == "page2.html" && $0.message.contains("gone.png") }, "\(problems)")
        _ = try writeFile(#"{"products": [{"id": "pro.yearly"}]}"#, to: "store.json", in: root)
        problems = BundleInspector.validate(root)
        XCTAssertEqual(problems.first?.file, "store.json", "\(problems)")
        XCTAssertTrue(problems.first?.message.hasPrefix("the preview_store does not load: ") ?? false, "\(problems)")
    }

    func testManifestFieldValidation() throws {
        for (json, expected) in [
            (#"{"files": {"a": {"sha256": "xyz", "size": 1}}}"#, "files[\"a\"] must be"),
            (#"{"allowed_origins": ["https://cdn.example.com/path"]}"#, "allowed_origins"),
            (#"{"allowed_origins": ["javascript:alert(1)"]}"#, "allowed_origins"),
            (#"{"entry": 3}"#, "\"entry\" must be a string"),
        ] {
            _ = try writeFile(json, to: "manifest.json", in: root)
            XCTAssertThrowsError(try BundleManifest(root: root)) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(json): \(error)")
            }
        }
    }

    func testRuntimeVersionCheck() throws {
        XCTAssertNoThrow(try BundleManifest(minRuntimeVersion: "0.1").checkRuntimeVersion("0.1.0"))
        XCTAssertNoThrow(try BundleManifest(minRuntimeVersion: "0.9.9").checkRuntimeVersion("0.10.0"))
        XCTAssertThrowsError(try BundleManifest(id: "x", minRuntimeVersion: "0.2.0").checkRuntimeVersion("0.1.9")) { error in
            XCTAssertTrue("\(error)".contains("needs paywall runtime 0.2.0 or newer"), "\(error)")
        }
    }

    func testAllowedOriginsWidenTheServedPolicy() throws {
        var server = BundleServer()
        server.mount(
            try PaywallBundle(path: root.path), host: "b",
            policy: ContentSecurityPolicy(allowedOrigins: ["https://cdn.example.com"]))
        let csp = server.respond(to: "paywall://b/index.html").headers["Content-Security-Policy"] ?? ""
        XCTAssertTrue(csp.contains("script-src 'self' 'unsafe-inline' https://cdn.example.com"), csp)
    }
}
