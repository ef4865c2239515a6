import Foundation
import XCTest

@testable import PaywallCore

/// Where the databases live, and that only the commands that write create the directory.
final class DataDirectoryTests: XCTestCase {
    private var dir: URL!
    override func setUpWithError() throws { dir = try makeTemporaryDirectory("DataDirectoryTests") }
    override func tearDown() { removeTemporaryDirectory(dir) }

    private var environment: [String: String] {
        [
            "HOME": dir.appendingPathComponent("home").path, "XDG_DATA_HOME": dir.appendingPathComponent("data").path,
            "XDG_CACHE_HOME": dir.appendingPathComponent("cache").path,
        ]
    }

    func testLocatingCreatesNothing() throws {
        let explicit = DataDirectory.locate(explicit: dir.appendingPathComponent("typo/dir").path, environment: environment)
        XCTAssertEqual(explicit.url.path, dir.appendingPathComponent("typo/dir").path)
        XCTAssertEqual(explicit.bundleCache.path, dir.appendingPathComponent("typo/dir/cache").path)
        XCTAssertFalse(explicit.exists)
        let standard = DataDirectory.locate(explicit: nil, environment: environment)
        XCTAssertEqual(standard.url.path, dir.appendingPathComponent("data/paywall").path)
        XCTAssertEqual(standard.bundleCache.path, dir.appendingPathComponent("cache/paywall").path)
        XCTAssertFalse(standard.exists)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), [])
    }

    func testOpeningCreatesTheDirectoryForCommandsThatWrite() throws {
        let opened = try DataDirectory(explicit: nil, environment: environment)
        XCTAssertEqual(opened.url.path, dir.appendingPathComponent("data/paywall").path)
        XCTAssertTrue(opened.exists)
    }

    func testAFileWhereTheDirectoryShouldBeDoesNotExistAsOne() throws {
        let file = dir.appendingPathComponent("file")
        try Data().write(to: file)
        XCTAssertFalse(DataDirectory.locate(explicit: file.path, environment: environment).exists)
    }

    func testRelativeXDGPathsAreIgnored() {
        var relative = environment
        relative["XDG_DATA_HOME"] = "relative/data"
        XCTAssertEqual(
            DataDirectory.locate(explicit: nil, environment: relative).url.path,
            dir.appendingPathComponent("home/.local/share/paywall").path)
    }
}
