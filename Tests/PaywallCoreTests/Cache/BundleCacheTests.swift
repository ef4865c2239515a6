import Foundation
import XCTest

@testable import PaywallCore

/// The integrity-checked bundle cache, installing from directories.
final class BundleCacheTests: XCTestCase {
    private var dir: URL!
    override func setUpWithError() throws { dir = try makeTemporaryDirectory("BundleCacheTests").resolvingSymlinksInPath() }
    override func tearDown() { removeTemporaryDirectory(dir) }

    private func bundle(_ id: String, _ version: String, _ text: String, extra: [String: String] = [:]) throws -> URL {
        try packedBundle(id, version, text, extra: extra, in: dir)
    }

    @MainActor
    private func cache() throws -> BundleCache { try BundleCache(directory: dir.appendingPathComponent("cache")) }

    @MainActor
    func testInstallThenServeTheNewestGoodVersion() async throws {
        let cache = try cache()
        let v1 = try await cache.install(.directory(try bundle("promo", "1", "one")))
        XCTAssertEqual([v1.id, v1.version], ["promo", "1"])
        try await cache.install(.directory(try bundle("promo", "2", "two")))
        let good = try await cache.goodVersion(id: "promo")
        XCTAssertEqual(good.version, "2")
        XCTAssertEqual(try String(contentsOf: good.directory.appendingPathComponent("index.html"), encoding: .utf8), "<p>two</p>")
        XCTAssertEqual(try cache.list().map(\.version), ["2", "1"])
    }

    @MainActor
    func testTamperedFileIsRefusedAndTheLastGoodVersionServed() async throws {
        let cache = try cache()
        try await cache.install(.directory(try bundle("promo", "1", "one")))
        let v2 = try await cache.install(.directory(try bundle("promo", "2", "two")))
        var page = try Data(contentsOf: v2.directory.appendingPathComponent("index.html"))
        page[3] ^= 0x01
        try page.write(to: v2.directory.appendingPathComponent("index.html"))

        await assertEqualAsync(await cache.verify(v2).map(\.description), ["promo 2: index.html: does not match its sha256"])
        var refused: [String] = []
        let served = try await cache.goodVersion(id: "promo") { version, _ in refused.append(version.version) }
        XCTAssertEqual(served.version, "1")
        XCTAssertEqual(refused, ["2"])
        await assertEqualAsync(try await cache.goodVersion(id: "promo").version, "1", "a refused version stays refused")
    }

    @MainActor
    func testAHashMismatchAtInstallIsRefusedAndLeavesNothing() async throws {
        let cache = try cache()
        try await cache.install(.directory(try bundle("promo", "1", "one")))
        let broken = try bundle("promo", "2", "two")
        try Data("<p>tw0</p>".utf8).write(to: broken.appendingPathComponent("index.html"))  // same size, other bytes
        do {
            try await cache.install(.directory(broken))
            XCTFail("a file that does not match its hash must not install")
        } catch {
            XCTAssertTrue("\(error)".contains("index.html: content does not match its sha256"), "\(error)")
        }
        XCTAssertEqual(try cache.list().map(\.version), ["1"], "the old version is intact and current")
        XCTAssertFalse(FileManager.default.fileExists(atPath: cache.versionDirectory(id: "promo", version: "2").path))
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: cache.directory.appendingPathComponent("tmp").path), [])
    }

    @MainActor
    func testAFailureHalfWayLeavesTheOldVersionIntact() async throws {
        let cache = try cache()
        try await cache.install(.directory(try bundle("promo", "1", "one")))
        let half = try bundle("promo", "2", "two", extra: ["big.txt": String(repeating: "x", count: 5000)])
        try FileManager.default.removeItem(at: half.appendingPathComponent("big.txt"))  // a half-uploaded bundle
        do {
            try await cache.install(.directory(half))
            XCTFail("a bundle with a missing file must not install")
        } catch {
            XCTAssertTrue("\(error)".contains("big.txt"), "\(error)")
        }
        await assertEqualAsync(try await cache.goodVersion(id: "promo").version, "1")
    }

    @MainActor
    func testSameVersionWithOtherContentIsAConflict() async throws {
        let cache = try cache()
        try await cache.install(.directory(try bundle("promo", "1", "one")))
        try await cache.install(.directory(try bundle("promo", "1", "one")))  // the same again is fine
        do {
            try await cache.install(.directory(try bundle("promo", "1", "changed")))
            XCTFail("must refuse")
        } catch {
            XCTAssertTrue("\(error)".contains("promo 1 is already cached with different content; bump the version"), "\(error)")
        }
    }

    @MainActor
    func testUnpackedOrUnsafeManifestsAreRefused() async throws {
        let cache = try cache()
        let unpacked = dir.appendingPathComponent("unpacked")
        _ = try writeFile("<p>x</p>", to: "index.html", in: unpacked)
        _ = try writeFile(#"{"id": "x", "version": "1"}"#, to: "manifest.json", in: unpacked)
        await assertThrowsErrorAsync(try await cache.install(.directory(unpacked)), contains: "the bundle is not packed")
        let escape = try bundle("evil", "1", "x")
        let manifest = try String(contentsOf: escape.appendingPathComponent("manifest.json"), encoding: .utf8)
            .replacingOccurrences(of: "\"index.html\"", with: "\"../../outside.html\"")
        try manifest.write(to: escape.appendingPathComponent("manifest.json"), atomically: true, encoding: .utf8)
        await assertThrowsErrorAsync(try await cache.install(.directory(escape)), contains: "path inside the bundle")
        await assertThrowsErrorAsync(
            try await cache.install(.directory(dir.appendingPathComponent("nowhere"))),
            contains: "no manifest.json")
    }

    @MainActor
    func testPruneDropsSupersededVersionsThenLeastRecentlyUsedButNeverPinnedOrInUse() async throws {
        let cache = try cache()
        let body = String(repeating: "y", count: 1000)
        for id in ["a", "b", "c", "d"] {
            try await cache.install(.directory(try bundle(id, "1", id + body)))
        }
        try await cache.install(.directory(try bundle("a", "2", "a2" + body)))
        try cache.pin("b")
        // Use order, oldest first: c, then d, a (in use), b (pinned).
        for id in ["c", "d", "a"] {
            _ = try await cache.goodVersion(id: id)
            usleep(2000)
        }
        let removed = try await cache.prune(budgetBytes: 3500, inUse: ["a"])  // five versions of about 1 kB each
        XCTAssertEqual(removed, ["c 1", "d 1"], "least recently used first; on-screen a and pinned b keep every version")
        XCTAssertEqual(Set(try cache.list().map { "\($0.id) \($0.version)" }), ["a 1", "a 2", "b 1"])
        await assertEqualAsync(try await cache.prune(budgetBytes: 0, inUse: ["a"]), [], "pinned b and on-screen a stay")
        await assertEqualAsync(
            try await cache.prune(budgetBytes: 1_000_000), ["a 1"], "off screen, a's superseded version goes")
    }

    @MainActor
    func testPruneKeepsTheLastVersionThatVerifies() async throws {
        let cache = try cache()
        try await cache.install(.directory(try bundle("promo", "1", "one")))
        let v2 = try await cache.install(.directory(try bundle("promo", "2", "two")))
        try Data("<p>tw0</p>".utf8).write(to: v2.directory.appendingPathComponent("index.html"))
        await assertEqualAsync(
            try await cache.prune(budgetBytes: 1_000_000), ["promo 2"], "the damaged newest goes, the good one stays")
        await assertEqualAsync(try await cache.goodVersion(id: "promo").version, "1")
    }

    @MainActor
    func testAddingARefusedVersionAgainRepairsIt() async throws {
        let cache = try cache()
        let source = try bundle("promo", "1", "one")
        let v1 = try await cache.install(.directory(source))
        try Data("<p>0ne</p>".utf8).write(to: v1.directory.appendingPathComponent("index.html"))
        await assertThrowsErrorAsync(try await cache.goodVersion(id: "promo"), contains: "promo")
        try await cache.install(.directory(source))
        await assertEqualAsync(try await cache.goodVersion(id: "promo").version, "1", "rebuilt from the source")
    }

    @MainActor
    func testAVersionWithoutItsManifestFailsVerification() async throws {
        let cache = try cache()
        let v1 = try await cache.install(.directory(try bundle("promo", "1", "one")))
        try FileManager.default.removeItem(at: v1.directory.appendingPathComponent("manifest.json"))
        await assertEqualAsync(
            await cache.verify(v1).map(\.description), ["promo 1: manifest.json: missing, unreadable or without files"])
    }

    @MainActor
    func testABundleForANewerRuntimeIsRefusedAtInstall() async throws {
        let cache = try cache()
        let future = try bundle("promo", "9", "future")
        _ = try writeFile(#"{"id": "promo", "version": "9", "min_runtime_version": "99.0"}"#, to: "manifest.json", in: future)
        try BundleInspector.pack(future)
        await assertThrowsErrorAsync(try await cache.install(.directory(future)), contains: "needs paywall runtime 99.0")
    }

    @MainActor
    func testObjectsAreSharedAndCollected() async throws {
        let cache = try cache()
        let shared = String(repeating: "z", count: 100)
        try await cache.install(.directory(try bundle("a", "1", "a", extra: ["lib.js": shared])))
        try await cache.install(.directory(try bundle("b", "1", "b", extra: ["lib.js": shared])))
        let object = cache.objectURL(SHA256.hex(Data(shared.utf8)))
        XCTAssertTrue(FileManager.default.fileExists(atPath: object.path))
        try cache.remove(id: "a")
        XCTAssertTrue(FileManager.default.fileExists(atPath: object.path), "b still uses it")
        try cache.remove(id: "b")
        XCTAssertFalse(FileManager.default.fileExists(atPath: object.path))
        await assertThrowsErrorAsync(try await cache.goodVersion(id: "b"), contains: "no bundle b in the cache")
    }

    /// An install running in another process holds the cache's lock shared: pruning then leaves
    /// unrecorded objects and staging files alone, and collects them once it is done.
    @MainActor
    func testGarbageCollectionWaitsForInstallsInOtherProcesses() async throws {
        let cache = try cache()
        try await cache.install(.directory(try bundle("a", "1", "a")))
        let orphan = cache.objectURL(SHA256.hex(Data("being installed".utf8)))
        _ = try writeFile(
            "being installed", to: "objects/\(orphan.deletingLastPathComponent().lastPathComponent)/\(orphan.lastPathComponent)",
            in: cache.directory)
        let staging = try writeFile("<p>half</p>", to: "tmp/staging-1/index.html", in: cache.directory)
        var installing: FileLock? = try FileLock(path: cache.lockPath, mode: .shared)  // a second open file: like another process
        XCTAssertNotNil(installing)
        await assertEqualAsync(
            try await cache.prune(budgetBytes: 0), [], "no eviction for the budget while disk usage cannot fall")
        await assertEqualAsync(try await cache.goodVersion(id: "a").version, "1")
        try cache.remove(id: "a")
        XCTAssertTrue(FileManager.default.fileExists(atPath: orphan.path), "an object of a running install was deleted")
        XCTAssertTrue(FileManager.default.fileExists(atPath: staging.path), "a running install's staging was deleted")
        installing = nil
        try await cache.install(.directory(try bundle("b", "1", "b")))
        try await cache.prune(budgetBytes: Int.max)
        XCTAssertFalse(FileManager.default.fileExists(atPath: orphan.path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: staging.path))
        await assertEqualAsync(try await cache.goodVersion(id: "b").version, "1")
    }

    /// The budget covers the objects as well as the versions' copies of them.
    @MainActor
    func testTheBudgetCountsStoredObjects() async throws {
        let cache = try cache()
        let big = String(repeating: "x", count: 10_000)
        let a = try await cache.install(.directory(try bundle("a", "1", "a", extra: ["data.txt": big])))
        let b = try await cache.install(.directory(try bundle("b", "1", "b", extra: ["data.txt": big + "y"])))
        XCTAssertEqual(try cache.diskUsage(), 2 * (a.size + b.size), "each file is stored twice")
        // Counting the versions only, both would fit; on disk only one does.
        let budget = a.size + b.size + 500
        await assertEqualAsync(try await cache.prune(budgetBytes: budget), ["a 1"])
        XCTAssertEqual(try cache.diskUsage(), 2 * b.size)
    }

    /// A bundle on screen in any process (`holdInUse`) survives `prune` and refuses `remove`.
    @MainActor
    func testABundleOnScreenInAnotherProcessIsKept() async throws {
        let cache = try cache()
        try await cache.install(.directory(try bundle("promo", "1", "one")))
        var onScreen: FileLock? = try BundleCache(directory: cache.directory).holdInUse("promo")  // another process's cache
        XCTAssertNotNil(onScreen)
        await assertEqualAsync(try await cache.prune(budgetBytes: 0), [])
        XCTAssertThrowsError(try cache.remove(id: "promo")) { XCTAssertTrue("\($0)".contains("promo is on screen"), "\($0)") }
        await assertEqualAsync(try await cache.goodVersion(id: "promo").version, "1")
        onScreen = nil
        await assertEqualAsync(try await cache.prune(budgetBytes: 0), ["promo 1"])
    }
}

/// `XCTAssertEqual` for async expressions.
@MainActor
func assertEqualAsync<T: Equatable>(
    _ expression: @autoclosure () async throws -> T, _ expected: T, _ message: String = "",
    file: StaticString = #filePath, line: UInt = #line
) async {
    do {
        let value = try await expression()
        XCTAssertEqual(value, expected, message, file: file, line: line)
    } catch {
        XCTFail("threw \(error)", file: file, line: line)
    }
}

/// `XCTAssertThrowsError` for async expressions, checking the message.
@MainActor
func assertThrowsErrorAsync<T>(
    _ expression: @autoclosure () async throws -> T, contains text: String,
    file: StaticString = #filePath, line: UInt = #line
) async {
    do {
        _ = try await expression()
        XCTFail("expected an error containing \(text)", file: file, line: line)
    } catch {
        XCTAssertTrue("\(error)".contains(text), "\(error)", file: file, line: line)
    }
}

/// Failures to write the cache, in words.
final class BundleCacheFileErrorTests: XCTestCase {
    private var dir: URL!
    override func setUpWithError() throws {
        dir = try makeTemporaryDirectory("BundleCacheFileErrorTests").resolvingSymlinksInPath()
    }
    override func tearDown() { removeTemporaryDirectory(dir) }

    private func bundle(id: String, body: String = "<p>x</p>") throws -> URL {
        let root = dir.appendingPathComponent("src")
        try writeFile(body, to: "index.html", in: root)
        try writeFile(#"{"id": "\#(id)", "version": "1"}"#, to: "manifest.json", in: root)
        try BundleInspector.pack(root)
        return root
    }

    @MainActor
    func testA300CharacterBundleIdIsRefusedWithItsLimit() async throws {
        let cache = try BundleCache(directory: dir.appendingPathComponent("cache"))
        let id = String(repeating: "a", count: 300)
        let root = dir.appendingPathComponent("src")
        try writeFile("<p>x</p>", to: "index.html", in: root)
        try writeFile(#"{"id": "\#(id)", "version": "1", "files": {}}"#, to: "manifest.json", in: root)
        await assertThrowsErrorAsync(
            try await cache.install(.directory(root)),
            contains: "\"id\" is 300 bytes long; it may be at most 128")
        XCTAssertEqual(try cache.list(), [])
    }

    /// A full disk: a 64 kB tmpfs (mounting needs root; elsewhere the test is skipped).
    @MainActor
    func testAFullDiskIsNoSpaceLeftOnDevice() async throws {
        let mount = dir.appendingPathComponent("small")
        try FileManager.default.createDirectory(at: mount, withIntermediateDirectories: true)
        guard run("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", mount.path]) == 0 else {
            throw XCTSkip("cannot mount a tmpfs here (not root)")
        }
        defer { _ = run("/bin/umount", [mount.path]) }
        let cache = try BundleCache(directory: mount.appendingPathComponent("cache"))
        let source = try bundle(id: "big", body: String(repeating: "x", count: 200_000))
        await assertThrowsErrorAsync(try await cache.install(.directory(source)), contains: ": no space left on device")
        XCTAssertEqual(try cache.list(), [])
    }

    private func run(_ tool: String, _ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
