import Foundation
import PaywallCore
import XCTest

/// `paywall report` over event logs written by real `paywall present --placement --events`
/// runs: variant a declined, variant b bought, a holdout; `--json`, `--by`, bad lines, a
/// missing file, and the `--html` page opened and screenshotted in headless Chromium.
final class ReportCommandTests: EndToEndTestCase {
    private var dataDir: String { workDir.appendingPathComponent("data").path }
    private let catalog = EndToEndTestCase.packageRoot.appendingPathComponent("templates/classic/store.json").path

    /// Two logs (as from two machines): u3 (variant a) closes the paywall and u1 is held out in
    /// the first, u5 (variant b) buys the yearly plan in the second.
    private func writeLogs() throws -> [String] {
        let config = workDir.appendingPathComponent("config.json")
        try Data(PlacementDryRunTests.configShowingClassic.utf8).write(to: config)
        let loaded = try PaywallProcess.run(["config", "load", config.path, "--data-dir", dataDir], in: workDir)
        XCTAssertEqual(loaded.status, 0, loaded.stdout + loaded.stderr)
        let logs = ["machine1.jsonl", "machine2.jsonl"].map { workDir.appendingPathComponent($0).path }
        for (user, log, script, result) in [
            ("u3", logs[0], "Paywall.close()", "{\"result\":\"declined\"}\n"),
            (
                "u5", logs[1], "document.getElementById('purchase').click()",
                "{\"result\":\"purchased\",\"product_id\":\"lumen.pro.yearly\"}\n"
            ),
        ] {
            let run = try PaywallProcess.run(
                [
                    "present", "--placement", "export_pdf", "--config", config.path, "--user", user, "--locale", "de_DE",
                    "--store", catalog, "--data-dir", dataDir, "--events", log, "--timeout", "30", "--eval", script,
                ], in: workDir)
            XCTAssertEqual(run.status, 0, "\(user): \(run.stderr)")
            XCTAssertEqual(run.stdout, result, "\(user): \(run.stderr)")
        }
        // u1 is held out: `present --placement` shows nothing and logs the decision.
        let held = try PaywallProcess.run(
            [
                "present", "--placement", "export_pdf", "--config", config.path, "--user", "u1", "--locale", "de_DE",
                "--store", catalog, "--data-dir", dataDir, "--events", logs[0],
            ], in: workDir)
        XCTAssertEqual(held.status, 0, held.stderr)
        XCTAssertTrue(held.stdout.contains("\"reason\":\"holdout\""), held.stdout + held.stderr)
        return logs
    }

    private func report(_ arguments: [String]) throws -> PaywallProcess.Outcome {
        try PaywallProcess.run(["report"] + arguments, in: workDir)
    }

    func testReportOverRealLogsAsJSONByVariantAndByPlacementAndAsAPage() throws {
        let logs = try writeLogs()
        let trials = try String(contentsOfFile: logs[1], encoding: .utf8).split(separator: "\n")
            .filter { $0.contains("\"freeTrial_start\"") }.count

        let run = try report(logs + ["--json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "")
        let json = try JSONValue(parsing: run.stdout)
        let experiments = try XCTUnwrap(json["experiments"]?.arrayValue)
        XCTAssertEqual(experiments.map { $0["id"] }, ["exp1"])
        let variants = try XCTUnwrap(experiments[0]["variants"]?.arrayValue)
        XCTAssertEqual(variants.map { $0["id"] }, ["a", "b", "hold"])
        for variant in variants {
            for key in [
                "id", "users", "impressions", "conversions", "trial_starts", "conversion_rate", "conversion_ci",
                "revenue_per_impression", "probability_better",
            ] {
                XCTAssertNotNil(variant[key], "\(key) of \(variant.jsonText)")
            }
        }
        let (a, b, hold) = (variants[0], variants[1], variants[2])
        XCTAssertEqual(a["users"], 1)
        XCTAssertEqual(a["impressions"], 1)
        XCTAssertEqual(a["conversions"], 0)
        XCTAssertEqual(a["probability_better"], .null, "the first variant is the baseline")
        XCTAssertEqual(b["users"], 1)
        XCTAssertEqual(b["conversions"], 1)
        XCTAssertEqual(b["conversion_rate"], 1)
        XCTAssertEqual(b["trial_starts"], .number(Double(trials)))
        let interval = try XCTUnwrap(b["conversion_ci"]?.arrayValue)
        let wilson = try XCTUnwrap(WilsonInterval(successes: 1, trials: 1))
        XCTAssertEqual(interval, [.number((wilson.low * 1e6).rounded() / 1e6), 1])
        XCTAssertEqual(
            b["probability_better"], .number((BetaComparison.probabilityBetter((1, 1), than: (0, 1)) * 1e6).rounded() / 1e6))
        XCTAssertEqual(b["verdict"], "not enough data yet")
        XCTAssertEqual(hold["holdout"], true)
        XCTAssertEqual(hold["users"], 1)
        XCTAssertEqual(hold["impressions"], 0)
        XCTAssertEqual(hold["probability_better"], .null)

        let byPlacement = try JSONValue(parsing: try report(logs + ["--json", "--by", "placement"]).stdout)
        let groups = try XCTUnwrap(byPlacement["groups"]?.arrayValue)
        XCTAssertNil(byPlacement["experiments"])
        XCTAssertEqual(groups.map { $0["id"] }, ["export_pdf"])
        XCTAssertEqual(groups[0]["presentation_requests"], 3)
        XCTAssertEqual(groups[0]["impressions"], 2)
        XCTAssertEqual(groups[0]["conversions"], 1)

        let byPaywall = try JSONValue(parsing: try report(logs + ["--json", "--by", "paywall"]).stdout)
        // Both variants show templates/classic (manifest id classic); the holdout shows nothing.
        XCTAssertEqual(byPaywall["groups"]?.arrayValue?.map { $0["id"] }, ["classic"])
        XCTAssertEqual(byPaywall["groups"]?.arrayValue?.first?["impressions"], 2)

        let text = try report(logs)
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdout.hasPrefix("experiment exp1\n"), text.stdout)
        XCTAssertTrue(text.stdout.contains("b vs a: not enough data yet"), text.stdout)

        // The page: self-contained, and drawn.
        let page = workDir.appendingPathComponent("report.html")
        XCTAssertEqual(try report(logs + ["--html", page.path]).status, 0)
        let html = try String(contentsOf: page, encoding: .utf8)
        for outside in ["<script", "src=", "href=", "url(", "@import", "http:", "https:"] {
            XCTAssertFalse(html.contains(outside), "the page loads nothing: found \(outside)")
        }
        XCTAssertEqual(html.components(separatedBy: "<svg ").count - 1, 3, "rates, funnel, conversions over time")
        let shot = workDir.appendingPathComponent("report.png")
        let chromium = Process()
        chromium.executableURL = URL(fileURLWithPath: "/usr/bin/chromium")
        chromium.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(workDir.appendingPathComponent("chromium").path)",
            "--screenshot=\(shot.path)", "--window-size=1000,1400", page.absoluteString,
        ]
        chromium.standardOutput = FileHandle.nullDevice
        chromium.standardError = FileHandle.nullDevice
        try chromium.run()
        chromium.waitUntilExit()
        XCTAssertEqual(chromium.terminationStatus, 0)
        let image = try PNGImage(path: shot.path)
        XCTAssertEqual(image.width, 1000)
        XCTAssertEqual(image.height, 1400)
        XCTAssertGreaterThan(image.distinctColors(), 20, "the page drew text and charts")
        // Variant a's blue and b's orange are on the page (the legend swatches and the charts).
        var colors = Set<[Int]>()
        for y in stride(from: 0, to: image.height, by: 2) {
            for x in stride(from: 0, to: image.width, by: 2) { colors.insert(image.rgb(x, y)) }
        }
        XCTAssertTrue(colors.contains([0x25, 0x63, 0xeb]), "variant a's colour")
        XCTAssertTrue(colors.contains([0xea, 0x58, 0x0c]), "variant b's colour")
    }

    func testBadLinesAreNamedAndSkippedAndAMissingFileFails() throws {
        let log = workDir.appendingPathComponent("mixed.jsonl")
        let open = #"{"name":"paywall_open","params":{"experiment_id":"e","variant_id":"a"},"timestamp":"2026-01-01T00:00:00Z"}"#
        try Data("\(open)\nnot json\n[1,2]\n\n\(open)\n".utf8).write(to: log)
        let run = try report([log.path, "--json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("\(log.path):2: not JSON"), run.stderr)
        XCTAssertTrue(run.stderr.contains("\(log.path):3: not an event"), run.stderr)
        XCTAssertTrue(run.stderr.contains("skipped 2 line(s) that are not events"), run.stderr)
        let variant = try JSONValue(parsing: run.stdout)["experiments"]?.arrayValue?.first?["variants"]?.arrayValue?.first
        XCTAssertEqual(variant?["impressions"], 2, "the good lines around the bad ones count")

        let missing = workDir.appendingPathComponent("nope.jsonl").path
        let failed = try report([log.path, missing])
        XCTAssertEqual(failed.status, 1)
        XCTAssertEqual(failed.stdout, "")
        XCTAssertTrue(failed.stderr.contains("cannot read \(missing): No such file or directory"), failed.stderr)

        let usage = try report([log.path, "--by", "colour"])
        XCTAssertEqual(usage.status, 2)
        XCTAssertTrue(usage.stderr.contains("--by must be variant, paywall, placement or locale; got 'colour'"), usage.stderr)
    }
}
