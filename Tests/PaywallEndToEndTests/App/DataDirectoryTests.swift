import Foundation
import PaywallCore
import XCTest

/// The data directory as processes meet it: shared by processes starting together, read-only,
/// or holding a database whose schema lost a table.
final class DataDirectoryTests: EndToEndTestCase {
    private let catalog = EndToEndTestCase.packageRoot.appendingPathComponent("templates/classic/store.json").path

    /// Processes that start at the same moment do not trip over each other's schema migrations.
    func testTwelveProcessesStartingOnOneFreshDataDirectoryAllSucceed() throws {
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
                try PaywallProcess(
                    index % 2 == 0
                        ? ["status", "--data-dir", dataDir]
                        : ["store", "entitlements", "--store", catalog, "--data-dir", dataDir],
                    in: workDir)
            }
            // Released once every process has the database open (or has already exited), and
            // in any case well within the 5 s a process waits for a lock: on a slow machine the
            // barrier is looser, never a cause of failure.
            let database = URL(fileURLWithPath: dataDir).appendingPathComponent("entitlements.sqlite").path
            let latest = Date().addingTimeInterval(2)
            while Date() < latest,
                !processes.allSatisfy({ !$0.process.isRunning || Self.hasOpen(database, pid: $0.process.processIdentifier) })
            {
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

    /// On a read-only data directory (a read-only bind mount: chmod does not stop root) the
    /// status is read, and a command that must write says the directory is read-only.
    func testReadOnlyDataDirectoryIsReadAndAWriteSaysWhyItCannot() throws {
        let data = workDir.appendingPathComponent("data").path
        XCTAssertEqual(
            try PaywallProcess.run(
                ["store", "buy", "lumen.pro.lifetime", "--store", catalog, "--data-dir", data],
                in: workDir
            ).status, 0)
        let readOnly = try readOnlyMount(of: data)
        let status = try PaywallProcess.run(["status", "--json", "--data-dir", readOnly], in: workDir)
        XCTAssertEqual(status.status, 0, status.stderr)
        XCTAssertEqual(try JSONValue(parsing: status.stdout)["subscription_status"], "active")

        let buy = try PaywallProcess.run(
            ["store", "buy", "lumen.credits.100", "--store", catalog, "--data-dir", readOnly],
            in: workDir)
        XCTAssertEqual(buy.status, 1)
        XCTAssertTrue(buy.stderr.contains("\(readOnly) is read-only"), buy.stderr)

        let empty = workDir.appendingPathComponent("empty").path
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let nothing = try PaywallProcess.run(["status", "--data-dir", try readOnlyMount(of: empty)], in: workDir)
        XCTAssertEqual(nothing.status, 0, nothing.stderr)
        XCTAssertEqual(nothing.stdout, "subscription status: unknown\n")
    }

    /// A cache that lost a table is rebuilt from the store, and the warning names the cache file.
    func testCacheMissingATableIsRebuiltAndNamedAsTheCache() throws {
        let data = workDir.appendingPathComponent("data").path
        let store = ["--store", catalog, "--data-dir", data]
        XCTAssertEqual(try PaywallProcess.run(["store", "buy", "lumen.pro.lifetime"] + store, in: workDir).status, 0)
        let cache = URL(fileURLWithPath: data).appendingPathComponent("entitlements.sqlite").path
        try SQLiteDatabase(path: cache).execute("DROP TABLE status")
        let result = try PaywallProcess.run(["store", "entitlements", "--json"] + store, in: workDir)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("warning: \(cache) was unusable"), result.stderr)
        XCTAssertTrue(result.stderr.contains("status"), result.stderr)
        XCTAssertFalse(result.stderr.contains("fake store"), result.stderr)
        XCTAssertEqual(try JSONValue(parsing: result.stdout)["subscription_status"], "active")
        let status = try PaywallProcess.run(["status", "--data-dir", data], in: workDir)
        XCTAssertEqual(status.status, 0, status.stderr)
        XCTAssertEqual(status.stderr, "")
    }

    /// `directory` bind-mounted read-only at a new path, unmounted after the test; skips
    /// the test where mounting is not allowed (it needs root).
    private func readOnlyMount(of directory: String) throws -> String {
        let mountPoint = workDir.appendingPathComponent("ro-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        guard SystemTool.run("/bin/mount", ["--bind", directory, mountPoint]) == 0 else {
            throw XCTSkip("a read-only bind mount needs root")
        }
        addTeardownBlock { _ = SystemTool.run("/bin/umount", ["-l", mountPoint]) }
        guard SystemTool.run("/bin/mount", ["-o", "remount,ro,bind", mountPoint]) == 0 else {
            throw XCTSkip("remounting read-only needs root")
        }
        return mountPoint
    }
}
