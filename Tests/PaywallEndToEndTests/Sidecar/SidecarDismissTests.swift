import Foundation
import PaywallCore
import XCTest

/// `dismiss` and shutdown reach a paywall that is still loading: with the app's own controller
/// the status is unknown at first, so `present` waits in the status check before any window
/// shows. A dismissed or shut-down presentation never appears, and every request is answered.
final class SidecarDismissTests: EndToEndTestCase {
    private let catalog = EndToEndTestCase.packageRoot.appendingPathComponent("templates/classic/store.json").path

    private func started() throws -> SidecarProcess {
        let sidecar = try SidecarProcess(in: workDir)
        let data = workDir.appendingPathComponent("data").path
        sidecar.send(
            #"{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"data_dir": "\#(data)", "catalog": "\#(catalog)", "controller": "app"}}"#
        )
        let initialized = try XCTUnwrap(sidecar.nextAnswer())
        XCTAssertTrue(initialized.contains(#""result":"#), initialized)
        let bundle = try fixtureBundle("kitchen-sink").path
        sidecar.send(#"{"jsonrpc": "2.0", "id": 2, "method": "present", "params": {"paywall": "\#(bundle)"}}"#)
        return sidecar
    }

    /// The lines among `lines` that answer `id`.
    private func answers(_ lines: [String], id: Int) -> [JSONValue] {
        lines.compactMap { try? JSONValue(parsing: $0) }.filter { $0["id"] == .number(Double(id)) }
    }

    private func opened(_ sidecar: SidecarProcess) -> Bool {
        sidecar.notifications.contains { $0.contains(#""name":"paywall_open""#) }
    }

    func testDismissRightAfterPresentEndsItBeforeItAppears() throws {
        let sidecar = try started()
        sidecar.send(#"{"jsonrpc": "2.0", "id": 3, "method": "dismiss"}"#)
        var lines = [try XCTUnwrap(sidecar.nextAnswer()), try XCTUnwrap(sidecar.nextAnswer())]
        lines += sidecar.close()
        XCTAssertEqual(answers(lines, id: 3).first?["result"]?["dismissed"], 1, "\(lines)")
        XCTAssertEqual(answers(lines, id: 2).map { $0["result"]?["result"] }, ["declined"], "\(lines)")
        XCTAssertFalse(opened(sidecar), "\(sidecar.notifications)")
    }

    func testClosingStdinRightAfterPresentAnswersItAndShowsNothing() throws {
        let sidecar = try started()
        let lines = sidecar.close()
        XCTAssertEqual(answers(lines, id: 2).map { $0["result"]?["result"] }, ["declined"], "\(lines)")
        XCTAssertFalse(opened(sidecar), "\(sidecar.notifications)")
    }
}
