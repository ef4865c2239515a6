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
