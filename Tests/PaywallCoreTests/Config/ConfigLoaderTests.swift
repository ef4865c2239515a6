import Foundation
import Synchronization
import XCTest

@testable import PaywallCore

final class ConfigLoaderTests: XCTestCase {
    private var dir: URL!
    override func setUpWithError() throws { dir = try makeTemporaryDirectory("ConfigLoaderTests") }
    override func tearDown() { removeTemporaryDirectory(dir) }

    private var cachePath: String { dir.appendingPathComponent("config.json").path }
    private func config(_ ids: [String]) -> Data {
        Data(
            #"{"paywalls": [\#(ids.map { #"{"id": "\#($0)", "manifest_url": "/b/\#($0)", "preload": true}"# }.joined(separator: ","))]}"#
                .utf8)
    }

    func testParsing() throws {
        let parsed = try PaywallConfig(
            data: Data(
                #"""
                {"paywalls": [{"id": "promo", "manifest_url": "https://cdn.example.com/m.json",
                               "products": {"secondary": "b", "primary": "a"}, "preload": true},
                              {"id": "onboarding", "manifest_url": "bundles/onb"}]}
                """#.utf8), origin: "c.json")
        XCTAssertEqual(parsed.paywalls.map(\.id), ["promo", "onboarding"])
        XCTAssertEqual(parsed.entry(id: "promo")?.slots.entries.map(\.slot), ["primary", "secondary"])
        XCTAssertEqual(parsed.entry(id: "promo")?.preload, true)
        XCTAssertEqual(parsed.entry(id: "onboarding")?.preload, false)
        let dropping = try PaywallConfig(
            data: Data(
                #"{"paywalls": [{"id": "pdf", "manifest_url": "m", "products": {"primary": "pdfapp.pro", "secondary": null}}]}"#
                    .utf8), origin: "c.json")
        XCTAssertEqual(dropping.entry(id: "pdf")?.slots.entries.map(\.slot), ["primary"])
        XCTAssertEqual(dropping.entry(id: "pdf")?.slots.dropped, ["secondary"], "null drops the manifest's slot")
        for (json, expected) in [
            ("[]", "expected {\"paywalls\""), (#"{"paywalls": [{"id": "x"}]}"#, "needs a \"manifest_url\""),
            (#"{"paywalls": [{"id": "x", "manifest_url": "a"}, {"id": "x", "manifest_url": "b"}]}"#, "appears twice"),
            (#"{"paywalls": [{"id": "x", "manifest_url": "a", "preload": "yes"}]}"#, "true or false"),
            (#"{"paywalls": [{"id": "x", "manifest_url": "a", "products": {"primary": 5}}]}"#, "or null to drop the slot"),
            (Fuzz.deeplyNested, "nested more than 512 levels"), (Fuzz.wideAndDeep, "expected {\"paywalls\""),
            (#"{"paywalls": [], "paywalls": [{"id": "x", "manifest_url": "a"}]}"#, #"duplicate key "paywalls""#),
            (#"{"paywalls": [{"id": "x", "manifest_url": "a", "id": "y"}]}"#, "line 1, column 48"),
        ] {
            XCTAssertThrowsError(try PaywallConfig(data: Data(json.utf8), origin: "c.json")) { error in
                XCTAssertTrue("\(error)".contains(expected) && "\(error)".contains("c.json"), "\(json.prefix(100)): \(error)")
            }
        }
    }

    @MainActor
    func testAFastSourceIsUsedAndCached() async throws {
        let loader = ConfigLoader(cachePath: cachePath)
        let data = config(["a"])
        let (loaded, origin) = try await loader.load(origin: "test") { data }
        XCTAssertEqual(origin, .source)
        XCTAssertEqual(loaded.paywalls.map(\.id), ["a"])
        XCTAssertEqual(FileManager.default.contents(atPath: cachePath), data)
    }

    /// A relative `manifest_url` is relative to the config file's folder (or the config URL),
    /// not to the working directory, and the cached copy holds it absolute for any later process.
    @MainActor
    func testRelativeManifestURLsAreRelativeToTheConfig() async throws {
        let data = Data(
            #"""
            {"paywalls": [{"id": "a", "manifest_url": "bundles/a"}, {"id": "b", "manifest_url": "../b"},
                          {"id": "c", "manifest_url": "/abs/c"}, {"id": "d", "manifest_url": "https://cdn.example.com/d/manifest.json"}]}
            """#.utf8)
        let (fromFile, _) = try await ConfigLoader(cachePath: cachePath).load(origin: "/apps/lumen/config/paywalls.json") { data }
        XCTAssertEqual(
            fromFile.paywalls.map(\.source),
            [
                "/apps/lumen/config/bundles/a", "/apps/lumen/b", "/abs/c",
                "https://cdn.example.com/d/manifest.json",
            ])
        let cached = try PaywallConfig(data: XCTUnwrap(FileManager.default.contents(atPath: cachePath)), origin: "cache")
        XCTAssertEqual(cached.paywalls.map(\.source), fromFile.paywalls.map(\.source))
        let (fromURL, _) = try await ConfigLoader(cachePath: cachePath).load(origin: "https://cdn.example.com/app/config.json") {
            data
        }
        XCTAssertEqual(
            fromURL.paywalls.map(\.source),
            [
                "https://cdn.example.com/app/bundles/a", "https://cdn.example.com/b", "/abs/c",
                "https://cdn.example.com/d/manifest.json",
            ])
    }

    /// A source slower than the bound: the cached copy now, the new one cached in the background.
    @MainActor
    func testASlowSourceFallsBackToTheCacheAndRefreshesIt() async throws {
        try config(["old"]).write(to: URL(fileURLWithPath: cachePath))
        let loader = ConfigLoader(cachePath: cachePath, timeout: 0.05)
        let fresh = config(["new"])
        let sourceAnswered = Mutex(false)
        let (loaded, origin) = try await loader.load(origin: "test") {
            try await Task.sleep(nanoseconds: 600_000_000)
            sourceAnswered.withLock { $0 = true }
            return fresh
        }
        XCTAssertEqual(origin, .cache)
        XCTAssertEqual(loaded.paywalls.map(\.id), ["old"])
        XCTAssertFalse(sourceAnswered.withLock { $0 }, "load returned before the slow source answered")
        await loader.refresh?.value
        XCTAssertEqual(FileManager.default.contents(atPath: cachePath), fresh, "refreshed for next time")
    }

    @MainActor
    func testAFailingSourceFallsBackToTheCache() async throws {
        try config(["old"]).write(to: URL(fileURLWithPath: cachePath))
        struct Down: Error {}
        let (loaded, origin) = try await ConfigLoader(cachePath: cachePath).load(origin: "test") { throw Down() }
        XCTAssertEqual(origin, .cache)
        XCTAssertEqual(loaded.paywalls.map(\.id), ["old"])
    }

    @MainActor
    func testWithNothingCachedTheSlowSourceIsAwaited() async throws {
        let only = config(["only"])
        let (loaded, origin) = try await ConfigLoader(cachePath: cachePath, timeout: 0.01).load(origin: "test") {
            try await Task.sleep(nanoseconds: 100_000_000)
            return only
        }
        XCTAssertEqual(origin, .source)
        XCTAssertEqual(loaded.paywalls.map(\.id), ["only"])
    }
}
