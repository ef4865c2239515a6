import Foundation
import XCTest

@testable import PaywallCore

/// Finding a paywall by id: config entry -> cached bundle -> newest good version -> in-use lock.
final class CachedPaywallTests: XCTestCase {
    private var dir: URL!
    override func setUpWithError() throws { dir = try makeTemporaryDirectory("CachedPaywallTests").resolvingSymlinksInPath() }
    override func tearDown() { removeTemporaryDirectory(dir) }

    @MainActor
    private func cache() throws -> BundleCache { try BundleCache(directory: dir.appendingPathComponent("cache")) }

    @MainActor
    private func find(
        _ id: String, _ config: PaywallConfig? = nil, in cache: BundleCache,
        onRefused: (InstalledBundle, [BundleProblem]) -> Void = { _, _ in }
    ) async throws -> CachedPaywall? {
        try await CachedPaywall.find(id: id, config: config, in: cache, onRefused: onRefused)
    }

    /// `find`, failing the test when nothing is found.
    @MainActor
    private func found(
        _ id: String, _ config: PaywallConfig? = nil, in cache: BundleCache,
        onRefused: (InstalledBundle, [BundleProblem]) -> Void = { _, _ in }
    ) async throws -> CachedPaywall {
        let paywall = try await find(id, config, in: cache, onRefused: onRefused)
        return try XCTUnwrap(paywall)
    }

    /// `find`, expecting an error `matches` accepts.
    @MainActor
    private func assertFindFails(
        _ id: String, _ config: PaywallConfig? = nil, in cache: BundleCache, _ unexpected: String,
        matches: (Error) -> Bool, file: StaticString = #filePath, line: UInt = #line
    ) async {
        do {
            _ = try await find(id, config, in: cache)
            XCTFail(unexpected, file: file, line: line)
        } catch {
            XCTAssertTrue(matches(error), "\(error)", file: file, line: line)
        }
    }

    @MainActor
    func testABareIdServesTheNewestGoodCachedVersion() async throws {
        let cache = try cache()
        try await cache.install(.directory(try packedBundle("promo", "1", "one", in: dir)))
        try await cache.install(.directory(try packedBundle("promo", "2", "two", in: dir)))
        let found = try await found("promo", in: cache)
        XCTAssertEqual(found.version.version, "2")
        XCTAssertEqual(found.bundle.root, found.version.directory.resolvingSymlinksInPath())
        XCTAssertEqual(found.bundle.identifier, "promo")
        XCTAssertEqual(found.slots, ProductSlots())
    }

    @MainActor
    func testAConfigIdNamesItsBundleBySourceAndBringsItsSlots() async throws {
        let cache = try cache()
        let source = try packedBundle("promo", "1", "one", in: dir)
        try await cache.install(.directory(source))
        let slots = try ProductSlots(parsing: "primary=pro.yearly")
        let config = PaywallConfig(paywalls: [.init(id: "spring", source: source.path, slots: slots, preload: false)])
        let found = try await found("spring", config, in: cache)
        XCTAssertEqual([found.version.id, found.version.version], ["promo", "1"])
        XCTAssertEqual(found.slots, slots)
    }

    @MainActor
    func testAnIdNeitherTheConfigNorTheCacheKnowsIsNotFound() async throws {
        let cache = try cache()
        try await cache.install(.directory(try packedBundle("promo", "1", "one", in: dir)))
        let found = try await find("other", PaywallConfig(paywalls: []), in: cache)
        XCTAssertNil(found)
    }

    @MainActor
    func testAConfigEntryWhoseBundleWasNeverInstalledIsNotCached() async throws {
        let config = PaywallConfig(paywalls: [
            .init(
                id: "spring", source: "https://cdn.example.com/spring/manifest.json",
                slots: ProductSlots(), preload: false)
        ])
        await assertFindFails("spring", config, in: try cache(), "found a bundle that was never installed") {
            if case BundleCache.CacheError.notCached("spring") = $0 { true } else { false }
        }
    }

    @MainActor
    func testADamagedVersionIsRefusedAndTheOneBeforeItServed() async throws {
        let cache = try cache()
        try await cache.install(.directory(try packedBundle("promo", "1", "one", in: dir)))
        let v2 = try await cache.install(.directory(try packedBundle("promo", "2", "two", in: dir)))
        try Data("<p>tw0</p>".utf8).write(to: v2.directory.appendingPathComponent("index.html"))
        var refused: [String] = []
        let found = try await found("promo", in: cache) { version, _ in refused.append(version.version) }
        XCTAssertEqual(found.version.version, "1")
        XCTAssertEqual(refused, ["2"])
    }

    @MainActor
    func testAVersionWhoseFilesWereDeletedLeavesNoGoodVersion() async throws {
        let cache = try cache()
        let v1 = try await cache.install(.directory(try packedBundle("promo", "1", "one", in: dir)))
        try FileManager.default.removeItem(at: v1.directory)
        await assertFindFails("promo", in: cache, "found a version whose files are gone") {
            if case BundleCache.CacheError.noGoodVersion("promo") = $0 { true } else { false }
        }
    }

    /// While the found paywall lives, no process's prune or remove deletes it.
    @MainActor
    func testTheFoundPaywallIsKeptInUseWhileHeld() async throws {
        let cache = try cache()
        try await cache.install(.directory(try packedBundle("promo", "1", "one", in: dir)))
        var found = try await find("promo", in: cache)
        XCTAssertNotNil(found)
        let other = try BundleCache(directory: cache.directory)  // another process's cache
        await assertEqualAsync(try await other.prune(budgetBytes: 0), [])
        XCTAssertThrowsError(try other.remove(id: "promo")) { XCTAssertTrue("\($0)".contains("promo is on screen"), "\($0)") }
        found = nil
        await assertEqualAsync(try await other.prune(budgetBytes: 0), ["promo 1"])
    }
}
