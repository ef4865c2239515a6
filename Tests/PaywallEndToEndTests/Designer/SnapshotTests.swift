import Foundation
import XCTest

/// `paywall snapshot`: real WebKit rendering checked pixel by pixel.
final class SnapshotTests: EndToEndTestCase {
    /// The kitchen-sink fixture paints one cell per bundle feature; each colour proves one worked.
    func testBundleWithStylesheetModuleImageFontAndFetchRenders() throws {
        let bundle = try fixtureBundle("kitchen-sink")
        let out = workDir.appendingPathComponent("kitchen-sink.png").path
        let result = try PaywallProcess.run(["snapshot", bundle.path, "--out", out], in: workDir)
        XCTAssertEqual(result.status, 0, result.stderr)

        let image = try PNGImage(path: out)
        XCTAssertEqual([image.width, image.height], [400, 720], "default size")
        image.assertColor(390, 700, [12, 34, 56], "external stylesheet (body background)")
        image.assertColor(50, 50, [0, 200, 0], "ES module with an import")
        image.assertColor(150, 50, [200, 100, 0], "fetch() of a bundle JSON file")
        image.assertColor(250, 50, [0, 0, 255], "<img> from the bundle")
        image.assertColor(350, 50, [255, 0, 255], "CSS url() image")
        image.assertColor(50, 150, [255, 255, 0], "web font loaded (red means it did not)")
    }

    /// An emoji in a paywall's copy is drawn in colour (fonts-noto-color-emoji, in scripts/setup),
    /// not as an empty box: the grinning face's yellow fills much of the area it is drawn in.
    func testAnEmojiRendersInColour() throws {
        let bundle = try inlineBundle(
            "emoji", body: "<div style='margin:0;font-size:160px;line-height:200px;background:white'>\u{1F600}</div>")
        let out = workDir.appendingPathComponent("emoji.png").path
        let result = try PaywallProcess.run(["snapshot", bundle.path, "--out", out, "--size", "400x400"], in: workDir)
        XCTAssertEqual(result.status, 0, result.stderr)
        let image = try PNGImage(path: out)
        var yellow = 0
        for y in stride(from: 0, to: 260, by: 4) {
            for x in stride(from: 0, to: 260, by: 4) {
                let p = image.rgb(x, y)
                if p[0] > 200, p[1] > 140, p[2] < 110 { yellow += 1 }
            }
        }
        XCTAssertGreaterThan(yellow, 200, "yellow samples of the emoji (an empty box has none)")
    }

    func testSizeOptionSetsTheImageSize() throws {
        let bundle = try inlineBundle("plain", body: "<p>hello</p>")
        let out = workDir.appendingPathComponent("small.png").path
        let result = try PaywallProcess.run(["snapshot", bundle.path, "--out", out, "--size", "320x480"], in: workDir)
        XCTAssertEqual(result.status, 0, result.stderr)
        let image = try PNGImage(path: out)
        XCTAssertEqual([image.width, image.height], [320, 480])
    }

    /// A page that never pings is captured once its load finished and the 2 s grace passed.
    func testPageWithoutPingIsCapturedAfterLoad() throws {
        let bundle = try inlineBundle("no-ping", body: "<div style='position:fixed;inset:0;background:rgb(0,128,128)'></div>")
        try "<!DOCTYPE html><html data-paywall-manual-ready><body style='margin:0'>"
            .appending("<div style='position:fixed;inset:0;background:rgb(0,128,128)'></div></body></html>")
            .write(to: bundle.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
        let out = workDir.appendingPathComponent("no-ping.png").path
        let result = try PaywallProcess.run(["snapshot", bundle.path, "--out", out, "--events", eventsPath], in: workDir)
        XCTAssertEqual(result.status, 0, result.stderr)
        try PNGImage(path: out).assertColor(200, 360, [0, 128, 128], "page content")
        let ready = loggedEvents().first { $0.name == .pageReady }
        XCTAssertEqual(ready?.params["via"], "load")
    }

    /// Animations are frozen for the capture, so equal pages give equal images: the ones that
    /// end at their end, endless ones at their start.
    func testAnimationsAreFrozenForTheCapture() throws {
        let bundle = try inlineBundle(
            "animated",
            body: """
                <style>
                body { margin: 0 }
                @keyframes slide { from { left: 0 } to { left: 300px } }
                @keyframes appear { from { background: rgb(255, 0, 0) } to { background: rgb(0, 0, 255) } }
                #endless { position: fixed; top: 0; left: 0; width: 100px; height: 100px; background: rgb(0, 128, 0);
                           animation: slide 0.4s linear infinite }
                #finite { position: fixed; top: 200px; left: 0; width: 100px; height: 100px; animation: appear 60s linear forwards }
                </style><div id="endless"></div><div id="finite"></div>
                """)
        let out = workDir.appendingPathComponent("animated.png").path
        let result = try PaywallProcess.run(["snapshot", bundle.path, "--out", out], in: workDir)
        XCTAssertEqual(result.status, 0, result.stderr)
        let image = try PNGImage(path: out)
        image.assertColor(50, 50, [0, 128, 0], "the endless animation at its start")
        image.assertColor(150, 50, [255, 255, 255], "nothing further along")
        image.assertColor(50, 250, [0, 0, 255], "the finite animation at its end")
    }

    /// The shipped template is the demo: it must render as a real page, not a blank one.
    func testClassicTemplateRenders() throws {
        let out = workDir.appendingPathComponent("classic.png").path
        let template = Self.packageRoot.appendingPathComponent("templates/classic").path
        let result = try PaywallProcess.run(["snapshot", template, "--out", out], in: workDir)
        XCTAssertEqual(result.status, 0, result.stderr)
        let image = try PNGImage(path: out)
        XCTAssertGreaterThan(image.distinctColors(), 20, "a rendered paywall has many colours")
    }

    /// An HTML-only page: the snapshot shows its variables filled. A bar's width is
    /// `{{ primary.trialPeriodDays }}0px`: 70 px once filled, the whole row while still a template.
    func testHTMLOnlyTemplateRendersItsPricesInTheSnapshot() throws {
        let bundle = try inlineBundle(
            "html-only",
            body: """
                <div id="bar" style="height: 40px; background: rgb(0, 128, 0); width: {{ primary.trialPeriodDays }}0px"></div>
                <p style="font: 32px sans-serif">{{ primary.price }} / {{ primary.period }}</p>
                """)
        let out = workDir.appendingPathComponent("html-only.png").path
        let catalog = Self.packageRoot.appendingPathComponent("templates/classic/store.json").path
        let result = try PaywallProcess.run(
            [
                "snapshot", bundle.path, "--out", out, "--store", catalog, "--products", "primary=lumen.pro.yearly",
                "--data-dir", workDir.appendingPathComponent("data").path,
            ], in: workDir)
        XCTAssertEqual(result.status, 0, result.stderr)
        let image = try PNGImage(path: out)
        image.assertColor(35, 20, [0, 128, 0], "the bar")
        image.assertColor(200, 20, [255, 255, 255], "the bar ends at 70 px: its width was filled in")
    }

    func testMissingBundleExits1NamingThePath() throws {
        let missing = workDir.appendingPathComponent("nope").path
        let result = try PaywallProcess.run(["snapshot", missing, "--out", "x.png"], in: workDir)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains(missing), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: workDir.appendingPathComponent("x.png").path))
    }

    func testBundleWithoutEntryPageExits1() throws {
        let dir = workDir.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let result = try PaywallProcess.run(["snapshot", dir.path, "--out", "x.png"], in: workDir)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("index.html"), result.stderr)
    }

    func testUnwritableOutputExits1() throws {
        let bundle = try inlineBundle("plain", body: "<p>hello</p>")
        let out = workDir.appendingPathComponent("no/such/dir/x.png").path
        let result = try PaywallProcess.run(["snapshot", bundle.path, "--out", out], in: workDir)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains(out), result.stderr)
        XCTAssertTrue(
            result.stderr.contains("the folder \(workDir.appendingPathComponent("no/such/dir").path) does not exist"),
            result.stderr)
    }

    func testTooLargeASizeStatesTheLimit() throws {
        let bundle = try inlineBundle("plain", body: "<p>hello</p>")
        let result = try PaywallProcess.run(["snapshot", bundle.path, "--out", "x.png", "--size", "99999x99999"], in: workDir)
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("each side from 1 to 10000"), result.stderr)
    }
}
