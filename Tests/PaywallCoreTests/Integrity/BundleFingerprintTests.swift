import Foundation
import XCTest

@testable import PaywallCore

final class BundleFingerprintTests: XCTestCase {
    private var root: URL!

    override func setUpWithError() throws {
        root = try makeTemporaryDirectory("BundleFingerprintTests")
        try writeFile("<html></html>", to: "index.html", in: root)
        try writeFile("body {}", to: "css/site.css", in: root)
    }

    override func tearDown() {
        removeTemporaryDirectory(root)
        root = nil
    }

    private func path(_ relative: String) -> String {
        root.appendingPathComponent(relative).path
    }

    func testNoChanges() {
        let before = BundleFingerprint(root: root)
        XCTAssertEqual(BundleFingerprint(root: root).changes(since: before), [])
        XCTAssertEqual(BundleFingerprint(root: root), before)
    }

    func testModifiedFileIsListed() throws {
        let before = BundleFingerprint(root: root)
        try writeFile("body { color: red; }", to: "css/site.css", in: root)
        XCTAssertEqual(BundleFingerprint(root: root).changes(since: before), [path("css/site.css")])
    }

    func testAddedFileIsListed() throws {
        let before = BundleFingerprint(root: root)
        try writeFile("console.log(1)", to: "js/app.js", in: root)
        XCTAssertEqual(BundleFingerprint(root: root).changes(since: before), [path("js/app.js")])
    }

    func testRemovedFileIsListed() throws {
        let before = BundleFingerprint(root: root)
        try FileManager.default.removeItem(atPath: path("index.html"))
        XCTAssertEqual(BundleFingerprint(root: root).changes(since: before), [path("index.html")])
    }

    func testSeveralChangesAreSorted() throws {
        let before = BundleFingerprint(root: root)
        try writeFile("z", to: "z.txt", in: root)
        try writeFile("a", to: "a.txt", in: root)
        try FileManager.default.removeItem(atPath: path("index.html"))
        XCTAssertEqual(
            BundleFingerprint(root: root).changes(since: before),
            [path("a.txt"), path("index.html"), path("z.txt")])
    }

    func testHiddenFilesCount() throws {
        let before = BundleFingerprint(root: root)
        try writeFile("x", to: ".hidden", in: root)
        XCTAssertEqual(BundleFingerprint(root: root).changes(since: before), [path(".hidden")])
    }
}
