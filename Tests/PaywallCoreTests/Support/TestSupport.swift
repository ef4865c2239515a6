import Foundation
import XCTest

@testable import PaywallCore

/// A fresh directory under the system temp folder, with its symlinks resolved
/// (`/tmp` may itself be a link). Remove it with `removeTemporaryDirectory`.
func makeTemporaryDirectory(_ label: String = "PaywallCoreTests") throws -> URL {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("\(label)-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url.resolvingSymlinksInPath()
}

func removeTemporaryDirectory(_ url: URL?) {
    guard let url else { return }
    try? FileManager.default.removeItem(at: url)
}

/// Writes `contents` to `relativePath` below `root`, creating intermediate folders.
@discardableResult
func writeFile(_ contents: String, to relativePath: String, in root: URL) throws -> URL {
    let url = root.appendingPathComponent(relativePath)
    try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(contents.utf8).write(to: url)
    return url
}

/// The JSON text of an envelope holding `events` (each given as JSON text).
func envelope(_ events: [String]) -> String {
    #"{"version": 1, "payload": {"events": ["# + events.joined(separator: ", ") + "]}}"
}

/// Decodes an envelope holding exactly one event and returns its decoded message,
/// failing the test when the event did not decode.
func decodeOne(
    _ event: String, file: StaticString = #filePath, line: UInt = #line
) throws -> PageMessage? {
    let batch = try PageEnvelopeDecoder().decode(envelope([event]))
    XCTAssertEqual(batch.problems, [], "unexpected problems for \(event)", file: file, line: line)
    XCTAssertEqual(batch.messages.count, 1, "expected one message for \(event)", file: file, line: line)
    return batch.messages.first
}

/// Decodes an envelope holding exactly one event that must fail, and returns its problem.
func decodeProblem(
    _ event: String, file: StaticString = #filePath, line: UInt = #line
) throws -> PageEnvelopeDecoder.Problem? {
    let batch = try PageEnvelopeDecoder().decode(envelope([event]))
    XCTAssertEqual(batch.messages, [], "unexpected messages for \(event)", file: file, line: line)
    XCTAssertEqual(batch.problems.count, 1, "expected one problem for \(event)", file: file, line: line)
    return batch.problems.first
}

/// The error `decode` throws for `text`, or nil when it decoded.
func envelopeError(
    _ text: String, maximumBytes: Int = PageEnvelopeDecoder.defaultMaximumBytes
) -> PageEnvelopeDecoder.EnvelopeError? {
    do {
        _ = try PageEnvelopeDecoder(maximumBytes: maximumBytes).decode(text)
        return nil
    } catch {
        return error
    }
}

/// A packed bundle `id` at `version` in `dir/src-ID-VERSION` whose index.html says `text`,
/// with `extra` files (path -> text).
func packedBundle(_ id: String, _ version: String, _ text: String, extra: [String: String] = [:], in dir: URL) throws -> URL {
    let root = dir.appendingPathComponent("src-\(id)-\(version)")
    _ = try writeFile("<p>\(text)</p>", to: "index.html", in: root)
    for (path, body) in extra { _ = try writeFile(body, to: path, in: root) }
    _ = try writeFile(#"{"id": "\#(id)", "version": "\#(version)"}"#, to: "manifest.json", in: root)
    try BundleInspector.pack(root)
    return root
}
