import Foundation
import XCTest

@testable import PaywallCore

final class BundleServerTests: XCTestCase {
    private var base: URL!
    private var server: BundleServer!
    private var entryURL: URL!

    override func setUpWithError() throws {
        base = try makeTemporaryDirectory("BundleServerTests")
        let bundleDir = base.appendingPathComponent("bundle")
        try writeFile("<html><body>hi</body></html>", to: "index.html", in: bundleDir)
        try writeFile("body { color: red }", to: "style.css", in: bundleDir)
        try writeFile("outside", to: "secret", in: base)
        let bundle = try PaywallBundle(path: bundleDir.path)
        server = BundleServer()
        entryURL = server.mount(bundle, host: "b")
    }

    override func tearDown() {
        removeTemporaryDirectory(base)
        base = nil
        server = nil
        entryURL = nil
    }

    func testMountReturnsEntryURL() {
        XCTAssertEqual(entryURL.absoluteString, "paywall://b/index.html")
    }

    func testIndexIsHTMLWithContentSecurityPolicy() {
        let response = server.respond(to: "paywall://b/index.html")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.mimeType, "text/html")
        XCTAssertEqual(response.contentType, "text/html; charset=utf-8")
        XCTAssertEqual(response.headers["Content-Security-Policy"], ContentSecurityPolicy().headerValue)
        XCTAssertEqual(response.headers["X-Content-Type-Options"], "nosniff")
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "<html><body>hi</body></html>")
    }

    /// Any file may be opened as a document (an SVG is scriptable), so every response has the policy.
    func testEveryResponseCarriesTheContentSecurityPolicy() {
        let response = server.respond(to: "paywall://b/style.css")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.mimeType, "text/css")
        XCTAssertEqual(response.headers["Content-Security-Policy"], ContentSecurityPolicy().headerValue)
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "body { color: red }")
    }

    func testMountedPolicyIsUsed() throws {
        let policy = ContentSecurityPolicy(allowedOrigins: ["https://js.stripe.com"])
        let bundle = try PaywallBundle(path: base.appendingPathComponent("bundle").path)
        server.mount(bundle, host: "c", policy: policy)
        XCTAssertEqual(
            server.respond(to: "paywall://c/index.html").headers["Content-Security-Policy"], policy.headerValue)
    }

    func testMissingFileIs404() {
        let response = server.respond(to: "paywall://b/missing.js")
        XCTAssertEqual(response.status, 404)
        XCTAssertEqual(response.mimeType, "text/plain")
    }

    func testEncodedTraversalIs403() {
        let response = server.respond(to: "paywall://b/..%2f..%2fetc%2fpasswd")
        XCTAssertEqual(response.status, 403)
        XCTAssertFalse(String(decoding: response.body, as: UTF8.self).contains("root:"))
    }

    func testEncodedDotDotIs403() {
        XCTAssertEqual(server.respond(to: "paywall://b/%2e%2e/secret").status, 403)
    }

    func testUnknownHostIs404() {
        XCTAssertEqual(server.respond(to: "paywall://other/index.html").status, 404)
    }

    func testWrongSchemeIs404() {
        XCTAssertEqual(server.respond(to: "https://b/index.html").status, 404)
        XCTAssertEqual(server.respond(to: "file://b/index.html").status, 404)
    }

    func testGarbageURIIs404() {
        XCTAssertEqual(server.respond(to: "").status, 404)
    }

    /// A page's fetch of a 50k-segment path is answered 414 at once (it used to freeze the host).
    func testFiftyThousandSegmentPathIs414() {
        let response = server.respond(to: "paywall://b" + String(repeating: "/a", count: 50_000) + "/x")
        XCTAssertEqual(response.status, 414)
        XCTAssertTrue(String(decoding: response.body, as: UTF8.self).contains("\(BundlePathResolver.maxPathBytes)"))
    }

    func testDotDotChainPathIs414() {
        XCTAssertEqual(server.respond(to: "paywall://b/" + String(repeating: "a/../", count: 25_000) + "index.html").status, 414)
    }

    /// The whole URI is bounded before it is parsed, a long query included.
    func testHugeQueryIs414() {
        XCTAssertEqual(server.respond(to: "paywall://b/index.html?" + String(repeating: "q=1&", count: 50_000)).status, 414)
    }
}
