import Foundation
import PaywallCore
import XCTest

/// `paywall store` as a tester runs it: `seed` for each purchase state, and every action
/// leaving `paywall status` (the entitlement cache alone) consistent at once, for every user.
final class StoreCommandTests: EndToEndTestCase {
    private var dataDir: String { workDir.appendingPathComponent("data").path }
    private let catalog = EndToEndTestCase.packageRoot.appendingPathComponent("templates/classic/store.json").path

    private func store(_ arguments: [String], catalog: String? = nil) throws -> PaywallProcess.Outcome {
        try PaywallProcess.run(
            ["store"] + arguments + ["--store", catalog ?? self.catalog, "--data-dir", dataDir],
            in: workDir)
    }

    private func json(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> JSONValue {
        let result = try store(arguments)
        XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)", file: file, line: line)
        return try JSONValue(parsing: result.stdout)
    }

    private func status(_ user: String) throws -> JSONValue {
        let result = try PaywallProcess.run(["status", "--data-dir", dataDir, "--user", user, "--json"], in: workDir)
        XCTAssertEqual(result.status, 0, result.stderr)
        return try JSONValue(parsing: result.stdout)
    }

    private func transactionIds(of user: String) throws -> [String] {
        try json(["transactions", "--json"]).arrayValue?.filter { $0["user_id"]?.stringValue == user }
            .compactMap { $0["transaction_id"]?.stringValue } ?? []
    }

    // MARK: seed

    /// Each state, for its own user on one store: what `seed` prints is what `store
    /// entitlements --json` and a cold `paywall status --json` say, then and after every later
    /// seed (a seed back-dates its own user's purchases and never moves the shared clock).
    func testSeedBuildsEveryStateAndStatusAgrees() throws {
        // (state, product, subscription status, entitlement state, is_active, will_renew, renewed, offer)
        let cases: [(String, String, String, String?, Bool, Bool, Bool, String?)] = [
            ("trial", "lumen.pro.yearly", "active", "subscribed", true, true, false, "trial"),
            ("subscribed", "lumen.pro.monthly", "active", "subscribed", true, true, false, nil),
            ("subscribed", "lumen.pass.month", "active", "subscribed", true, false, false, nil),
            ("renewed", "lumen.pro.monthly", "active", "subscribed", true, true, true, nil),
            ("cancelled", "lumen.pro.monthly", "active", "subscribed", true, false, false, nil),
            ("grace", "lumen.pro.monthly", "active", "inGracePeriod", true, true, false, nil),
            ("billing-retry", "lumen.pro.monthly", "inactive", "inBillingRetryPeriod", false, true, false, nil),
            ("expired", "lumen.pro.monthly", "inactive", "expired", false, false, false, nil),
            ("revoked", "lumen.pro.monthly", "inactive", "revoked", false, false, false, nil),
            ("pending", "lumen.pro.monthly", "inactive", nil, false, false, false, nil),
            ("lifetime", "lumen.pro.lifetime", "active", "subscribed", true, false, false, nil),
        ]
        var seeded: [String: JSONValue] = [:]
        for (index, (state, product, subscription, entitlementState, active, willRenew, renewed, offer)) in cases.enumerated() {
            let user = "user\(index)-\(state)"
            let printed = try json(["seed", product, state, "--user", user])
            let label = "\(state) \(product)"
            XCTAssertEqual(printed, try json(["entitlements", "--json", "--user", user]), label)
            XCTAssertEqual(printed, try status(user), "a cold status agrees at once: \(label)")
            XCTAssertEqual(printed["user_id"], .string(user), label)
            XCTAssertEqual(printed["subscription_status"], .string(subscription), label)
            let entitlements = printed["entitlements"]?.arrayValue ?? []
            guard let entitlementState else {
                XCTAssertEqual(entitlements, [], "a pending purchase grants nothing yet")
                let pending = try json(["transactions", "--json"]).arrayValue?.filter { $0["user_id"] == .string(user) }
                XCTAssertEqual(pending?.map { $0["approval"] }, ["pending"])
                seeded[user] = printed
                continue
            }
            let pro = try XCTUnwrap(entitlements.first, label)
            XCTAssertEqual(entitlements.count, 1, label)
            XCTAssertEqual(pro["id"], "pro", label)
            XCTAssertEqual(pro["latest_product_id"], .string(product), label)
            XCTAssertEqual(pro["state"], .string(entitlementState), label)
            XCTAssertEqual(pro["is_active"], .bool(active), label)
            XCTAssertEqual(pro["will_renew"], .bool(willRenew), label)
            XCTAssertEqual(pro["renewed_at"] != .null, renewed, label)
            XCTAssertEqual(pro["offer_type"], offer.map(JSONValue.string) ?? .null, label)
            XCTAssertEqual(pro["is_lifetime"], .bool(state == "lifetime"), label)
            seeded[user] = printed
        }
        // Later seeds lived through months of their own; every user seeded before kept their state.
        for (user, printed) in seeded.sorted(by: { $0.key < $1.key }) {
            XCTAssertEqual(try json(["entitlements", "--json", "--user", user]), printed, user)
            XCTAssertEqual(try status(user), printed, user)
        }
        XCTAssertEqual(seeded.count, cases.count)
    }

    func testSeedRefusesStatesTheProductCannotReach() throws {
        let noGrace = workDir.appendingPathComponent("no-grace.json")
        let text = try String(contentsOfFile: catalog, encoding: .utf8)
            .replacingOccurrences(of: "\"grace_period_days\": 16", with: "\"grace_period_days\": 0")
        try text.write(to: noGrace, atomically: true, encoding: .utf8)
        let cases: [(String, String, String?, String)] = [
            ("lumen.pro.monthly", "trial", nil, "no introductory offer"),
            ("lumen.pro.monthly", "lifetime", nil, "one-time"),
            ("lumen.pro.lifetime", "subscribed", nil, "revoked, pending or lifetime"),
            ("lumen.pro.lifetime", "grace", nil, "never renews"),
            ("lumen.pass.month", "renewed", nil, "never renews"),
            ("lumen.credits.100", "subscribed", nil, "no entitlement"),
            ("lumen.pro.monthly", "grace", noGrace.path, "no grace period"),
            ("lumen.pro.monthly", "soon", nil, "STATE must be one of trial, subscribed"),
        ]
        for (product, state, otherCatalog, message) in cases {
            let result = try store(["seed", product, state], catalog: otherCatalog)
            XCTAssertEqual(result.status, 2, "\(product) \(state): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(product) \(state): \(result.stderr)")
            XCTAssertEqual(result.stdout, "", "\(product) \(state)")
        }
        XCTAssertEqual(try transactionIds(of: Purchases.anonymousUser), [], "a refused seed changes nothing")

        // A user who already has the product (or its group) cannot be seeded again: another
        // user, or a reset, would work.
        XCTAssertEqual(try store(["seed", "lumen.pro.monthly", "subscribed"]).status, 0)
        let again = try store(["seed", "lumen.pro.yearly", "trial"])
        XCTAssertEqual(again.status, 2, again.stderr)
        XCTAssertTrue(again.stderr.contains("--user ID") && again.stderr.contains("`paywall store reset`"), again.stderr)

        let unknown = try store(["seed", "nope", "subscribed"])
        XCTAssertEqual(unknown.status, 1)
        XCTAssertTrue(unknown.stderr.contains("unknown product id 'nope'"), unknown.stderr)
    }

    // MARK: status stays consistent

    func testResetLeavesNoUserActive() throws {
        XCTAssertEqual(try store(["buy", "lumen.pro.monthly"]).status, 0)
        XCTAssertEqual(try store(["buy", "lumen.pro.lifetime", "--user", "alice"]).status, 0)
        XCTAssertEqual(try status("alice")["subscription_status"], "active")
        XCTAssertEqual(try store(["reset"]).status, 0)
        for user in [Purchases.anonymousUser, "alice"] {
            let after = try status(user)
            XCTAssertEqual(after["subscription_status"], "inactive", user)
            XCTAssertEqual(after["entitlements"], [], user)
        }
    }

    /// A store action names a transaction, not a user: the cache of the user who owns it follows too.
    func testActionsOnAnotherUsersTransactionReachTheirStatus() throws {
        XCTAssertEqual(try store(["buy", "lumen.pro.monthly", "--user", "alice"]).status, 0)
        let id = try XCTUnwrap(try transactionIds(of: "alice").first)
        XCTAssertEqual(try store(["cancel", id]).status, 0)
        XCTAssertEqual(try status("alice")["entitlements"]?.arrayValue?.first?["will_renew"], false)
        XCTAssertEqual(try store(["advance", "2M"]).status, 0)
        let expired = try status("alice")
        XCTAssertEqual(expired["subscription_status"], "inactive")
        XCTAssertEqual(expired["entitlements"]?.arrayValue?.first?["state"], "expired")
    }
}
