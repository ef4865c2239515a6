import Foundation
import XCTest

@testable import PaywallCore

/// Deterministic assignment: the bucket as the issue states it, its distribution, stickiness.
final class BucketingTests: XCTestCase {
    private var dir: URL!
    override func setUpWithError() throws { dir = try makeTemporaryDirectory("BucketingTests") }
    override func tearDown() { removeTemporaryDirectory(dir) }

    func testTheBucketIsTheFirstEightBytesOfSHA256ModTenThousand() {
        var hash = SHA256()
        hash.update(Data("exp1:alice".utf8))
        let digest = hash.finalize()
        let expected = Int(digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) } % 10_000)
        XCTAssertEqual(Bucketing.bucket(experimentId: "exp1", userKey: "alice"), expected)
        XCTAssertEqual(Bucketing.bucket(experimentId: "exp1", userKey: "alice"), Self.referenceBucket)
    }

    /// From Python: int.from_bytes(hashlib.sha256(b"exp1:alice").digest()[:8], "big") % 10000.
    static let referenceBucket = 2071

    func testOneHundredThousandUsersLandWithinOnePointOfEachPercentage() {
        let variants = [
            Campaign.Variant(id: "a", paywall: "pa", basisPoints: 4500),
            Campaign.Variant(id: "b", paywall: "pb", basisPoints: 4500),
            Campaign.Variant(id: "hold", paywall: nil, basisPoints: 1000),
        ]
        var counts: [String: Int] = [:]
        for user in 0..<100_000 {
            let bucket = Bucketing.bucket(experimentId: "exp1", userKey: "user-\(user)")
            counts[Bucketing.variant(for: bucket, in: variants)!.id, default: 0] += 1
        }
        for variant in variants {
            let percent = Double(counts[variant.id] ?? 0) / 1_000
            XCTAssertEqual(percent, Double(variant.basisPoints) / 100, accuracy: 1, variant.id)
        }
    }

    func testSeedIsZeroToNinetyNine() {
        let seeds = Set((0..<2_000).map { Bucketing.seed(userKey: "u\($0)") })
        XCTAssertEqual(seeds.min(), 0)
        XCTAssertEqual(seeds.max(), 99)
    }

    func testKeptAssignmentsSurvivePercentageChangesAndDataDirectories() throws {
        let first = try AssignmentStore(path: dir.appendingPathComponent("one.sqlite").path)
        let second = try AssignmentStore(path: dir.appendingPathComponent("two.sqlite").path)
        // The same user in two data directories: the same bucket, no server.
        XCTAssertEqual(
            Bucketing.bucket(experimentId: "e", userKey: first.assignmentKey(user: "bob")),
            Bucketing.bucket(experimentId: "e", userKey: second.assignmentKey(user: "bob")))
        // Two anonymous installs get different keys.
        XCTAssertNotEqual(first.assignmentKey(user: Purchases.anonymousUser), second.assignmentKey(user: Purchases.anonymousUser))
        try first.confirm(userKey: "bob", experiment: "e", variant: "a")
        try first.confirm(userKey: "bob", experiment: "e", variant: "b")
        XCTAssertEqual(first.assignment(userKey: "bob", experiment: "e")?.variant, "a", "the first confirmed assignment is kept")
        // Reopened (another process): still there.
        let reopened = try AssignmentStore(path: dir.appendingPathComponent("one.sqlite").path)
        XCTAssertEqual(reopened.assignment(userKey: "bob", experiment: "e")?.variant, "a")
        XCTAssertEqual(reopened.installKey, first.installKey)
    }

    func testAnonymousInstallsDoNotAllShareAVariant() throws {
        let variants = [
            Campaign.Variant(id: "a", paywall: "pa", basisPoints: 5000),
            Campaign.Variant(id: "b", paywall: "pb", basisPoints: 5000),
        ]
        var seen: Set<String> = []
        for install in 0..<20 {
            let store = try AssignmentStore(path: dir.appendingPathComponent("install-\(install).sqlite").path)
            let key = store.assignmentKey(user: Purchases.anonymousUser)
            seen.insert(Bucketing.variant(for: Bucketing.bucket(experimentId: "e", userKey: key), in: variants)!.id)
        }
        // Twenty random install keys all in one half: a chance of 2 in 2^20.
        XCTAssertEqual(seen, ["a", "b"])
    }

    func testAnonymousAssignmentsCarryOverToTheFirstIdentifiedUserOnly() throws {
        let store = try AssignmentStore(path: dir.appendingPathComponent("s.sqlite").path)
        try store.confirm(userKey: store.installKey, experiment: "e", variant: "b")
        try store.carryOverOnFirstIdentify(to: "carol")
        XCTAssertEqual(store.assignment(userKey: "carol", experiment: "e")?.variant, "b")
        try store.carryOverOnFirstIdentify(to: "dave")
        XCTAssertNil(store.assignment(userKey: "dave", experiment: "e"))
    }
}
