import Foundation
import PaywallCore
import XCTest

/// Purchases survive processes that die mid-write: SIGKILL at random moments leaves a
/// consistent database holding every purchase that was reported as made.
final class DurabilityTests: EndToEndTestCase {
    func testKilledWritersLoseNoCommittedPurchase() throws {
        let dataDir = workDir.appendingPathComponent("data").path
        let catalog = Self.packageRoot.appendingPathComponent("templates/classic/store.json").path
        let log = workDir.appendingPathComponent("bought.log").path
        // One `paywall store buy` after another; each prints its transaction id once committed.
        let loop =
            "while true; do '\(PaywallProcess.executable.path)' store buy lumen.credits.100 "
            + "--store '\(catalog)' --data-dir '\(dataDir)' >> '\(log)' 2>/dev/null; done"
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<6 {
            let writer = Process()
            writer.executableURL = URL(fileURLWithPath: "/bin/sh")
            writer.arguments = ["-c", loop]
            try writer.run()
            usleep(UInt32.random(in: 300_000...900_000, using: &generator))
            // The shell first, so it starts no more writers, then the writer it was running.
            let shell = writer.processIdentifier
            let children = (try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)) ?? ""
            kill(shell, SIGKILL)
            for child in children.split(separator: " ").compactMap({ Int32($0) }) { kill(child, SIGKILL) }
            writer.waitUntilExit()
        }

        let reported = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
            .split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) }
        XCTAssertGreaterThan(reported.count, 3, "the writers made purchases before being killed")

        let store = try PaywallProcess.run(
            ["store", "transactions", "--json", "--store", catalog, "--data-dir", dataDir],
            in: workDir)
        XCTAssertEqual(store.status, 0, store.stderr)
        XCTAssertFalse(store.stderr.contains("moved it to"), "no database needed recovery: \(store.stderr)")
        let ids = try XCTUnwrap(try JSONValue(parsing: store.stdout).arrayValue).compactMap { $0["transaction_id"]?.stringValue }
        XCTAssertEqual(Set(ids).count, ids.count, "no transaction id was used twice")
        XCTAssertTrue(Set(reported).isSubset(of: Set(ids)), "lost: \(Set(reported).subtracting(ids))")

        for file in ["fake-store.sqlite", "entitlements.sqlite"] {
            let db = try SQLiteDatabase(path: URL(fileURLWithPath: dataDir).appendingPathComponent(file).path)
            XCTAssertEqual(try db.query("PRAGMA integrity_check").first?["integrity_check"], .text("ok"), file)
        }
    }
}
