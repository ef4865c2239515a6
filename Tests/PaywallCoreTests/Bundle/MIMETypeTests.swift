import XCTest

@testable import PaywallCore

final class MIMETypeTests: XCTestCase {
    func testEveryKnownExtension() {
        let expected: [String: String] = [
            "html": "text/html; charset=utf-8",
            "css": "text/css; charset=utf-8",
            "js": "text/javascript; charset=utf-8",
            "mjs": "text/javascript; charset=utf-8",
            "json": "application/json",
            "svg": "image/svg+xml",
            "png": "image/png",
            "jpg": "image/jpeg",
            "jpeg": "image/jpeg",
            "webp": "image/webp",
            "gif": "image/gif",
            "woff": "font/woff",
            "woff2": "font/woff2",
            "ttf": "font/ttf",
            "otf": "font/otf",
            "mp4": "video/mp4",
            "webm": "video/webm",
            "txt": "text/plain; charset=utf-8",
        ]
        for (ext, type) in expected {
            XCTAssertEqual(MIMEType.forPath("/bundle/dir/file.\(ext)"), type, ext)
            XCTAssertEqual(MIMEType.forPath("file.\(ext)"), type, ext)
        }
    }

    func testUppercaseExtension() {
        XCTAssertEqual(MIMEType.forPath("/b/INDEX.HTML"), "text/html; charset=utf-8")
        XCTAssertEqual(MIMEType.forPath("/b/Photo.PnG"), "image/png")
    }

    func testUnknownAndMissingExtensionsAreOctetStream() {
        XCTAssertEqual(MIMEType.fallback, "application/octet-stream")
        XCTAssertEqual(MIMEType.forPath("/b/archive.zip"), "application/octet-stream")
        XCTAssertEqual(MIMEType.forPath("/b/script.sh"), "application/octet-stream")
        XCTAssertEqual(MIMEType.forPath("/b/README"), "application/octet-stream")
        XCTAssertEqual(MIMEType.forPath("README"), "application/octet-stream")
        XCTAssertEqual(MIMEType.forPath("/b/trailing."), "application/octet-stream")
    }

    func testDotInDirectoryButNotInFileName() {
        XCTAssertEqual(MIMEType.forPath("/b/assets.css/LICENSE"), "application/octet-stream")
        XCTAssertEqual(MIMEType.forPath("/b/v1.2/html"), "application/octet-stream")
    }

    func testOnlyTheLastExtensionCounts() {
        XCTAssertEqual(MIMEType.forPath("/b/app.min.js"), "text/javascript; charset=utf-8")
        XCTAssertEqual(MIMEType.forPath("/b/page.html.txt"), "text/plain; charset=utf-8")
    }
}
