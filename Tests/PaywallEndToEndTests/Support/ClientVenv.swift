import Foundation
import XCTest

/// `.build/venv`, which `scripts/venv` makes (`.ci/run` runs it): Debian's python3 with its
/// packages (PyGObject for the GTK 4 example) and the Python client pip-installed from
/// `clients/python`, as an app's own environment has it.
enum ClientVenv {
    static let python = EndToEndTestCase.packageRoot.appendingPathComponent(".build/venv/bin/python")

    /// The venv's interpreter; fails the test, saying how to make it, when there is none.
    static func interpreter(file: StaticString = #filePath, line: UInt = #line) throws -> URL {
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            XCTFail("\(python.path) is missing: run scripts/venv (it pip-installs clients/python)", file: file, line: line)
            throw XCTSkip("no venv")
        }
        return python
    }
}
