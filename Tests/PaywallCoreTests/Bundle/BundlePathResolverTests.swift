import Foundation
import XCTest

@testable import PaywallCore

/// Layout of the temp folder made for each test:
///
///     base/
///       secret              (outside the bundle)
///       outside/secret      (outside the bundle)
///       bundle/             (the resolver's root)
///         index.html
///         css/site.css
///         images/           (a directory)
///         secret            -> a different file with the same name, to tell them apart
///         ...links made by individual tests
final class BundlePathResolverTests: XCTestCase {
    private var base: URL!
    private var root: URL!
    private var resolver: BundlePathResolver!

    override func setUpWithError() throws {
        base = try makeTemporaryDirectory("BundlePathResolverTests")
        root = base.appendingPathComponent("bundle").resolvingSymlinksInPath()
        try writeFile("<html></html>", to: "index.html", in: root)
        try writeFile("body {}", to: "css/site.css", in: root)
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("images"), withIntermediateDirectories: true)
        try writeFile("outside secret", to: "secret", in: base)
        try writeFile("outside dir secret", to: "outside/secret", in: base)
        root = root.resolvingSymlinksInPath()
        resolver = BundlePathResolver(root: root)
    }

    override func tearDown() {
        removeTemporaryDirectory(base)
        base = nil
        root = nil
        resolver = nil
    }

    // MARK: Helpers

    /// Asserts that `rawPath` resolves to the file at `relative` inside the bundle.
    private func assertFile(_ rawPath: String, _ relative: String, file: StaticString = #filePath, line: UInt = #line) {
        guard case .file(let url) = resolver.resolve(rawPath: rawPath) else {
            return XCTFail("\(rawPath) resolved to \(resolver.resolve(rawPath: rawPath)), not a file", file: file, line: line)
        }
        XCTAssertEqual(url.path, root.appendingPathComponent(relative).path, file: file, line: line)
    }

    /// Asserts that `rawPath` is refused: forbidden or not found, never a file.
    private func assertRefused(_ rawPath: String, file: StaticString = #filePath, line: UInt = #line) {
        switch resolver.resolve(rawPath: rawPath) {
        case .forbidden, .notFound, .tooLong: break
        case .file(let url): XCTFail("\(rawPath) escaped to \(url.path)", file: file, line: line)
        }
    }

    private func assertForbidden(_ rawPath: String, file: StaticString = #filePath, line: UInt = #line) {
        guard case .forbidden = resolver.resolve(rawPath: rawPath) else {
            return XCTFail("\(rawPath) resolved to \(resolver.resolve(rawPath: rawPath)), not .forbidden", file: file, line: line)
        }
    }

    private func link(_ name: String, to target: URL) throws {
        try FileManager.default.createSymbolicLink(
            at: root.appendingPathComponent(name), withDestinationURL: target)
    }

    // MARK: Allowed

    func testFileResolves() {
        assertFile("/index.html", "index.html")
    }

    func testNestedFileResolves() {
        assertFile("/css/site.css", "css/site.css")
    }

    func testPercentEncodedNameResolves() throws {
        try writeFile("x", to: "a b.css", in: root)
        assertFile("/a%20b.css", "a b.css")
    }

    func testMissingFileIsNotFound() {
        XCTAssertEqual(resolver.resolve(rawPath: "/nope.html"), .notFound)
        XCTAssertEqual(resolver.resolve(rawPath: "/css/nope.css"), .notFound)
    }

    func testDirectoryIsNotFound() {
        XCTAssertEqual(resolver.resolve(rawPath: "/images"), .notFound)
        XCTAssertEqual(resolver.resolve(rawPath: "/css/"), .notFound)
        XCTAssertEqual(resolver.resolve(rawPath: "/"), .notFound)
        XCTAssertEqual(resolver.resolve(rawPath: ""), .notFound)
    }

    func testSymlinkToAnotherFileInsideIsAllowed() throws {
        try link("alias.css", to: root.appendingPathComponent("css/site.css"))
        assertFile("/alias.css", "css/site.css")
    }

    // MARK: Attacks

    func testDotDot() {
        assertRefused("/../secret")
        assertForbidden("/../secret")
    }

    func testDotDotAfterASegment() {
        assertRefused("/a/../../secret")
        assertForbidden("/a/../../secret")
    }

    func testEncodedDotDotLowercase() {
        assertRefused("/%2e%2e/secret")
        assertForbidden("/%2e%2e/secret")
    }

    func testEncodedDotDotUppercase() {
        assertRefused("/%2E%2E/secret")
        assertForbidden("/%2E%2E/secret")
    }

    func testHalfEncodedDotDot() {
        assertRefused("/.%2e/secret")
        assertForbidden("/.%2e/secret")
    }

    func testEncodedSlashAfterDotDot() {
        assertRefused("/..%2fsecret")
        assertForbidden("/..%2fsecret")
    }

    func testEncodedAbsolutePath() {
        assertRefused("/%2fetc%2fpasswd")
        assertForbidden("/%2fetc%2fpasswd")
    }

    func testDoubleSlashAbsolutePathStaysInsideTheBundle() {
        // Must not read /etc/passwd: the empty segment is dropped and the path stays relative to the root.
        assertRefused("//etc/passwd")
        XCTAssertEqual(resolver.resolve(rawPath: "//etc/passwd"), .notFound)
    }

    func testBackslash() {
        assertRefused("/..\\secret")
        assertForbidden("/..\\secret")
    }

    func testEncodedBackslash() {
        assertRefused("/%5c..%5csecret")
        assertForbidden("/%5c..%5csecret")
    }

    func testEncodedNUL() {
        assertRefused("/index.html%00.png")
        assertForbidden("/index.html%00.png")
    }

    func testLiteralNUL() {
        assertRefused("/index.html\u{0}.png")
        assertForbidden("/index.html\u{0}.png")
    }

    func testSymlinkToFileOutside() throws {
        try link("leak.txt", to: base.appendingPathComponent("secret"))
        assertRefused("/leak.txt")
        assertForbidden("/leak.txt")
    }

    func testSymlinkToDirectoryOutside() throws {
        try link("outdir", to: base.appendingPathComponent("outside"))
        assertRefused("/outdir/secret")
        assertForbidden("/outdir/secret")
        assertRefused("/outdir")
    }

    func testSymlinkToASiblingWhoseNameStartsLikeTheBundle() throws {
        // "bundle-evil" starts with "bundle": a plain prefix check without "/" would let it through.
        try writeFile("sibling secret", to: "bundle-evil/secret", in: base)
        try link("sib", to: base.appendingPathComponent("bundle-evil"))
        assertForbidden("/sib/secret")
    }

    func testMalformedPercentEncoding() {
        assertRefused("/%zz")
        assertForbidden("/%zz")
    }

    // MARK: Size limits

    /// A page can ask for any URL; a path of tens of thousands of segments must be refused at
    /// once rather than walked (it used to be joined one segment at a time, quadratically).
    func testFiftyThousandSegmentsAreRefusedAsTooLong() {
        let path = String(repeating: "/a", count: 50_000) + "/x"
        guard case .tooLong = resolver.resolve(rawPath: path) else {
            return XCTFail("a 50k-segment path resolved to \(resolver.resolve(rawPath: path)), not .tooLong")
        }
    }

    func testDotDotChainIsRefusedAsTooLong() {
        let path = "/" + String(repeating: "a/../", count: 25_000) + "index.html"
        guard case .tooLong = resolver.resolve(rawPath: path) else {
            return XCTFail("an a/../ chain resolved to \(resolver.resolve(rawPath: path)), not .tooLong")
        }
    }

    func testPathJustOverTheByteLimitIsTooLongAndAtTheLimitIsNot() {
        let name = String(repeating: "n", count: 200)
        // Whole segments of 201 bytes up to just under the limit, then pad the last one.
        var atLimit = String(repeating: "/" + name, count: BundlePathResolver.maxPathBytes / 201)
        atLimit += "/" + String(repeating: "p", count: BundlePathResolver.maxPathBytes - atLimit.utf8.count - 1)
        XCTAssertEqual(atLimit.utf8.count, BundlePathResolver.maxPathBytes)
        XCTAssertEqual(resolver.resolve(rawPath: atLimit), .notFound)
        guard case .tooLong = resolver.resolve(rawPath: atLimit + "q") else {
            return XCTFail("a path one byte over the limit was not .tooLong")
        }
    }

    func testTooManySegmentsWithinTheByteLimitAreTooLong() {
        let path = String(repeating: "/a", count: BundlePathResolver.maxSegments) + "/x"
        XCTAssertLessThan(path.utf8.count, BundlePathResolver.maxPathBytes)
        guard case .tooLong = resolver.resolve(rawPath: path) else {
            return XCTFail(
                "\(BundlePathResolver.maxSegments + 1) segments resolved to \(resolver.resolve(rawPath: path)), not .tooLong")
        }
    }

    func testDeepFileWithinTheLimitsResolves() throws {
        let relative = (1...40).map { "d\($0)" }.joined(separator: "/") + "/deep.css"
        try writeFile("deep", to: relative, in: root)
        assertFile("/" + relative, relative)
    }
}
