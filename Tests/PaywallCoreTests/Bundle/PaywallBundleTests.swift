import Foundation
import XCTest

@testable import PaywallCore

/// Opening a bundle folder: its entry page and its name come from its manifest.
final class PaywallBundleTests: XCTestCase {
    private var dir: URL!
    override func setUpWithError() throws { dir = try makeTemporaryDirectory("PaywallBundleTests") }
    override func tearDown() { removeTemporaryDirectory(dir) }

    func testTheManifestsEntryIsTheEntryPage() throws {
        try writeFile("<p>main</p>", to: "main.html", in: dir)
        try writeFile(#"{"id": "spring", "entry": "main.html"}"#, to: "manifest.json", in: dir)
        let bundle = try PaywallBundle(path: dir.path)
        XCTAssertEqual(bundle.entry, "main.html")
        XCTAssertEqual(bundle.identifier, "spring", "the manifest's id, not the folder's name")
    }

    func testWithoutAManifestTheEntryIsIndexAndTheNameTheFolders() throws {
        try writeFile("<p>x</p>", to: "index.html", in: dir)
        let bundle = try PaywallBundle(path: dir.path)
        XCTAssertEqual(bundle.entry, "index.html")
        XCTAssertEqual(bundle.identifier, dir.lastPathComponent)
    }

    func testAMissingOrEscapingEntryIsRefusedNamingIt() throws {
        try writeFile("<p>x</p>", to: "index.html", in: dir)
        try writeFile(#"{"entry": "start.html"}"#, to: "manifest.json", in: dir)
        XCTAssertThrowsError(try PaywallBundle(path: dir.path)) {
            XCTAssertEqual("\($0)", "bundle \(dir.path) has no start.html, the entry page its manifest.json names")
        }
        for entry in ["../outside.html", "/etc/passwd", "a page.html", "page.html?x=1"] {
            try writeFile(#"{"entry": "\#(entry)"}"#, to: "manifest.json", in: dir)
            XCTAssertThrowsError(try PaywallBundle(path: dir.path)) {
                XCTAssertTrue("\($0)".contains("\"entry\" must be a file path inside the bundle"), "\($0)")
            }
        }
        try writeFile("{", to: "manifest.json", in: dir)
        XCTAssertThrowsError(try PaywallBundle(path: dir.path)) {
            XCTAssertTrue("\($0)".contains("is not a JSON object"), "\($0)")
        }
    }
}
