import Foundation
import XCTest

/// `paywall serve`'s `redeem` (`sidecar_redeem_test.py`, Debian's /usr/bin/python3) against the
/// license tests' checking License API server: a link before `initialize` kept and redeemed
/// after it, a key from the app's field, an unknown key's reason, bad params, no key in clear.
final class SidecarRedeemTests: EndToEndTestCase {
    func testRedeemLinksAndKeysOverTheSidecar() throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("sidecar_redeem_test.py")
        let outcome = try PaywallProcess.run(
            [script.path, "--paywall", PaywallProcess.executable.path, "--work", workDir.path],
            in: workDir, executable: URL(fileURLWithPath: "/usr/bin/python3"), timeout: 120)
        let serveErrors = (try? String(contentsOf: workDir.appendingPathComponent("serve-stderr.txt"), encoding: .utf8)) ?? ""
        XCTAssertEqual(outcome.status, 0, "\(outcome.stdout)\n\(outcome.stderr)\npaywall serve's stderr:\n\(serveErrors)")
        XCTAssertTrue(outcome.stdout.contains("sidecar_redeem_test: ok"), outcome.stdout)
    }
}
