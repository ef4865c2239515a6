import Foundation
import PaywallCore
import XCTest

/// Purchases through a real paywall and the fake store, checked the way a tester would:
/// the result line, the event log, and fresh `paywall` processes reading the databases.
final class PurchaseTests: EndToEndTestCase {
    private var dataDir: String { workDir.appendingPathComponent("data").path }
    private let catalog = EndToEndTestCase.packageRoot.appendingPathComponent("templates/classic/store.json").path
    private let template = EndToEndTestCase.packageRoot.appendingPathComponent("templates/classic").path
    private let slots = "primary=lumen.pro.yearly,secondary=lumen.pro.monthly,tertiary=lumen.pro.lifetime"

    private func present(_ bundle: String, _ scripts: [String], catalog: String? = nil) throws -> PaywallProcess.Outcome {
        try PaywallProcess.run(
            [
                "present", bundle, "--store", catalog ?? self.catalog, "--data-dir", dataDir, "--products", slots,
                "--events", eventsPath, "--timeout", "30",
            ] + scripts.flatMap { ["--eval", $0] }, in: workDir,
            environment: PaywallProcess.scribbledMemory)
    }

    private func store(_ arguments: [String], catalog: String? = nil) throws -> PaywallProcess.Outcome {
        try PaywallProcess.run(
            ["store"] + arguments + ["--store", catalog ?? self.catalog, "--data-dir", dataDir],
            in: workDir)
    }

    private func status() throws -> JSONValue {
        let result = try PaywallProcess.run(["status", "--data-dir", dataDir, "--json"], in: workDir)
        XCTAssertEqual(result.status, 0, result.stderr)
        return try JSONValue(parsing: result.stdout)
    }

    func testBuyButtonPurchasesAndAFreshProcessSeesTheEntitlement() throws {
        let result = try present(template, ["document.getElementById('purchase').click()"])
        XCTAssertEqual(result.stdout, "{\"result\":\"purchased\",\"product_id\":\"lumen.pro.yearly\"}\n", result.stderr)
        XCTAssertEqual(result.status, 0)
        let names = eventNames()
        for expected in [EventName.transactionStart, .transactionComplete, .freeTrialStart, .subscriptionStatusDidChange] {
            XCTAssertTrue(names.contains(expected), "missing \(expected) in \(names)")
        }
        XCTAssertFalse(names.contains(.subscriptionStart), "a free trial started, not a paid subscription")

        // A new process, reading only the SQLite cache: right at once, with no store.
        let cold = try status()
        XCTAssertEqual(cold["subscription_status"], "active")
        let pro = try XCTUnwrap(cold["entitlements"]?.arrayValue?.first)
        XCTAssertEqual(pro["id"], "pro")
        XCTAssertEqual(pro["is_active"], true)
        XCTAssertEqual(pro["product_ids"], ["lumen.pro.yearly"])
        XCTAssertEqual(pro["state"], "subscribed")
        XCTAssertEqual(pro["will_renew"], true)
        XCTAssertEqual(pro["store"], "FAKE_STORE")
        XCTAssertNotEqual(pro["expires_at"], .null)

        // A subscribed user is not shown the paywall again.
        let again = try present(template, [])
        XCTAssertEqual(again.stdout, "{\"result\":\"skipped\",\"reason\":\"subscribed\"}\n", again.stderr)
    }

    func testCancelledPurchaseLeavesNothingBehind() throws {
        XCTAssertEqual(try store(["set-outcome", "cancelled"]).status, 0)
        let result = try present(
            template,
            [
                "const seen = new Promise(done => Paywall.on('transaction_abandon', done)); document.getElementById('purchase').click(); await seen; Paywall.close()"
            ])
        XCTAssertEqual(result.stdout, "{\"result\":\"declined\"}\n", result.stderr)
        XCTAssertTrue(eventNames().contains(.transactionAbandon), "\(eventNames())")
        XCTAssertFalse(eventNames().contains(.transactionComplete))
        XCTAssertEqual(try status()["subscription_status"], "inactive")
    }

    func testFailedPurchaseIsReportedWithItsReason() throws {
        XCTAssertEqual(try store(["set-outcome", "failed:card_declined"]).status, 0)
        let result = try present(
            template,
            [
                "const seen = new Promise(done => Paywall.on('transaction_fail', done)); document.getElementById('purchase').click(); await seen; Paywall.close()"
            ])
        XCTAssertEqual(result.stdout, "{\"result\":\"declined\"}\n", result.stderr)
        let failure = loggedEvents().first { $0.name == .transactionFail }
        XCTAssertTrue(
            failure?.params["message"]?.stringValue?.contains("card_declined") ?? false, "\(String(describing: failure))")
        XCTAssertEqual(try status()["subscription_status"], "inactive")
    }

    func testRestoreWithNothingToRestoreFails() throws {
        let result = try present(
            template,
            [
                "const seen = new Promise(done => Paywall.on('restore_fail', done)); document.getElementById('restore').click(); await seen; Paywall.close()"
            ])
        XCTAssertEqual(result.stdout, "{\"result\":\"declined\"}\n", result.stderr)
        let names = eventNames()
        XCTAssertTrue(names.contains(.restoreStart) && names.contains(.restoreFail), "\(names)")
    }

    /// Bought elsewhere while the paywall is up (another process), then restored on it.
    func testRestoreFindsAPurchaseMadeElsewhere() throws {
        let bundle = try inlineBundle("restore", body: "<button id='restore' data-paywall-restore>Restore</button>")
        let flag = bundle.appendingPathComponent("bought.txt")
        let waitForFlag = """
            await new Promise(done => { const t = setInterval(async () => {
              if ((await fetch('bought.txt')).ok) { clearInterval(t); done(); } }, 50); })
            """
        let presenting = try PaywallProcess(
            [
                "present", bundle.path, "--store", catalog, "--data-dir", dataDir, "--events", eventsPath, "--timeout", "30",
                "--eval", waitForFlag, "--eval", "document.getElementById('restore').click()",
            ], in: workDir,
            environment: PaywallProcess.scribbledMemory)
        waitForEvents { $0.contains { $0.name == .pageReady } }
        let bought = try store(["buy", "lumen.pro.monthly"])
        XCTAssertEqual(bought.status, 0, bought.stderr)
        try "yes".write(to: flag, atomically: true, encoding: .utf8)
        let result = presenting.wait()
        XCTAssertEqual(result.stdout, "{\"result\":\"restored\"}\n", result.stderr)
        XCTAssertTrue(eventNames().contains(.restoreComplete), "\(eventNames())")
    }

    /// A user whose cache never knew the store account's purchase (bought under another app
    /// user id, as on another machine) restores it: the result is `restored`, and it is theirs now.
    func testRestoringAPurchaseOfTheStoreAccountGivesItToThisUser() throws {
        XCTAssertEqual(try store(["buy", "lumen.pro.monthly", "--user", "alice"]).status, 0)
        let bundle = try inlineBundle("restore", body: "<button id='restore' data-paywall-restore>Restore</button>")
        let result = try PaywallProcess.run(
            [
                "present", bundle.path, "--store", catalog, "--data-dir", dataDir, "--user", "bob", "--events", eventsPath,
                "--timeout", "30", "--eval", "document.getElementById('restore').click()",
            ], in: workDir,
            environment: PaywallProcess.scribbledMemory)
        XCTAssertEqual(result.stdout, "{\"result\":\"restored\"}\n", result.stderr)
        XCTAssertTrue(eventNames().contains(.restoreComplete), "\(eventNames())")
        for (user, expected) in [("bob", "active"), ("alice", "inactive")] {
            let status = try PaywallProcess.run(["status", "--data-dir", dataDir, "--user", user, "--json"], in: workDir)
            XCTAssertEqual(try JSONValue(parsing: status.stdout)["subscription_status"], .string(expected), user)
        }
    }

    /// A purchase that keeps the paywall open is what the user did, whatever closes it later.
    func testPurchaseThatKeepsThePaywallOpenIsReportedWhenItCloses() throws {
        let result = try present(
            template,
            [
                "const done = new Promise(d => Paywall.on('transaction_complete', d)); Paywall.purchase('secondary', {shouldDismiss: false}); await done",
                "Paywall.close()",
            ])
        XCTAssertEqual(result.stdout, "{\"result\":\"purchased\",\"product_id\":\"lumen.pro.monthly\"}\n", result.stderr)
        XCTAssertEqual(result.status, 0)
        XCTAssertFalse(eventNames().contains(.paywallDecline), "\(eventNames())")
        XCTAssertEqual(loggedEvents().last { $0.name == .paywallClose }?.params["result"], "purchased")
    }

    func testRefundEndsAccessForTheNextColdStart() throws {
        let bought = try store(["buy", "lumen.pro.monthly"])
        XCTAssertEqual(bought.status, 0, bought.stderr)
        XCTAssertEqual(try status()["subscription_status"], "active")
        let transactions = try JSONValue(parsing: try store(["transactions", "--json"]).stdout)
        let id = try XCTUnwrap(transactions.arrayValue?.first?["transaction_id"]?.stringValue)
        XCTAssertEqual(try store(["refund", id]).status, 0)
        let after = try status()
        XCTAssertEqual(after["subscription_status"], "inactive")
        XCTAssertEqual(after["entitlements"]?.arrayValue?.first?["state"], "revoked")
    }

    func testEachUsersPurchasesAreTheirOwn() throws {
        XCTAssertEqual(try store(["buy", "lumen.pro.yearly", "--user", "alice"]).status, 0)
        for (user, expected) in [("alice", "active"), ("bob", "unknown")] {
            let result = try PaywallProcess.run(["status", "--data-dir", dataDir, "--user", user, "--json"], in: workDir)
            XCTAssertEqual(try JSONValue(parsing: result.stdout)["subscription_status"], .string(expected), user)
        }
        let bob = try JSONValue(parsing: try store(["entitlements", "--json", "--user", "bob"]).stdout)
        XCTAssertEqual(bob["subscription_status"], "inactive")
    }

    func testStoreKitCatalogWorksForPurchases() throws {
        let storekit = Self.packageRoot.appendingPathComponent("Tests/PaywallCoreTests/Fixtures/Lumen.storekit").path
        let bundle = try inlineBundle("sk", body: "<button id='buy' data-paywall-purchase='lumen.pro.lifetime'>Buy</button>")
        let result = try present(bundle.path, ["document.getElementById('buy').click()"], catalog: storekit)
        XCTAssertEqual(result.stdout, "{\"result\":\"purchased\",\"product_id\":\"lumen.pro.lifetime\"}\n", result.stderr)
        let entitlements = try JSONValue(parsing: try store(["entitlements", "--json"], catalog: storekit).stdout)
        let lifetime = entitlements["entitlements"]?.arrayValue?.first { $0["id"] == "lumen.pro.lifetime" }
        XCTAssertEqual(lifetime?["is_lifetime"], true, "a non-consumable unlocks an entitlement named after its productID")
    }

    /// A garbage file where the cache should be is moved aside and rebuilt from the store.
    func testGarbageCacheIsRecoveredAndRebuilt() throws {
        XCTAssertEqual(try store(["buy", "lumen.pro.lifetime"]).status, 0)
        let cache = URL(fileURLWithPath: dataDir).appendingPathComponent("entitlements.sqlite")
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: cache.path + suffix) }
        try Data(repeating: 0x5A, count: 4096).write(to: cache)
        let result = try store(["entitlements", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("moved it to"), result.stderr)
        XCTAssertEqual(try JSONValue(parsing: result.stdout)["subscription_status"], "active")
        let aside = try FileManager.default.contentsOfDirectory(atPath: dataDir).filter { $0.contains(".corrupt-") }
        XCTAssertFalse(aside.isEmpty, "the bad file is kept for inspection")
    }

    func testStoreCommandErrors() throws {
        XCTAssertEqual(try store(["set-outcome", "maybe"]).status, 2)
        XCTAssertEqual(try store(["advance", "soon"]).status, 2)
        let unknown = try store(["refund", "fake_999999"])
        XCTAssertEqual(unknown.status, 1)
        XCTAssertTrue(unknown.stderr.contains("no transaction fake_999999"), unknown.stderr)
        XCTAssertTrue(unknown.stderr.contains("list them with `paywall store transactions`"), unknown.stderr)
        let noStore = try PaywallProcess.run(["store", "products", "--data-dir", dataDir], in: workDir)
        XCTAssertEqual(noStore.status, 2)
        XCTAssertTrue(noStore.stderr.contains("--store CATALOG is required"), noStore.stderr)
        let badCatalog = try PaywallProcess.run(
            ["store", "products", "--store", "/no/such.json", "--data-dir", dataDir], in: workDir)
        XCTAssertEqual(badCatalog.status, 1)
        XCTAssertTrue(badCatalog.stderr.contains("/no/such.json"), badCatalog.stderr)
        let buyUnknown = try store(["buy", "nope"])
        XCTAssertEqual(buyUnknown.status, 1)
        XCTAssertTrue(buyUnknown.stderr.contains("unknown product id 'nope'"), buyUnknown.stderr)
    }

    // MARK: A full disk

    /// The entitlement cache on a real, full filesystem (a small tmpfs, mounted as root; the
    /// fake store stays on the big one, as a store's server would): purchases succeed and say
    /// so, the cache failure is an event and a warning, and once there is room again the next
    /// store read repairs the cache so that a cold `paywall status` is right.
    func testPurchasesOnAFullDiskSucceedAndTheCacheCatchesUpLater() throws {
        let disk = workDir.appendingPathComponent("small-disk")
        try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
        guard SystemTool.run("/bin/mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", disk.path]) == 0 else {
            throw XCTSkip("mounting a tmpfs needs root")
        }
        addTeardownBlock { _ = SystemTool.run("/bin/umount", ["-l", disk.path]) }
        try FileManager.default.createDirectory(atPath: dataDir, withIntermediateDirectories: true)
        let cacheFile = disk.appendingPathComponent("entitlements.sqlite").path
        try FileManager.default.createSymbolicLink(
            atPath: URL(fileURLWithPath: dataDir).appendingPathComponent("entitlements.sqlite").path,
            withDestinationPath: cacheFile)
        XCTAssertEqual(try store(["entitlements"]).status, 0, "the cache is created while there is room")
        // Held open, the cache keeps its WAL index at full size: a full disk then refuses the
        // cache's writes, not its opening.
        var holder: SQLiteDatabase? = try SQLiteDatabase(path: cacheFile)
        _ = try holder?.query("SELECT count(*) FROM status")
        let filler = disk.appendingPathComponent("filler").path
        _ = SystemTool.run("/bin/dd", ["if=/dev/zero", "of=\(filler)", "bs=64k"])

        let result = try present(template, ["document.getElementById('purchase').click()"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "{\"result\":\"purchased\",\"product_id\":\"lumen.pro.yearly\"}\n", result.stderr)
        XCTAssertTrue(result.stderr.contains("purchase lumen.pro.yearly fake_"), result.stderr)
        XCTAssertTrue(result.stderr.contains("disk is full"), result.stderr)
        let failure = try XCTUnwrap(
            loggedEvents().first {
                $0.name == .entitlementCacheWriteFail && $0.params["product_identifier"] != nil
            }, "\(eventNames())")
        XCTAssertEqual(failure.params["product_identifier"], "lumen.pro.yearly")
        XCTAssertTrue(failure.params["transaction_id"]?.stringValue?.hasPrefix("fake_") ?? false, "\(failure.params)")
        XCTAssertTrue(failure.params["message"]?.stringValue?.contains("disk is full") ?? false, "\(failure.params)")
        XCTAssertTrue(eventNames().contains(.transactionComplete))

        let buy = try store(["buy", "lumen.credits.100"])
        XCTAssertEqual(buy.status, 0, buy.stderr)
        XCTAssertTrue(buy.stdout.hasPrefix("purchased lumen.credits.100: fake_"), buy.stdout)
        XCTAssertTrue(buy.stderr.contains("purchase lumen.credits.100 fake_"), buy.stderr)
        XCTAssertEqual(try status()["subscription_status"], "inactive", "the full disk kept the old status")

        try FileManager.default.removeItem(atPath: filler)
        holder = nil
        let resync = try store(["entitlements"])
        XCTAssertEqual(resync.status, 0, resync.stderr)
        XCTAssertEqual(resync.stderr, "")
        XCTAssertEqual(try status()["subscription_status"], "active", "the next store read repaired the cache")
    }
}
