import XCTest

@testable import PaywallCLI
@testable import PaywallCore

final class SnapshotComparisonTests: XCTestCase {
    private func image(_ rgba: [UInt8], width: Int = 10, height: Int = 10) -> RGBAImage {
        RGBAImage(width: width, height: height, pixels: Array(repeatElement(rgba, count: width * height).joined()))
    }

    func testStatusesAndHighlight() {
        let comparison = SnapshotComparison(tolerance: 2, maxDiffRatio: 0.001)
        let grey = image([100, 100, 100, 255])
        let same = comparison.compare(name: "a", baseline: grey, current: image([102, 99, 100, 255]))
        XCTAssertEqual(same.entry.status, .same)
        XCTAssertEqual(same.entry.difference?.maxChannelDelta, 2)
        XCTAssertNil(same.highlight, "no diff image for an unchanged one")

        let changed = comparison.compare(name: "b", baseline: grey, current: image([0, 0, 0, 255]))
        XCTAssertEqual(changed.entry.status, .changed)
        XCTAssertEqual(changed.entry.difference?.differingPixels, 100)
        XCTAssertEqual(changed.highlight?.pixel(0, 0), [255, 0, 0, 255])

        let resized = comparison.compare(name: "c", baseline: grey, current: image([100, 100, 100, 255], width: 11))
        XCTAssertEqual(resized.entry.status, .changed, "another size is a change")

        let new = comparison.compare(name: "d", baseline: nil, current: grey)
        XCTAssertEqual(new.entry.status, .new)
        XCTAssertNil(new.entry.difference)
        XCTAssertNil(new.highlight)
    }

    /// The ratio allows a few pixels: 1 of 100 differs, within 0.01 but not 0.001.
    func testMaxDiffRatioDecides() {
        var current = image([100, 100, 100, 255])
        current.pixels[0] = 0
        let base = image([100, 100, 100, 255])
        XCTAssertEqual(
            SnapshotComparison(tolerance: 2, maxDiffRatio: 0.01).compare(name: "a", baseline: base, current: current).entry
                .status,
            .same)
        XCTAssertEqual(
            SnapshotComparison(tolerance: 2, maxDiffRatio: 0.001).compare(name: "a", baseline: base, current: current).entry
                .status,
            .changed)
    }

    /// A baseline's images are its `.png` files; its own diff images are not.
    func testMissingAreTheBaselinesImagesThisRunDidNotRender() {
        let missing = SnapshotComparison.missing(
            rendered: ["de_light_400x720", "fr_light_400x720"],
            baselineFiles: [
                "index.html", "report.json", "fr_light_400x720.png", "it_light_400x720.png", "it_light_400x720.diff.png",
                "de_light_400x720.png", "es_light_400x720.png", "notes.PNG.txt",
            ])
        XCTAssertEqual(missing.map(\.name), ["es_light_400x720", "it_light_400x720"])
        XCTAssertEqual(missing.map(\.status), [.missing, .missing])
    }

    func testReportFailsOnChangedOrMissingOnly() {
        let same = SnapshotReport.Entry(name: "a", status: .same, difference: nil)
        let new = SnapshotReport.Entry(name: "b", status: .new, difference: nil)
        XCTAssertFalse(SnapshotReport(entries: [same, new]).hasDifferences, "a new image does not fail")
        XCTAssertTrue(SnapshotReport(entries: [same, .init(name: "c", status: .missing, difference: nil)]).hasDifferences)
        XCTAssertTrue(SnapshotReport(entries: [new, .init(name: "d", status: .changed, difference: nil)]).hasDifferences)
    }

    func testReportJSON() throws {
        let comparison = SnapshotComparison(tolerance: 2, maxDiffRatio: 0.001)
        let changed = comparison.compare(
            name: "de_dark_400x720", baseline: image([1, 1, 1, 255]), current: image([9, 1, 1, 255])
        ).entry
        let report = SnapshotReport(entries: [
            changed, .init(name: "fr_dark_400x720", status: .new, difference: nil),
            .init(name: "it_dark_400x720", status: .missing, difference: nil),
        ])
        let json = try JSONValue(parsing: report.json(comparison).jsonText)
        XCTAssertEqual(json["tolerance"], 2)
        XCTAssertEqual(json["max_diff_ratio"], .number(0.001))
        let images = try XCTUnwrap(json["images"]?.arrayValue)
        XCTAssertEqual(
            images[0],
            [
                "name": "de_dark_400x720", "status": "changed", "differing_pixels": 100, "max_channel_delta": 8,
                "diff": "de_dark_400x720.diff.png",
            ])
        XCTAssertEqual(
            images[1], ["name": "fr_dark_400x720", "status": "new", "differing_pixels": nil, "max_channel_delta": nil])
        XCTAssertEqual(images[2]["status"], "missing")
        XCTAssertEqual(report.summary, "1 changed, 1 missing, 0 same, 1 new")
    }
}
