import Foundation
import XCTest

@testable import PaywallCore

/// `FileSystem.contents` reads whole files whatever size they report, and says nil for what
/// cannot be read. (That it keeps nothing per read is counted in `ProcessMemoryTests`.)
final class FileSystemTests: XCTestCase {
    func testFilesThatReportSizeZeroAreReadToTheirEnd() throws {
        let status = try XCTUnwrap(FileSystem.contents(atPath: "/proc/self/status"))
        XCTAssertTrue(String(decoding: status, as: UTF8.self).contains("VmRSS:"))
    }

    func testEmptyLargeMissingAndFolder() throws {
        let dir = try makeTemporaryDirectory("FileSystemTests")
        defer { removeTemporaryDirectory(dir) }
        let empty = dir.appendingPathComponent("empty.css")
        try Data().write(to: empty)
        XCTAssertEqual(FileSystem.contents(atPath: empty.path), Data())
        let large = dir.appendingPathComponent("large.bin")
        let bytes = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try bytes.write(to: large)
        XCTAssertEqual(FileSystem.contents(atPath: large.path), bytes)
        XCTAssertNil(FileSystem.contents(atPath: dir.appendingPathComponent("missing").path))
        XCTAssertNil(FileSystem.contents(atPath: dir.path), "a folder is not a file")
    }
}
