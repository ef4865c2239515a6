import CGtk
import Foundation
import PaywallCore
import XCTest

@testable import PaywallHost

/// The repository's root (`Tests/PaywallHostTests/Support/` is three levels down): its
/// `web/`, `locales/` and `templates/` are the runtime's resources in these tests.
let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// A fresh directory under the system temp folder; the test removes it.
func makeTemporaryDirectory(_ label: String) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Turns the GLib loop (WebKit's signals, the main queue) until `condition` holds or
/// `timeout` seconds pass; returns whether it held.
@MainActor
func runLoop(timeout: Double = 15, until condition: @escaping @MainActor () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition(), Date() < deadline {
        g_main_context_iteration(nil, 0)
        try? await Task.sleep(nanoseconds: 5_000_000)
    }
    return condition()
}

/// Starts GTK on the test's display; without one, fails the test and returns false (these
/// tests make real WebKit views: run the suite under `xvfb-run -a`).
@MainActor
func startToolkitOnDisplay(file: StaticString = #filePath, line: UInt = #line) throws -> Bool {
    guard ProcessInfo.processInfo.environment["DISPLAY"] != nil else {
        XCTFail("needs a display: run the suite under `xvfb-run -a`", file: file, line: line)
        return false
    }
    try Toolkit.initialize()
    return true
}

/// A presenter over the repository's resources, in `en_US`, and the names of the events it has
/// reported so far.
@MainActor
final class RecordingPresenter {
    let presenter: PaywallPresenter
    private(set) var names: [EventName] = []

    init() throws {
        presenter = try PaywallPresenter(resources: RuntimeResources(root: packageRoot), locale: "en_US")
        presenter.events.observe { [weak self] in self?.names.append($0.name) }
    }

    /// Preloads the bundle at `path` as `id` and turns the loop until it completed; false if it never did.
    func preload(_ path: String, as id: String) async throws -> Bool {
        let before = names.filter { $0 == .paywallPreloadComplete }.count
        presenter.preload(try PaywallBundle(path: path), as: id)
        return await runLoop { self.names.filter { $0 == .paywallPreloadComplete }.count > before }
    }
}
