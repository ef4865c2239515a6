import Foundation
import XCTest

/// The template gallery as a designer meets it: `paywall templates`, then for each template
/// `paywall new`, `validate`, `validate --a11y` and `snapshot --strict` with its sample catalog.
final class TemplateGalleryTests: EndToEndTestCase {
    static let gallery = ["carousel", "classic", "comparison", "lifetime", "minimal", "trial-timeline", "winback"]

    func testTemplatesListsEveryTemplateAsJSON() throws {
        let outcome = try PaywallProcess.run(["templates", "--json"], in: workDir)
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        let list = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(list.compactMap { $0["name"] as? String }.sorted(), Self.gallery)
        for entry in list {
            XCTAssertEqual(Set(entry.keys), ["name", "title", "description", "products"], "\(entry)")
            XCTAssertFalse((entry["description"] as? String ?? "").isEmpty, "\(entry)")
        }
        let winback = try XCTUnwrap(list.first { $0["name"] as? String == "winback" })
        XCTAssertEqual(
            winback["products"] as? [String: String],
            ["primary": "lumen.pro.yearly", "secondary": "lumen.pro.yearly.winback"])
    }

    func testEveryTemplateMakesABundleThatValidatesAndSnapshotsStrictly() throws {
        for name in Self.gallery {
            let dir = workDir.appendingPathComponent("new-\(name)")
            let made = try PaywallProcess.run(["new", dir.path, "--template", name, "--id", "my-\(name)"], in: workDir)
            XCTAssertEqual(made.status, 0, "\(name): \(made.stderr)")
            let manifest = try XCTUnwrap(
                try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("manifest.json")))
                    as? [String: Any])
            XCTAssertEqual(manifest["id"] as? String, "my-\(name)")
            XCTAssertEqual(manifest["preview_store"] as? String, "store.json")
            let readme = try String(contentsOf: dir.appendingPathComponent("README.md"), encoding: .utf8)
            XCTAssertTrue(readme.contains("{{ primary.price }}"), "\(name): the README lists the variables:\n\(readme)")
            XCTAssertTrue(readme.contains("| `close` |"), "\(name): the README lists the texts")

            let valid = try PaywallProcess.run(["validate", dir.path], in: workDir)
            XCTAssertEqual(valid.status, 0, "\(name): \(valid.stdout)\(valid.stderr)")
            let audited = try PaywallProcess.run(
                [
                    "validate", "--a11y", dir.path, "--store", dir.appendingPathComponent("store.json").path, "--axe",
                    AccessibilityAuditTests.axeScript.path,
                ], in: workDir, timeout: 180)
            XCTAssertEqual(audited.status, 0, "\(name): \(audited.stdout)\(audited.stderr)")
            XCTAssertTrue(audited.stdout.contains("a11y ok:"), "\(name): \(audited.stdout)")
            let png = workDir.appendingPathComponent("\(name).png")
            let shot = try PaywallProcess.run(
                [
                    "snapshot", dir.path, "--strict", "--store", dir.appendingPathComponent("store.json").path, "--out", png.path,
                    "--size", "360x640", "--locale", "en_US",
                ], in: workDir, timeout: 90)
            XCTAssertEqual(shot.status, 0, "\(name): \(shot.stderr)")
            let image = try PNGImage(path: png.path)
            XCTAssertEqual(image.width, 360)
            XCTAssertEqual(image.height, 640)
        }
    }

    /// A page whose slot has no product (here: the slot left out of the manifest, as a dropped
    /// slot is) hides what that slot would sell; the rest of the page still works.
    func testEachTemplateHidesWhatASlotWithoutAProductWouldSell() throws {
        let waitForVariables = "while (!Paywall.variables) await new Promise(r => setTimeout(r, 20));"
        let cases: [(template: String, keep: [String: String], check: String)] = [
            (
                "comparison", ["primary": "lumen.pro.yearly"],
                "if (!document.querySelector('[data-product-slot=secondary]').hidden) throw new Error('monthly shown');"
            ),
            (
                "carousel", ["primary": "lumen.pro.yearly"],
                "if (!document.querySelector('[data-product-slot=secondary]').hidden) throw new Error('monthly shown');"
            ),
            (
                "minimal", [:],
                "if (!document.querySelector('[data-product-slot=primary]').hidden) throw new Error('offer shown');"
            ),
            ("lifetime", [:], "if (document.getElementById('purchase').offsetParent) throw new Error('Buy shown');"),
            ("trial-timeline", [:], "if (document.getElementById('purchase').offsetParent) throw new Error('Buy shown');"),
            (
                "winback", ["primary": "lumen.pro.yearly"],
                "if (document.getElementById('purchase').getAttribute('data-paywall-purchase') !== 'primary') throw new Error('buys the offer');"
                    + "if (document.querySelector('.card[data-when=lapsed]').offsetParent) throw new Error('offer shown');"
            ),
        ]
        for (template, keep, check) in cases {
            let dir = workDir.appendingPathComponent("dropped-\(template)")
            XCTAssertEqual(try PaywallProcess.run(["new", dir.path, "--template", template], in: workDir).status, 0)
            let manifestURL = dir.appendingPathComponent("manifest.json")
            var manifest = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: manifestURL)) as? [String: Any])
            manifest["products"] = keep
            try JSONSerialization.data(withJSONObject: manifest).write(to: manifestURL)
            XCTAssertEqual(try PaywallProcess.run(["bundle", "pack", dir.path], in: workDir).status, 0)
            let shown = try PaywallProcess.run(
                [
                    "present", dir.path, "--strict", "--store", dir.appendingPathComponent("store.json").path, "--data-dir",
                    workDir.appendingPathComponent("data-\(template)").path, "--timeout", "60", "--eval",
                    waitForVariables + check + "Paywall.close();",
                ], in: workDir, timeout: 90)
            XCTAssertEqual(shown.stdout, "{\"result\":\"declined\"}\n", "\(template): \(shown.stderr)")
            XCTAssertEqual(shown.status, 0, "\(template): \(shown.stderr)")
        }
    }

    /// The yearly plan's savings badge reads `{{ primary.savings }}`, what the catalog's prices
    /// save, and hides when the yearly plan saves nothing (it costs twelve months' price).
    func testTheSavingsBadgeShowsWhatTheCatalogSavesAndHidesWithoutASaving() throws {
        for template in ["classic", "comparison", "carousel"] {
            let store = EndToEndTestCase.packageRoot.appendingPathComponent("templates/\(template)/store.json")
            var catalog = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: store)) as? [String: Any])
            // $7.99 a month is $95.88 a year: $47.94 saves half of it, $95.88 nothing.
            for (yearly, badge) in [("47.94", "Save 50%"), ("95.88", nil)] {
                var products = try XCTUnwrap(catalog["products"] as? [[String: Any]])
                let index = try XCTUnwrap(products.firstIndex { $0["id"] as? String == "lumen.pro.yearly" })
                products[index]["price"] = yearly
                catalog["products"] = products
                let url = workDir.appendingPathComponent("\(template)-\(yearly).json")
                try JSONSerialization.data(withJSONObject: catalog).write(to: url)
                let check = """
                    while (!Paywall.variables) await new Promise(r => setTimeout(r, 20));
                    const badge = document.querySelector('[data-savings=primary]');
                    const shown = badge && badge.offsetParent ? badge.textContent : null;
                    if (shown !== \(badge.map { "'\($0)'" } ?? "null")) throw new Error('badge: ' + shown);
                    Paywall.close();
                    """
                let shown = try PaywallProcess.run(
                    [
                        "present", EndToEndTestCase.packageRoot.appendingPathComponent("templates/\(template)").path,
                        "--strict", "--store", url.path, "--data-dir", workDir.appendingPathComponent("data-\(template)").path,
                        "--timeout", "60", "--locale", "en_US", "--eval", check,
                    ], in: workDir, timeout: 90)
                XCTAssertEqual(shown.stdout, "{\"result\":\"declined\"}\n", "\(template) at \(yearly): \(shown.stderr)")
            }
        }
    }

    func testNewRefusesAFolderThatHasFilesAndAnUnknownTemplate() throws {
        let taken = workDir.appendingPathComponent("taken")
        try FileManager.default.createDirectory(at: taken, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: taken.appendingPathComponent("notes.txt"))
        let refused = try PaywallProcess.run(["new", taken.path], in: workDir)
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("not an empty folder"), refused.stderr)
        XCTAssertEqual(try String(contentsOf: taken.appendingPathComponent("notes.txt"), encoding: .utf8), "mine")
        let unknown = try PaywallProcess.run(
            ["new", workDir.appendingPathComponent("x").path, "--template", "nope"], in: workDir)
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.stderr.contains("comparison"), "names the templates there are: \(unknown.stderr)")
    }

    func testTheSheetShowsEveryTemplate() throws {
        let sheet = workDir.appendingPathComponent("sheet.png")
        let outcome = try PaywallProcess.run(["templates", "--sheet", sheet.path], in: workDir, timeout: 300)
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        let image = try PNGImage(path: sheet.path)
        XCTAssertGreaterThan(image.width, 1000)
        XCTAssertGreaterThan(image.height, 700)
    }
}
