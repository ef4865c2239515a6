import Foundation
import PaywallCore
import XCTest

/// `paywall customer-center --out-dir`: the screen the scripts lead to, for every locale, theme
/// and size, and `--compare` against a baseline.
final class CustomerCenterMatrixTests: EndToEndTestCase {
    private let catalog = EndToEndTestCase.packageRoot.appendingPathComponent("templates/classic/store.json").path

    private func customerCenter(_ data: String, _ arguments: [String]) throws -> PaywallProcess.Outcome {
        try PaywallProcess.run(
            [
                "customer-center", "--store", catalog, "--data-dir", workDir.appendingPathComponent(data).path,
                "--timeout", "100",
            ] + arguments, in: workDir, timeout: 120)
    }

    private func statuses(_ dir: URL) throws -> [String: String] {
        let report = try JSONValue(parsing: String(contentsOf: dir.appendingPathComponent("report.json"), encoding: .utf8))
        return Dictionary(
            uniqueKeysWithValues: (report["images"]?.arrayValue ?? []).compactMap { image in
                image["name"]?.stringValue.flatMap { name in image["status"]?.stringValue.map { (name, $0) } }
            })
    }

    func testMatrixOfTheScreenTheScriptsLeadToAndItsComparison() throws {
        let bought = try PaywallProcess.run(
            [
                "store", "buy", "lumen.pro.monthly", "--store", catalog, "--data-dir",
                workDir.appendingPathComponent("data").path,
            ], in: workDir)
        XCTAssertEqual(bought.status, 0, bought.stderr)
        let detail = [
            "--eval",
            "await CustomerCenter.waitFor(m => m.screen === 'management'); CustomerCenter.tap('[data-path-id=\"detail\"]');",
            "--eval", "await CustomerCenter.waitFor(m => m.screen === 'detail');",
        ]
        let matrix = ["--locales", "en,de", "--themes", "light,dark"]
        let baseline = workDir.appendingPathComponent("baseline")
        let recorded = try customerCenter("data", ["--out-dir", baseline.path] + matrix + detail)
        XCTAssertEqual(recorded.status, 0, recorded.stderr)
        XCTAssertEqual(recorded.stdout, "{\"path\":\"\(baseline.path)\",\"result\":\"snapshot\"}\n")
        XCTAssertFalse(recorded.stderr.contains("threw"), recorded.stderr)
        let names = ["en_light_400x720", "en_dark_400x720", "de_light_400x720", "de_dark_400x720"]
        XCTAssertEqual(
            Set(try FileManager.default.contentsOfDirectory(atPath: baseline.path)),
            Set(names.map { $0 + ".png" } + ["index.html"]))
        let dark = try PNGImage(path: baseline.appendingPathComponent("de_dark_400x720.png").path)
        dark.assertColor(200, 700, [34, 34, 38], "window background (dark)")
        let light = try PNGImage(path: baseline.appendingPathComponent("en_light_400x720.png").path)
        light.assertColor(200, 700, [250, 250, 251], "window background (light)")
        let hasRed = stride(from: 0, to: 720, by: 2).contains { y in
            stride(from: 0, to: 400, by: 2).contains { x in
                let c = light.rgb(x, y)
                return c[0] > 150 && c[1] < 90 && c[2] < 90
            }
        }
        XCTAssertTrue(hasRed, "the detail screen the scripts lead to, with Cancel subscription in red")

        let again = workDir.appendingPathComponent("again")
        let same = try customerCenter("data", ["--out-dir", again.path, "--compare", baseline.path] + matrix + detail)
        XCTAssertEqual(same.status, 0, same.stderr)
        XCTAssertEqual(try statuses(again), Dictionary(uniqueKeysWithValues: names.map { ($0, "same") }))

        // Another user has no purchases: the no-purchases screen, which differs from every baseline image.
        let other = workDir.appendingPathComponent("other")
        let changed = try customerCenter("other-data", ["--out-dir", other.path, "--compare", baseline.path] + matrix)
        XCTAssertEqual(changed.status, 5, changed.stderr)
        XCTAssertEqual(changed.stdout, "{\"path\":\"\(other.path)\",\"result\":\"snapshot\"}\n")
        XCTAssertEqual(try statuses(other), Dictionary(uniqueKeysWithValues: names.map { ($0, "changed") }))
        XCTAssertTrue(FileManager.default.fileExists(atPath: other.appendingPathComponent("de_dark_400x720.diff.png").path))
    }

    func testMatrixOptionsNeedOutDir() throws {
        let result = try customerCenter("data", ["--snapshot", "x.png", "--themes", "light,dark"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("--themes needs --out-dir"), result.stderr)
        let both = try customerCenter("data", ["--snapshot", "x.png", "--out-dir", "out"])
        XCTAssertEqual(both.status, 2)
        XCTAssertTrue(
            both.stderr.contains("give --snapshot FILE.png for one image or --out-dir DIR for a matrix, not both"), both.stderr)
    }
}
