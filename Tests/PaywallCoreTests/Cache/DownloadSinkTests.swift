import Foundation
import XCTest

@testable import PaywallCore

/// A download's destination never holds more than its limit, whatever is offered.
final class DownloadSinkTests: XCTestCase {
    private var dir: URL!
    override func setUpWithError() throws { dir = try makeTemporaryDirectory("DownloadSinkTests") }
    override func tearDown() { removeTemporaryDirectory(dir) }

    func testTheStagedFileNeverPassesTheLimit() throws {
        let file = dir.appendingPathComponent("staged.part")
        let sink = try DownloadSink(file: file, limit: 10, kind: .perFile)
        XCTAssertTrue(try sink.append(Data("12345".utf8)))
        XCTAssertFalse(try sink.append(Data("123456".utf8)), "one byte too many: refused whole")
        XCTAssertTrue(try sink.append(Data("12345".utf8)))
        XCTAssertFalse(try sink.append(Data("1".utf8)))
        XCTAssertEqual(sink.finish(), SHA256.hex(Data("1234512345".utf8)))
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int, 10)
    }

    /// A bundle file may be a link to a device that never ends: it is read up to the limit only.
    func testAnEndlessLocalFileStopsAtTheLimit() throws {
        let sink = DownloadSink(limit: 100_000, kind: .document)
        XCTAssertFalse(try sink.fill(from: URL(fileURLWithPath: "/dev/zero")))
        XCTAssertLessThanOrEqual(sink.count, 100_000)
        XCTAssertEqual(sink.data.count, sink.count)
    }

    @MainActor
    func testABundleFileLinkedToAnEndlessDeviceIsRefused() async throws {
        let root = dir.appendingPathComponent("bundle")
        try writeFile("<p>x</p>", to: "index.html", in: root)
        try FileManager.default.createSymbolicLink(
            atPath: root.appendingPathComponent("data.bin").path, withDestinationPath: "/dev/zero")
        try writeFile(
            #"""
            {"id": "zero", "version": "1", "files": {
              "index.html": {"sha256": "\#(SHA256.hex(Data("<p>x</p>".utf8)))", "size": 8},
              "data.bin": {"sha256": "\#(String(repeating: "0", count: 64))", "size": 1000}}}
            """#, to: "manifest.json", in: root)
        let cache = try BundleCache(directory: dir.appendingPathComponent("cache"))
        await assertThrowsErrorAsync(
            try await cache.install(.directory(root)),
            contains: "download of \(root.path)/data.bin stopped: larger than the 1000 bytes its manifest gives it")
    }
}
