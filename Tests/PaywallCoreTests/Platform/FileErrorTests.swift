import Foundation
import XCTest

@testable import PaywallCore

/// File errors in words: which file, what the system said; never `NSCocoaErrorDomain Code=640`.
final class FileErrorTests: XCTestCase {
    func testTheSystemsWordsForCommonFailures() {
        XCTAssertEqual(FileError.reason(errno: ENOSPC), "no space left on device")
        XCTAssertEqual(FileError.reason(errno: ENAMETOOLONG), "file name too long")
        XCTAssertEqual(FileError.reason(errno: EACCES), "permission denied")
        XCTAssertEqual(FileError.reason(errno: EROFS), "read-only file system")
        // Foundation's codes without an underlying POSIX error.
        XCTAssertEqual(
            FileError.reason(NSError(domain: NSCocoaErrorDomain, code: NSFileWriteOutOfSpaceError)), "no space left on device")
        XCTAssertEqual(
            FileError.reason(NSError(domain: NSCocoaErrorDomain, code: NSFileWriteVolumeReadOnlyError)), "read-only file system")
    }

    func testAFullDeviceIsNamedWithItsFile() {
        XCTAssertThrowsError(
            try FileError.wrap("write", "/dev/full") { try Data("x".utf8).write(to: URL(fileURLWithPath: "/dev/full")) }
        ) {
            XCTAssertEqual("\($0)", "cannot write /dev/full: no space left on device")
        }
    }

    func testATooLongNameIsNamedWithItsFile() throws {
        let dir = try makeTemporaryDirectory("FileErrorTests")
        defer { removeTemporaryDirectory(dir) }
        let long = dir.appendingPathComponent(String(repeating: "a", count: 300))
        do {
            try Data("x".utf8).write(to: long)
            XCTFail("a 300-character name must not be writable")
        } catch {
            XCTAssertEqual(FileError.describe(error), "\(long.path): file name too long")
            XCTAssertEqual(
                FileError(error, action: "write", path: long.path).description, "cannot write \(long.path): file name too long")
        }
        XCTAssertEqual(
            FileError.describe(CocoaError(.coderInvalidValue)), "\(CocoaError(.coderInvalidValue))", "not a file error: unchanged"
        )
    }
}
