import Foundation
import XCTest

@testable import PaywallCore

/// Installing from a manifest URL when the server misbehaves: answers 304 to a first request,
/// streams without end, declares gigabytes, trickles, or reuses a Last-Modified. Small limits
/// and short deadlines, set through the API, keep the tests quick.
final class BundleDownloadTests: XCTestCase {
    private var dir: URL!
    private var site: URL!
    private var server: TestHTTPServer!

    override func setUpWithError() throws {
        dir = try makeTemporaryDirectory("BundleDownloadTests").resolvingSymlinksInPath()
        site = dir.appendingPathComponent("site")
        try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
        server = try TestHTTPServer(root: site)
    }

    override func tearDown() {
        server?.stop()
        removeTemporaryDirectory(dir)
    }

    /// Packs `site/b` as promo `version` with `files` (path -> text); returns its manifest URL.
    @discardableResult
    private func publish(
        version: String = "1", _ files: [String: String] = ["index.html": "<p>one</p>"],
        extra: String = ""
    ) throws -> URL {
        let root = site.appendingPathComponent("b")
        try? FileManager.default.removeItem(at: root)
        for (path, text) in files { try writeFile(text, to: path, in: root) }
        try writeFile(#"{"id": "promo", "version": "\#(version)"\#(extra)}"#, to: "manifest.json", in: root)
        try BundleInspector.pack(root)
        return server.url("b/manifest.json")
    }

    /// Gives `path` in the published manifest another size (and a hash nothing matches).
    private func declare(_ path: String, size: Int) throws {
        let url = site.appendingPathComponent("b/manifest.json")
        var manifest = try BundleManifest(root: url.deletingLastPathComponent())
        manifest.files[path] = .init(sha256: String(repeating: "0", count: 64), size: size)
        try manifest.json.write(to: url, atomically: true, encoding: .utf8)
    }

    @MainActor
    private func cache(_ limits: DownloadLimits = DownloadLimits()) throws -> BundleCache {
        let cache = try BundleCache(directory: dir.appendingPathComponent("cache"))
        cache.limits = limits
        return cache
    }

    @MainActor
    private func assertInstallFails(
        _ cache: BundleCache, _ source: URL, contains text: String,
        file: StaticString = #filePath, line: UInt = #line
    ) async throws {
        await assertThrowsErrorAsync(try await cache.install(.manifestURL(source)), contains: text, file: file, line: line)
        XCTAssertEqual(try cache.list().map(\.version), [], "nothing installed", file: file, line: line)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: cache.directory.appendingPathComponent("tmp").path), [],
            "no staging file left", file: file, line: line)
    }

    // MARK: 304

    /// A 304 to a request that named no cached copy is the server's mistake: a clear error, no crash.
    @MainActor
    func testA304ToTheFirstManifestRequestIsAClearError() async throws {
        let url = try publish()
        try server.route("b/manifest.json", ["status": 304])
        try await assertInstallFails(try cache(), url, contains: "answered 304 Not Modified, but nothing from it is cached")
    }

    /// The cached copy is damaged: the manifest is asked for whole, not "has it changed?".
    @MainActor
    func testADamagedCopyIsFetchedAgainInsteadOfRevalidated() async throws {
        let url = try publish()
        try server.route(
            "b/manifest.json", ["last_modified": "Tue, 01 Dec 2026 10:00:00 GMT", "date": "Tue, 01 Dec 2026 11:00:00 GMT"])
        let cache = try cache()
        let v1 = try await cache.install(.manifestURL(url))
        try Data("<p>0ne</p>".utf8).write(to: v1.directory.appendingPathComponent("index.html"))
        try await cache.install(.manifestURL(url))
        await assertEqualAsync(await cache.verify(v1), [], "rebuilt from the server")
    }

    /// Last-Modified in the same second as the answer is weak: a bundle repacked within that
    /// second would get 304 and the old files would be reported as cached.
    @MainActor
    func testAWeakLastModifiedIsNotUsedToRevalidate() async throws {
        let url = try publish()
        try server.route("b/manifest.json", ["last_modified": "Tue, 01 Dec 2026 10:00:00 GMT"])
        let cache = try cache()
        let v1 = try await cache.install(.manifestURL(url))
        try publish(["index.html": "<p>changed</p>"])
        try await assertConflict(cache, url)
        XCTAssertEqual(try String(contentsOf: v1.directory.appendingPathComponent("index.html"), encoding: .utf8), "<p>one</p>")
    }

    @MainActor
    private func assertConflict(_ cache: BundleCache, _ url: URL, file: StaticString = #filePath, line: UInt = #line) async throws
    {
        await assertThrowsErrorAsync(
            try await cache.install(.manifestURL(url)),
            contains: "promo 1 is already cached with different content; bump the version", file: file, line: line)
    }

    // MARK: Limits

    /// A file that goes on past the size its manifest gives it stops there, staged no further.
    @MainActor
    func testAStreamWithoutEndStopsAtTheDeclaredSize() async throws {
        let url = try publish(["index.html": "<p>one</p>", "app.js": "let a = 1"])
        try server.route("b/app.js", ["forever": true, "bytes": 20_000_000])
        try await assertInstallFails(
            try cache(), url,
            contains: "download of \(server.url("b/app.js")) stopped: larger than the 9 bytes its manifest gives it")
    }

    /// A Content-Length of gigabytes stops the download before its body.
    @MainActor
    func testAHugeContentLengthStopsAtOnce() async throws {
        let url = try publish(["index.html": "<p>one</p>", "app.js": "let a = 1"])
        try server.route("b/app.js", ["declare": 10_000_000_000, "bytes": 20_000_000])
        try await assertInstallFails(try cache(), url, contains: "app.js stopped: larger than the 9 bytes its manifest gives it")
    }

    /// A manifest giving a file or the bundle more than the limits is refused before any download.
    @MainActor
    func testAManifestDeclaringTooMuchIsRefusedBeforeDownloading() async throws {
        let url = try publish(["index.html": "<p>one</p>", "app.js": "a", "lib.js": "b"])
        try server.route("b/app.js", ["forever": true, "bytes": 20_000_000])
        try server.route("b/lib.js", ["forever": true, "bytes": 20_000_000])
        try declare("app.js", size: 3_000_000)
        let cache = try cache(DownloadLimits(maxFileBytes: 2_000_000, maxBundleBytes: 4_000_000))
        try await assertInstallFails(
            cache, url,
            contains: "app.js is 3 MB by its manifest, larger than the 2 MB limit per file (DownloadLimits.maxFileBytes)")
        try declare("app.js", size: 1_500_000)
        try declare("lib.js", size: 2_000_000)
        cache.limits.maxBundleBytes = 3_000_000
        try await assertInstallFails(
            cache, url, contains: "larger than the 3 MB limit per bundle (DownloadLimits.maxBundleBytes)")
    }

    /// A manifest is read into memory: it stops at `maxDocumentBytes`.
    @MainActor
    func testAManifestWithoutEndStopsAtTheDocumentLimit() async throws {
        let url = try publish()
        try server.route("b/manifest.json", ["forever": true, "bytes": 20_000_000])
        try await assertInstallFails(
            try cache(DownloadLimits(maxDocumentBytes: 100_000)), url,
            contains: "download of \(url) stopped: larger than the 100000 bytes limit for a manifest or config")
        await assertThrowsErrorAsync(
            try await BundleSource.download(url, timeout: 30, limits: DownloadLimits(maxDocumentBytes: 100_000)),
            contains: "larger than the 100000 bytes limit for a manifest or config")
    }

    /// A server trickling a byte at a time never goes idle: the bundle's deadline ends it.
    @MainActor
    func testATricklingServerIsStoppedByTheDeadline() async throws {
        let url = try publish(["index.html": String(repeating: "x", count: 200)])
        try server.route("b/index.html", ["trickle": .number(0.05), "bytes": 200])
        try await assertInstallFails(
            try cache(DownloadLimits(deadline: 0.5)), url,
            contains:
                "index.html stopped: timed out after 0.5 s, the limit for downloading a whole bundle (DownloadLimits.deadline)")
    }

    /// A server that goes quiet fails after the idle timeout, in words.
    @MainActor
    func testAQuietServerTimesOutInWords() async throws {
        let url = try publish(["index.html": "xxx"])
        try server.route("b/index.html", ["trickle": 5, "bytes": 3])
        // Under a second counts as one: URLSession on Linux would make it 0 and fail at once.
        try await assertInstallFails(
            try cache(DownloadLimits(idleTimeout: 0.3)), url,
            contains: "cannot fetch \(server.url("b/index.html")): timed out: nothing arrived for 1 s")
    }

    /// No server: words, not `NSURLErrorDomain error -1004`.
    @MainActor
    func testNetworkErrorsAreInWords() async throws {
        server.stop()
        let url = server.url("b/manifest.json")
        try await assertInstallFails(try cache(), url, contains: "cannot fetch \(url): could not connect to host 127.0.0.1")
    }

    // MARK: Same version, other content

    /// The same files under a changed manifest (other products) is other content too.
    @MainActor
    func testSameVersionWithAnotherManifestIsRefusedAndTheOldOneKept() async throws {
        let url = try publish()
        let cache = try cache()
        let v1 = try await cache.install(.manifestURL(url))
        let before = try Data(contentsOf: v1.directory.appendingPathComponent("manifest.json"))
        try await cache.install(.manifestURL(url))  // the same again is fine
        try publish(extra: #", "products": {"primary": "pro.yearly"}"#)
        try await assertConflict(cache, url)
        XCTAssertEqual(try Data(contentsOf: v1.directory.appendingPathComponent("manifest.json")), before)
    }
}
