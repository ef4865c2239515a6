import Foundation
import PaywallCore
import XCTest

/// A paying user's app starts on a full disk: the data directory on a real, full filesystem
/// (a small tmpfs, mounted as root; skipped elsewhere). `paywall status`, the store and the
/// sidecar's `initialize` read the entitlement; the cache that cannot be opened for writing is
/// reported as `entitlementCache_writeFail` (which the CLI prints), and a purchase says the disk is full.
final class FullDiskStartTests: EndToEndTestCase {
    private let catalog = EndToEndTestCase.packageRoot.appendingPathComponent("templates/classic/store.json").path

    /// A data directory on a 1 MB tmpfs holding a yearly subscription, then filled up.
    private func fullDataDirectory() throws -> String {
        let disk = workDir.appendingPathComponent("small-disk")
        try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
        guard SystemTool.run("/bin/mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", disk.path]) == 0 else {
            throw XCTSkip("mounting a tmpfs needs root")
        }
        addTeardownBlock { _ = SystemTool.run("/bin/umount", ["-l", disk.path]) }
        let data = disk.appendingPathComponent("data").path
        let buy = try PaywallProcess.run(
            ["store", "buy", "lumen.pro.yearly", "--store", catalog, "--data-dir", data], in: workDir)
        XCTAssertEqual(buy.status, 0, buy.stderr)
        _ = SystemTool.run("/bin/dd", ["if=/dev/zero", "of=\(disk.appendingPathComponent("filler").path)", "bs=64k"])
        return data
    }

    func testStatusStoreAndInitializeReadTheEntitlementOnAFullDisk() throws {
        let data = try fullDataDirectory()

        let status = try PaywallProcess.run(["status", "--data-dir", data, "--json"], in: workDir)
        XCTAssertEqual(status.status, 0, status.stderr)
        XCTAssertEqual(try JSONValue(parsing: status.stdout)["subscription_status"], "active")

        let entitlements = try PaywallProcess.run(
            ["store", "entitlements", "--store", catalog, "--data-dir", data], in: workDir)
        XCTAssertEqual(entitlements.status, 0, entitlements.stderr)
        XCTAssertTrue(entitlements.stdout.hasPrefix("subscription status: active"), entitlements.stdout)
        // The CLI prints each entitlementCache_writeFail event as a warning.
        XCTAssertTrue(
            entitlements.stderr.contains(
                "warning: the entitlement cache could not be opened for writing (\(data)/entitlements.sqlite: disk I/O error)"),
            entitlements.stderr)

        let buy = try PaywallProcess.run(
            ["store", "buy", "lumen.credits.100", "--store", catalog, "--data-dir", data], in: workDir)
        XCTAssertEqual(buy.status, 1)
        XCTAssertTrue(buy.stderr.contains("free some disk space"), buy.stderr)

        let requests = workDir.appendingPathComponent("requests.jsonl")
        try Data(
            (#"{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"data_dir": "\#(data)", "catalog": "\#(catalog)", "controller": "fake_store"}}"#
                + "\n" + #"{"jsonrpc": "2.0", "id": 2, "method": "getCustomerInfo"}"# + "\n").utf8
        ).write(to: requests)
        let sidecar = try PaywallProcess.run(["serve"], in: workDir, stdin: requests)
        let answers = sidecar.stdout.split(separator: "\n").compactMap { try? JSONValue(parsing: String($0)) }
        let initialized = try XCTUnwrap(answers.first { $0["id"] == 1 }, sidecar.stdout + sidecar.stderr)
        XCTAssertNil(initialized["error"], "\(initialized)")
        let info = try XCTUnwrap(answers.first { $0["id"] == 2 }, sidecar.stdout)
        XCTAssertEqual(info["result"]?["subscription_status"], "active", "\(info)")
    }
}
