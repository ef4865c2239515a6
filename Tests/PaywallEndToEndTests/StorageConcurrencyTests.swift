import Foundation
import PaywallCore
import XCTest

/// Processes that start at the same moment share one data directory without tripping over
/// each other's schema migrations.
final class StorageConcurrencyTests: EndToEndTestCase {
    func testTwelveProcessesStartingOnOneFreshDataDirectoryAllSucceed() throws {
        let catalog = Self.packageRoot.appendingPathComponent("templates/classic/store.json").path
        for round in 0..<2 {
            let dataDir = workDir.appendingPathComponent("data-\(round)").path
            // Holding the write lock of the still empty databases while the processes start
            // lines them up at it, as if another process were migrating at that moment.
            try FileManager.default.createDirectory(atPath: dataDir, withIntermediateDirectories: true)
            let holders = try ["entitlements.sqlite", "fake-store.sqlite"].map {
                try SQLiteDatabase(path: URL(fileURLWithPath: dataDir).appendingPathComponent($0).path)
            }
            for holder in holders { try holder.execute("BEGIN IMMEDIATE") }
            // Half only read the status, half also open the fake store: every database races.
            let processes = try (0..<12).map { index in
                try PaywallProcess(index % 2 == 0 ? ["status", "--data-dir", dataDir]
                                       : ["store", "entitlements", "--store", catalog, "--data-dir", dataDir],
                                   in: workDir)
            }
            // Released once every process has the database open (or has already exited).
            let database = URL(fileURLWithPath: dataDir).appendingPathComponent("entitlements.sqlite").path
            while !processes.allSatisfy({ !$0.process.isRunning || Self.hasOpen(database, pid: $0.process.processIdentifier) }) {
                usleep(10_000)
            }
            for holder in holders { try holder.execute("COMMIT") }
            for (index, process) in processes.enumerated() {
                let outcome = process.wait()
                XCTAssertEqual(outcome.status, 0, "round \(round), process \(index): \(outcome.stderr)")
                XCTAssertFalse(outcome.stderr.contains("moved it to"), "round \(round), process \(index): \(outcome.stderr)")
            }
        }
    }

    private static func hasOpen(_ path: String, pid: Int32) -> Bool {
        let fds = "/proc/\(pid)/fd"
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: fds)) ?? []
        return entries.contains { (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(fds)/\($0)")) == path }
    }
}
