import Foundation
import Synchronization
import XCTest

@testable import PaywallCore

/// The bundle cache, called on the main actor (a GTK app's UI thread), hashes and copies
/// files on other threads.
final class BundleFileWorkTests: XCTestCase {
    private var dir: URL!
    override func setUpWithError() throws { dir = try makeTemporaryDirectory("BundleFileWorkTests").resolvingSymlinksInPath() }
    override func tearDown() { removeTemporaryDirectory(dir) }

    /// For each piece of file work, whether it ran on the main thread.
    private final class Threads: Sendable {
        private let onMain = Mutex<[Bool]>([])
        func record() { onMain.withLock { $0.append(Thread.isMainThread) } }
        var all: [Bool] { onMain.withLock { $0 } }
    }

    @MainActor
    func testInstallVerifyFindAndPruneHashAndCopyOffTheMainThread() async throws {
        let threads = Threads()
        let cache = try BundleCache(directory: dir.appendingPathComponent("cache"))
        cache.fileWork = BundleFileWork(probe: { threads.record() })
        XCTAssertTrue(Thread.isMainThread, "the calls below start on the main thread")

        /// Runs `step` and checks it did file work, none of it on the main thread.
        func check<T>(_ name: String, _ step: () async throws -> T) async throws -> T {
            let before = threads.all.count
            let result = try await step()
            let work = threads.all.dropFirst(before)
            XCTAssertFalse(work.isEmpty, "\(name) hashed or copied nothing through the cache's file work")
            XCTAssertEqual(work.filter { $0 }.count, 0, "\(name) hashed or copied on the main thread")
            return result
        }

        let source = try packedBundle("promo", "1", "one", extra: ["style.css": "p {}"], in: dir)
        let installed = try await check("install") { try await cache.install(.directory(source)) }
        try FileManager.default.removeItem(at: installed.directory)  // installing again rebuilds it from stored objects
        _ = try await check("install over stored objects") { try await cache.install(.directory(source)) }
        _ = try await check("goodVersion") { try await cache.goodVersion(id: "promo") }
        _ = try await check("verify") { await cache.verify(installed) }
        _ = try await check("CachedPaywall.find") { try await CachedPaywall.find(id: "promo", config: nil, in: cache) }
        try await cache.install(.directory(try packedBundle("promo", "2", "two", in: dir)))
        _ = try await check("prune") { try await cache.prune(budgetBytes: Int.max) }
    }
}
