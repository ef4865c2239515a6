import Foundation
import PaywallCore
import XCTest

/// `paywall status` only reads: a data directory that is not there is reported, never created.
final class StatusTests: EndToEndTestCase {
    /// Everything under the work directory, to show a command created nothing.
    private func workDirContents() throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: workDir.path)
            .filter { !$0.hasPrefix("stdout-") && !$0.hasPrefix("stderr-") }.sorted()
    }

    func testMissingDataDirIsReportedAndNothingIsCreated() throws {
        let missing = workDir.appendingPathComponent("typo/dir").path
        let result = try PaywallProcess.run(["status", "--data-dir", missing], in: workDir)
        XCTAssertEqual(result.status, 1, result.stdout)
        XCTAssertTrue(result.stderr.contains("\(missing) does not exist"), result.stderr)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(try workDirContents(), [])
    }

    /// A first run: no default data directory yet. The status is unknown, as for an app's cold start.
    func testMissingDefaultDataDirIsUnknownAndNothingIsCreated() throws {
        let environment: [String: String?] = [
            "XDG_DATA_HOME": workDir.appendingPathComponent("xdg-data").path,
            "XDG_CACHE_HOME": workDir.appendingPathComponent("xdg-cache").path,
            "HOME": workDir.appendingPathComponent("home").path,
        ]
        let text = try PaywallProcess.run(["status"], in: workDir, environment: environment)
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertEqual(text.stdout, "subscription status: unknown\n")
        let json = try PaywallProcess.run(["status", "--json", "--user", "alice"], in: workDir, environment: environment)
        XCTAssertEqual(json.status, 0, json.stderr)
        let report = try JSONValue(parsing: json.stdout)
        XCTAssertEqual(report["subscription_status"], "unknown")
        XCTAssertEqual(report["user_id"], "alice")
        XCTAssertEqual(report["entitlements"], [])
        XCTAssertEqual(report["active_entitlements"], [])
        XCTAssertEqual(try workDirContents(), [])
    }

    /// A data directory that exists but holds no cache yet: unknown, and no database appears.
    func testEmptyDataDirIsUnknownAndStaysEmpty() throws {
        let data = workDir.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let result = try PaywallProcess.run(["status", "--data-dir", data.path], in: workDir)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "subscription status: unknown\n")
        XCTAssertEqual(try workDirContents(), ["data"])
    }

    /// `cache list` only reads too: no cache folder appears for it.
    func testCacheListOnAMissingCacheCreatesNothing() throws {
        let result = try PaywallProcess.run(
            ["cache", "list"], in: workDir,
            environment: [
                "XDG_CACHE_HOME": workDir.appendingPathComponent("xdg-cache").path,
                "XDG_DATA_HOME": workDir.appendingPathComponent("xdg-data").path,
            ])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try workDirContents(), [])
    }

    /// Plain `status` says where each seeded user's purchase stands, inactive ones and a
    /// purchase waiting for approval included (the cache learns of pending purchases).
    func testPlainStatusNamesEachState() throws {
        let catalog = EndToEndTestCase.packageRoot.appendingPathComponent("templates/classic/store.json").path
        let data = workDir.appendingPathComponent("states").path
        let cases = [
            ("grace", "pro\tactive\tgrace period (the renewal failed to bill; access continues)"),
            ("billing-retry", "pro\tinactive\tbilling retry (the renewal failed to bill; no access while the store retries)"),
            ("expired", "pro\tinactive\texpired"), ("revoked", "pro\tinactive\trevoked (refunded)"),
            ("pending", "lumen.pro.monthly\tpending\twaiting for approval (fake_"),
        ]
        for (state, _) in cases {
            let seeded = try PaywallProcess.run(
                ["store", "seed", "lumen.pro.monthly", state, "--store", catalog, "--data-dir", data, "--user", state],
                in: workDir)
            XCTAssertEqual(seeded.status, 0, seeded.stderr)
        }
        for (state, line) in cases {
            let status = try PaywallProcess.run(["status", "--data-dir", data, "--user", state], in: workDir)
            XCTAssertEqual(status.status, 0, status.stderr)
            let lines = status.stdout.split(separator: "\n").map(String.init)
            XCTAssertEqual(lines.first, state == "grace" ? "subscription status: active" : "subscription status: inactive")
            XCTAssertEqual(lines.count, 2, status.stdout)
            XCTAssertTrue(lines.last?.hasPrefix(line) == true, "\(state): \(status.stdout)")
        }
    }

    /// A data directory a user may read but not write (no root, no read-only mount) is read.
    func testADirectoryTheUserCannotWriteIsRead() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"), getuid() == 0 else {
            throw XCTSkip("needs root and setpriv to run as another user")
        }
        let catalog = EndToEndTestCase.packageRoot.appendingPathComponent("templates/classic/store.json").path
        let data = workDir.appendingPathComponent("readable").path
        XCTAssertEqual(
            try PaywallProcess.run(
                [
                    "store", "seed", "lumen.pro.monthly", "subscribed", "--store", catalog,
                    "--data-dir", data,
                ], in: workDir
            ).status, 0)
        for file in try FileManager.default.contentsOfDirectory(atPath: data) {
            try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: data + "/" + file)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: data)
        let result = try PaywallProcess.run(
            [
                "--reuid=65534", "--regid=65534", "--clear-groups", PaywallProcess.executable.path, "status", "--data-dir", data,
                "--json",
            ],
            in: workDir, executable: URL(fileURLWithPath: "/usr/bin/setpriv"))
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try JSONValue(parsing: result.stdout)["subscription_status"], "active")
        XCTAssertEqual(try JSONValue(parsing: result.stdout)["active_entitlements"], ["pro"])
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: data)
    }
}
