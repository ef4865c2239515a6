import XCTest

@testable import PaywallCLI
@testable import PaywallCore

final class ContactSheetTests: XCTestCase {
    func testShowsEveryImageWithItsNameGroupedByLocaleAndTheme() throws {
        let matrix = try SnapshotMatrix(locales: "de,ar", themes: "light,dark", sizes: "400x720,320x568")
        let html = ContactSheet.html(title: "templates/classic", matrix: matrix, report: nil)
        for shot in matrix.shots {
            XCTAssertTrue(html.contains("<img src=\"\(shot.fileName)\""), shot.fileName)
            XCTAssertTrue(html.contains("<figcaption>\(shot.name)"), shot.name)
        }
        XCTAssertTrue(html.contains("<h2>de</h2>"))
        XCTAssertTrue(html.contains("<h3>dark</h3>"))
        let de = try XCTUnwrap(html.range(of: "<h2>de</h2>"))
        let ar = try XCTUnwrap(html.range(of: "<h2>ar</h2>"))
        XCTAssertLessThan(de.lowerBound, ar.lowerBound, "in the order given")
        XCTAssertFalse(html.contains("diff.png"))
    }

    func testShowsStatusesDiffImagesAndMissingOnes() throws {
        let matrix = try SnapshotMatrix(locales: "de", themes: "light", sizes: "400x720,320x568")
        let report = SnapshotReport(entries: [
            .init(name: "de_light_400x720", status: .changed, difference: nil),
            .init(name: "de_light_320x568", status: .same, difference: nil),
            .init(name: "fr_light_400x720", status: .missing, difference: nil),
        ])
        let html = ContactSheet.html(title: "x", matrix: matrix, report: report)
        XCTAssertTrue(html.contains("<img src=\"de_light_400x720.diff.png\""))
        XCTAssertFalse(html.contains("de_light_320x568.diff.png"), "only changed images have a diff")
        XCTAssertTrue(html.contains("class=\"changed\""))
        XCTAssertTrue(html.contains("fr_light_400x720"), "missing images are listed")
        XCTAssertFalse(html.contains("<img src=\"fr_light_400x720.png\""), "a missing image is not in this folder")
    }

    func testEscapesTheTitle() throws {
        let matrix = try SnapshotMatrix(locales: "de", themes: "light", sizes: "400x720")
        let html = ContactSheet.html(title: "<b>&\"", matrix: matrix, report: nil)
        XCTAssertTrue(html.contains("&lt;b&gt;&amp;&quot;"))
        XCTAssertFalse(html.contains("<b>&"))
    }
}
