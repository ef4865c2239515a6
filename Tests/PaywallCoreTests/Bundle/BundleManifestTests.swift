import Foundation
import XCTest

@testable import PaywallCore

/// What `manifest.json` may hold: JSON a person can fix (depth, duplicate keys), paths that stay
/// inside the bundle, ids a cache listing can print, and origins that do not open the page to every host.
final class BundleManifestValidationTests: XCTestCase {
    private var root: URL!
    override func setUpWithError() throws { root = try makeTemporaryDirectory("BundleManifestValidationTests") }
    override func tearDown() { removeTemporaryDirectory(root) }

    /// The error for `json` as a downloaded manifest (files not there yet) and as one on disk.
    private func errors(_ json: String) throws -> [String] {
        var messages: [String] = []
        do {
            _ = try BundleManifest(data: Data(json.utf8), root: root, path: "src manifest.json", checkPreviewStore: false)
        } catch {
            messages.append(error.description)
        }
        _ = try writeFile(json, to: "manifest.json", in: root)
        do {
            _ = try BundleManifest(root: root)
        } catch {
            messages.append(error.description)
        }
        return messages
    }

    private func assertRefused(_ json: String, _ expected: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let messages = try errors(json)
        XCTAssertEqual(messages.count, 2, "accepted \(json.prefix(200))", file: file, line: line)
        for message in messages {
            XCTAssertTrue(message.contains(expected), "\(json.prefix(200)): \(message)", file: file, line: line)
        }
    }

    func testDeepNestingIsRefusedWithADepthError() throws {
        try assertRefused(Fuzz.deeplyNested, "nested more than 512 levels at line 1, column 513")
        try assertRefused(Fuzz.wideAndDeep, "is not a JSON object; write {")
    }

    func testDuplicateKeysAreRefused() throws {
        try assertRefused(#"{"entry": "index.html", "entry": "other.html"}"#, #"duplicate key "entry""#)
        try assertRefused(#"{"files": {"a.css": {"sha256": "x", "size": 1, "size": 2}}}"#, "line 1, column 48")
    }

    func testPathFieldsMustStayInsideTheBundle() throws {
        let hash = String(repeating: "a", count: 64)
        for json in [
            #"{"preview_store": "../../../../etc/passwd"}"#, #"{"preview_store": "/etc/passwd"}"#,
            #"{"preview_store": "a/./b.json"}"#, #"{"preview_store": "a\\b.json"}"#,
            #"{"files": {"../x.css": {"sha256": "\#(hash)", "size": 1}}}"#,
            #"{"files": {"/x.css": {"sha256": "\#(hash)", "size": 1}}}"#,
        ] {
            try assertRefused(json, "must be a relative path inside the bundle like \"store.json\"")
        }
        // The entry is served as paywall://host/ENTRY, so it also must need no escaping.
        for json in [
            #"{"entry": "../index.html"}"#, #"{"entry": ""}"#, #"{"entry": "pages//index.html"}"#,
            #"{"entry": "index.html\u0000"}"#, #"{"entry": "a page.html"}"#,
        ] {
            try assertRefused(json, "\"entry\" must be a file path inside the bundle, without spaces, ?, # or %")
        }
        XCTAssertTrue(try XCTUnwrap(errors(#"{"entry": "index.html\u0000"}"#).first).hasSuffix(#"got "index.html\u0000""#))
        let message = try XCTUnwrap(errors(#"{"preview_store": "../../../../etc/passwd"}"#).first)
        XCTAssertEqual(
            message,
            #"src manifest.json: "preview_store" must be a relative path inside the bundle like "store.json" or "css/app.css" (no ".." or "." segments, no leading "/", no backslashes or control characters); got "../../../../etc/passwd""#
        )
    }

    func testIdsAndVersionsArePlainNames() throws {
        for json in [
            #"{"id": "promo\nevil 1.0"}"#, #"{"id": "a\tb"}"#, #"{"id": ".hidden"}"#, #"{"id": "a/b"}"#, #"{"id": ""}"#,
            #"{"version": "1.0\r"}"#,
        ] {
            try assertRefused(json, #"may contain only ASCII letters, digits, ".", "-", "_" and "+""#)
        }
        XCTAssertEqual(
            try errors(#"{"id": "promo\nx"}"#).first,
            #"src manifest.json: "id" may contain only ASCII letters, digits, ".", "-", "_" and "+", and must not start with "."; got "promo\nx""#
        )
        _ = try writeFile(#"{"id": "spring-sale_2026.v2", "version": "1.2.0+build.5"}"#, to: "manifest.json", in: root)
        XCTAssertEqual(try BundleManifest(root: root).version, "1.2.0+build.5")
    }

    func testWildcardOriginsThatCoverEveryHostAreRefused() throws {
        for origin in ["https://*", "http://*", "https://*:443", "https://*.com", "https://*/"] {
            try assertRefused(#"{"allowed_origins": ["\#(origin)"]}"#, "must not use a wildcard that covers every host")
        }
        for origin in ["https://a.com;script-src *", "https://a.com path", "https://a.*.com", "https://a.com:99999", "https://"] {
            try assertRefused(#"{"allowed_origins": ["\#(origin)"]}"#, "allowed_origins[0] must be an origin like")
        }
        let json = #"{"allowed_origins": ["https://*.example.com", "http://localhost:8080", "https://cdn.example.com/"]}"#
        _ = try writeFile(json, to: "manifest.json", in: root)
        XCTAssertEqual(
            try BundleManifest(root: root).allowedOrigins,
            ["https://*.example.com", "http://localhost:8080", "https://cdn.example.com/"])
    }
}
