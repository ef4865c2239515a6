import Foundation
import XCTest

@testable import PaywallCLI
@testable import PaywallCore

/// Core errors say what is wrong in an app's terms, never which `paywall` command to run;
/// the CLI adds the command where it prints them.
final class CommandAdviceTests: XCTestCase {
    private func check(_ error: Error, core: String, advice: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual("\(error)", core, file: file, line: line)
        XCTAssertFalse("\(error)".contains("`paywall"), "a core message names a CLI command: \(error)", file: file, line: line)
        XCTAssertEqual(CommandAdvice.describe(error), "\(core); \(advice)", file: file, line: line)
    }

    func testCoreErrorsGetTheCommandThatFixesThem() {
        check(
            BundleCache.CacheError.notCached("promo"), core: "no bundle promo in the cache; install it first",
            advice: "add it with `paywall cache add URL|DIR`")
        check(
            BundleCache.CacheError.versionConflict(id: "promo", version: "1"),
            core:
                "promo 1 is already cached with different content; bump the version in the new bundle's manifest, or remove the cached promo first",
            advice: "`paywall cache remove promo` removes the cached one")
        check(
            BundleCache.CacheError.unpacked("/b"),
            core: "/b: manifest.json needs id, version and files: the bundle is not packed",
            advice: "run `paywall bundle pack` on the bundle first")
        check(
            BundleSource.FetchError.unpacked("/b/manifest.json"),
            core: "cannot read /b/manifest.json: no manifest.json: the bundle is not packed",
            advice: "run `paywall bundle pack` on the bundle first")
        check(
            FakeStoreError.unknownTransaction("fake_9"), core: "no transaction fake_9 in the fake store",
            advice: "list them with `paywall store transactions`")
        check(
            SeedUnreachable(
                productId: "pro", state: .subscribed, reason: "user u already has a purchase of it (fake_1)",
                remedy: "seed another user, or reset the fake store first"),
            core:
                "cannot seed pro as subscribed: user u already has a purchase of it (fake_1); seed another user, or reset the fake store first",
            advice: "--user ID seeds another user; `paywall store reset` resets the store")
        let notFound = RuntimeResources.NotFound(searched: ["/a"])
        check(notFound, core: notFound.description, advice: "`paywall install --prefix DIR` reinstalls it")
        XCTAssertTrue(notFound.description.hasSuffix("or reinstall the runtime"), notFound.description)
    }

    /// Limits an app sets in `DownloadLimits` are named by field in the core, by option in the CLI.
    func testDownloadLimitsGetTheOptionThatRaisesThem() {
        check(
            BundleCache.CacheError.tooLarge(
                "a is 2 MB, larger than the 1 MB limit per file (DownloadLimits.maxFileBytes)", limit: .maxFileBytes),
            core: "a is 2 MB, larger than the 1 MB limit per file (DownloadLimits.maxFileBytes)",
            advice: "raise it with --max-file-mb")
        check(BundleCache.CacheError.tooLarge("b", limit: .maxBundleBytes), core: "b", advice: "raise it with --max-bundle-mb")
        check(
            BundleSource.FetchError.stopped("u", "timed out", limit: .deadline), core: "download of u stopped: timed out",
            advice: "raise it with --deadline")
        XCTAssertEqual(
            CommandAdvice.describe(BundleSource.FetchError.stopped("u", "reset by peer")), "download of u stopped: reset by peer")
    }

    func testAnUnwritableDataDirectoryGetsTheDataDirOption() {
        check(
            DataDirectoryError(message: "cannot create data directory /d: read-only; use another one"),
            core: "cannot create data directory /d: read-only; use another one", advice: "pass --data-dir DIR")
        check(
            SQLiteError(code: 8 /* SQLITE_READONLY */, message: "/d is read-only"), core: "/d is read-only",
            advice: "pass --data-dir DIR")
        XCTAssertEqual(CommandAdvice.describe(SQLiteError(code: 11 /* SQLITE_CORRUPT */, message: "damaged")), "damaged")
    }

    func testOtherErrorsAreUnchanged() {
        XCTAssertEqual(
            CommandAdvice.describe(FakeStoreError.notPending("fake_1")), "transaction fake_1 is not waiting for approval")
    }

    func testValidateAddsThePackCommandToProblemsPackingFixes() {
        XCTAssertEqual(
            CommandAdvice.describe(
                BundleProblem(file: "x.txt", message: "not listed in manifest.json", fixedByPacking: true),
                bundle: "/b"),
            "x.txt: not listed in manifest.json; run `paywall bundle pack /b` again")
        XCTAssertEqual(CommandAdvice.describe(BundleProblem(file: "x.txt", message: "missing"), bundle: "/b"), "x.txt: missing")
    }
}
