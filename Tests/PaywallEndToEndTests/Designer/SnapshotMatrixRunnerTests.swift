import Foundation
import PaywallCore
import PaywallHost
import XCTest

/// `paywall snapshot --out-dir`: a matrix of locales, themes and sizes in one process, and
/// `--compare` against a baseline folder.
final class SnapshotMatrixRunnerTests: EndToEndTestCase {
    private let classic = EndToEndTestCase.packageRoot.appendingPathComponent("templates/classic").path

    private func folder(_ name: String) -> URL { workDir.appendingPathComponent(name) }

    private func files(_ name: String) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: folder(name).path))
    }

    private func snapshot(_ bundle: String, _ arguments: [String]) throws -> PaywallProcess.Outcome {
        try PaywallProcess.run(["snapshot", bundle] + arguments, in: workDir, timeout: 120)
    }

    private func report(_ dir: String) throws -> [String: [String: JSONValue]] {
        let text = try String(contentsOf: folder(dir).appendingPathComponent("report.json"), encoding: .utf8)
        let images = try XCTUnwrap(try JSONValue(parsing: text)["images"]?.arrayValue)
        return Dictionary(
            uniqueKeysWithValues: images.compactMap { image in
                image["name"]?.stringValue.map { ($0, image.objectValue ?? [:]) }
            })
    }

    private func number(_ value: JSONValue?) -> Double? {
        if case .number(let n)? = value { return n }
        return nil
    }

    func testMatrixWritesEveryCombinationAndAContactSheet() throws {
        let result = try snapshot(
            classic,
            [
                "--out-dir", folder("out").path, "--locales", "en,de", "--themes", "light,dark",
                "--sizes", "400x720,320x568",
            ])
        XCTAssertEqual(result.status, 0, result.stderr)
        let expected = ["en", "de"].flatMap { locale in
            ["light", "dark"].flatMap { theme in ["400x720", "320x568"].map { "\(locale)_\(theme)_\($0).png" } }
        }
        XCTAssertEqual(try files("out"), Set(expected + ["index.html"]), "exactly the matrix and its contact sheet")
        for name in expected {
            let image = try PNGImage(path: folder("out").appendingPathComponent(name).path)
            XCTAssertEqual("\(image.width)x\(image.height)", name.contains("400x720") ? "400x720" : "320x568", name)
        }
        let light = try PNGImage(path: folder("out").appendingPathComponent("de_light_400x720.png").path)
        let dark = try PNGImage(path: folder("out").appendingPathComponent("de_dark_400x720.png").path)
        XCTAssertGreaterThan(light.rgb(200, 540).reduce(0, +), 600, "light background")
        XCTAssertLessThan(dark.rgb(200, 540).reduce(0, +), 150, "dark background")
        let sheet = try String(contentsOf: folder("out").appendingPathComponent("index.html"), encoding: .utf8)
        for name in expected { XCTAssertTrue(sheet.contains("<img src=\"\(name)\""), "the contact sheet shows \(name)") }
    }

    /// A bundle given as `.` (run from its folder) is named by its folder in the contact sheet, not ".".
    func testTheContactSheetNamesABundleGivenAsDotByItsFolder() throws {
        let bundle = folder("pdfapp-paywall")
        try FileManager.default.copyItem(atPath: classic, toPath: bundle.path)
        let result = try PaywallProcess.run(
            [
                "snapshot", ".", "--out-dir", folder("sheet").path, "--locales", "en", "--themes", "light",
                "--sizes", "400x720",
            ], in: bundle, timeout: 120)
        XCTAssertEqual(result.status, 0, result.stderr)
        let sheet = try String(contentsOf: folder("sheet").appendingPathComponent("index.html"), encoding: .utf8)
        XCTAssertTrue(sheet.contains("<h1>pdfapp-paywall</h1>"), sheet)
        XCTAssertTrue(sheet.contains("<title>pdfapp-paywall</title>"), sheet)
    }

    /// One web process serves every locale: each page still sees its own language everywhere a
    /// page reads it (a quarter of the page each, coloured by what it read).
    func testEachLocaleRendersInItsOwnLanguage() throws {
        let bundle = try inlineBundle(
            "languages",
            body: """
                <style>body { margin: 0 } div { position: fixed; top: 0; width: 100px; height: 100px }</style>
                <div id="a" style="left: 0"></div><div id="b" style="left: 100px"></div>
                <div id="c" style="left: 200px"></div><div id="d" style="left: 300px"></div>
                <script>
                const color = tag => tag.startsWith("de") ? "rgb(255, 0, 0)" : tag.startsWith("fr") ? "rgb(0, 0, 255)"
                  : tag.startsWith("ar") ? "rgb(0, 255, 0)" : "rgb(0, 0, 0)";
                a.style.background = color(navigator.language);
                b.style.background = color(window.__SW_DEVICE_PRELOAD__.deviceLocale);
                c.style.background = color(document.documentElement.lang);
                d.style.background = color(new Intl.NumberFormat().resolvedOptions().locale);
                </script>
                """)
        let result = try snapshot(
            bundle.path,
            [
                "--out-dir", folder("out").path, "--locales", "de,fr,ar", "--sizes", "400x200",
                "--theme", "light",
            ])
        XCTAssertEqual(result.status, 0, result.stderr)
        for (locale, color) in [("de", [255, 0, 0]), ("fr", [0, 0, 255]), ("ar", [0, 255, 0])] {
            let image = try PNGImage(path: folder("out").appendingPathComponent("\(locale)_light_400x200.png").path)
            for (x, what) in [
                (50, "navigator.language"), (150, "deviceLocale"), (250, "<html lang>"), (350, "Intl's default locale"),
            ] {
                image.assertColor(x, 50, color, "\(locale): \(what)")
            }
        }
    }

    func testIdenticalSecondRunPassesAndTinyChangesWithinToleranceAndRatioPass() throws {
        let matrix = ["--locales", "en,ar", "--themes", "light,dark"]
        XCTAssertEqual(try snapshot(classic, ["--out-dir", folder("baseline").path] + matrix).status, 0)
        let again = try snapshot(classic, ["--out-dir", folder("run").path, "--compare", folder("baseline").path] + matrix)
        XCTAssertEqual(again.status, 0, again.stderr)
        let statuses = try report("run")
        XCTAssertEqual(Set(statuses.keys), ["en_light_400x720", "en_dark_400x720", "ar_light_400x720", "ar_dark_400x720"])
        for (name, entry) in statuses {
            XCTAssertEqual(entry["status"], "same", name)
            XCTAssertEqual(entry["differing_pixels"], 0, name)
        }
        XCTAssertFalse(try files("run").contains { $0.hasSuffix(".diff.png") })

        // One pixel off by 2 (within the tolerance) and one off by 128 or more (1 of 288000 pixels: within the ratio).
        let path = folder("baseline").appendingPathComponent("en_light_400x720.png").path
        var image = try PNGFile.read(path)
        image.pixels[(10 * 400 + 10) * 4] =
            image.pixels[(10 * 400 + 10) * 4] &+ (image.pixels[(10 * 400 + 10) * 4] < 128 ? 2 : 254)
        image.pixels[(500 * 400 + 20) * 4 + 1] = image.pixels[(500 * 400 + 20) * 4 + 1] < 128 ? 255 : 0
        try PNGFile.write(image, to: path)
        let tweaked = try snapshot(classic, ["--out-dir", folder("run").path, "--compare", folder("baseline").path] + matrix)
        XCTAssertEqual(tweaked.status, 0, tweaked.stderr)
        let entry = try XCTUnwrap(try report("run")["en_light_400x720"])
        XCTAssertEqual(entry["status"], "same")
        XCTAssertEqual(entry["differing_pixels"], 1, "only the pixel beyond the tolerance differs")
        XCTAssertGreaterThanOrEqual(number(entry["max_channel_delta"]) ?? 0, 128)

        // With no room for any differing pixel, the same run is a change.
        let strict = try snapshot(
            classic,
            [
                "--out-dir", folder("run").path, "--compare", folder("baseline").path,
                "--max-diff-ratio", "0",
            ] + matrix)
        XCTAssertEqual(strict.status, 5, strict.stderr)
        XCTAssertEqual(try report("run")["en_light_400x720"]?["status"], "changed")
    }

    func testChangedPriceExits5WithADiffImageAndReport() throws {
        let catalog = folder("store.json")
        try FileManager.default.copyItem(atPath: classic + "/store.json", toPath: catalog.path)
        let common = ["--store", catalog.path, "--data-dir", folder("data").path, "--locales", "en", "--themes", "light"]
        XCTAssertEqual(try snapshot(classic, ["--out-dir", folder("baseline").path] + common).status, 0)
        let text = try String(contentsOf: catalog, encoding: .utf8)
        XCTAssertTrue(text.contains("\"39.99\""))
        try text.replacingOccurrences(of: "\"39.99\"", with: "\"49.99\"").write(to: catalog, atomically: true, encoding: .utf8)

        let result = try snapshot(classic, ["--out-dir", folder("run").path, "--compare", folder("baseline").path] + common)
        XCTAssertEqual(result.status, 5, result.stderr)
        XCTAssertTrue(result.stderr.contains("1 changed"), result.stderr)
        let entry = try XCTUnwrap(try report("run")["en_light_400x720"])
        XCTAssertEqual(entry["status"], "changed")
        XCTAssertGreaterThan(number(entry["differing_pixels"]) ?? 0, 288)
        let diff = try PNGImage(path: folder("run").appendingPathComponent("en_light_400x720.diff.png").path)
        XCTAssertEqual([diff.width, diff.height], [400, 720])
        let red = (0..<720).flatMap { y in (0..<400).map { x in diff.rgb(x, y) } }.filter { $0 == [255, 0, 0] }.count
        XCTAssertEqual(red, Int(number(entry["differing_pixels"]) ?? -1), "every differing pixel is red in the diff image")
        let sheet = try String(contentsOf: folder("run").appendingPathComponent("index.html"), encoding: .utf8)
        XCTAssertTrue(sheet.contains("en_light_400x720.diff.png"), "the contact sheet shows the diff")
    }

    func testMissingImageExits5AndNewImageDoesNotFail() throws {
        let bundle = try inlineBundle("plain", body: "<p>hello</p>")
        XCTAssertEqual(
            try snapshot(
                bundle.path,
                [
                    "--out-dir", folder("baseline").path, "--locales", "en,de", "--sizes", "200x100",
                    "--theme", "light",
                ]
            ).status, 0)
        let grown = try snapshot(
            bundle.path,
            [
                "--out-dir", folder("grown").path, "--compare", folder("baseline").path,
                "--locales", "en,de,fr", "--sizes", "200x100", "--theme", "light",
            ])
        XCTAssertEqual(grown.status, 0, "a new image does not fail: \(grown.stderr)")
        XCTAssertEqual(try report("grown")["fr_light_200x100"]?["status"], "new")
        XCTAssertEqual(try report("grown")["fr_light_200x100"]?["differing_pixels"], .null)

        let shrunk = try snapshot(
            bundle.path,
            [
                "--out-dir", folder("shrunk").path, "--compare", folder("baseline").path,
                "--locales", "en", "--sizes", "200x100", "--theme", "light",
            ])
        XCTAssertEqual(shrunk.status, 5, shrunk.stderr)
        XCTAssertEqual(try report("shrunk")["de_light_200x100"]?["status"], "missing")
        XCTAssertEqual(try report("shrunk")["en_light_200x100"]?["status"], "same")
        XCTAssertTrue(
            try String(contentsOf: folder("shrunk").appendingPathComponent("index.html"), encoding: .utf8)
                .contains("de_light_200x100"), "the contact sheet lists the missing image")
    }

    /// The single `--out FILE.png` form keeps working beside the matrix; the two do not mix.
    func testOptionErrors() throws {
        let bundle = try inlineBundle("plain", body: "<p>hello</p>")
        try FileManager.default.createDirectory(at: folder("baseline"), withIntermediateDirectories: true)
        // A link to the baseline is the baseline: the run would overwrite the images it compares with.
        try FileManager.default.createSymbolicLink(atPath: folder("baseline-link").path, withDestinationPath: "baseline")
        let usage: [([String], String)] = [
            (["--out-dir", "baseline-link", "--compare", "baseline"], "another folder than --out-dir"),
            (["--out", "x.png", "--out-dir", "out"], "not both"),
            (["--out", "x.png", "--locales", "en,de"], "--locales needs --out-dir"),
            (["--out", "x.png", "--compare", "baseline"], "--compare needs --out-dir"),
            (["--out-dir", "out", "--locale", "de", "--locales", "en,de"], "--locale or --locales"),
            (["--out-dir", "out", "--locales", "en,,de"], "--locales: empty entry"),
            (["--out-dir", "out", "--themes", "light,sepia"], "'sepia' is not light or dark"),
            (["--out-dir", "out", "--sizes", "400x720,huge"], "'huge' is not WIDTHxHEIGHT"),
            (["--out-dir", "out", "--tolerance", "3"], "--tolerance needs --compare"),
            (
                ["--out-dir", "out", "--compare", "baseline", "--tolerance", "300"],
                "--tolerance must be a whole number from 0 to 255"
            ),
            (
                ["--out-dir", "out", "--compare", "baseline", "--max-diff-ratio", "2"],
                "--max-diff-ratio must be a number from 0 to 1"
            ),
            (["--out-dir", "baseline", "--compare", "baseline"], "another folder than --out-dir"),
            ([], "--out FILE.png (one image) or --out-dir DIR (a matrix) is required"),
        ]
        for (arguments, message) in usage {
            let result = try snapshot(bundle.path, arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        let noBaseline = try snapshot(bundle.path, ["--out-dir", "out", "--compare", "nope"])
        XCTAssertEqual(noBaseline.status, 1)
        XCTAssertTrue(noBaseline.stderr.contains("--compare nope: no such folder; record a baseline first"), noBaseline.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder("out").path), "nothing rendered, nothing created")
    }
}
