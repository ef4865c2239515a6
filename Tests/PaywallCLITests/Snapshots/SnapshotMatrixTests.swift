import XCTest

@testable import PaywallCLI
@testable import PaywallCore

final class SnapshotMatrixTests: XCTestCase {
    func testEveryCombinationLocaleByLocale() throws {
        let matrix = try SnapshotMatrix(locales: "de,ar", themes: "light,dark", sizes: "400x720,1280X800")
        XCTAssertEqual(
            matrix.shots.map(\.fileName),
            [
                "de_light_400x720.png", "de_light_1280x800.png", "de_dark_400x720.png", "de_dark_1280x800.png",
                "ar_light_400x720.png", "ar_light_1280x800.png", "ar_dark_400x720.png", "ar_dark_1280x800.png",
            ])
        XCTAssertEqual(matrix.shots[1].size, ViewSize(width: 1280, height: 800))
        XCTAssertEqual(matrix.shots[2].theme, "dark")
        XCTAssertEqual(matrix.shots[4].locale, "ar")
        XCTAssertEqual(matrix.shots[0].name, "de_light_400x720")
    }

    func testSpacesAroundItemsAreIgnored() throws {
        let matrix = try SnapshotMatrix(locales: " pt_BR , zh_Hant", themes: "dark", sizes: "320x568 ")
        XCTAssertEqual(matrix.shots.map(\.name), ["pt_BR_dark_320x568", "zh_Hant_dark_320x568"])
    }

    func testErrorsNameTheOptionAndTheItem() {
        let cases: [(String, String, String, [String])] = [
            ("de,,fr", "light", "400x720", ["--locales", "empty"]),
            ("de/x", "light", "400x720", ["--locales", "'de/x'", "locale identifier"]),
            ("de", "light,blue", "400x720", ["--themes", "'blue'", "light or dark"]),
            ("de", "light", "400", ["--sizes", "'400'", "WIDTHxHEIGHT", "10000"]),
            ("de,fr,de", "light", "400x720", ["--locales", "de", "twice"]),
            ("de", "dark,dark", "400x720", ["--themes", "twice"]),
            ("de", "light", "400x720,400X720", ["--sizes", "400x720", "twice"]),
            ("", "light", "400x720", ["--locales", "empty"]),
        ]
        for (locales, themes, sizes, words) in cases {
            XCTAssertThrowsError(try SnapshotMatrix(locales: locales, themes: themes, sizes: sizes)) { error in
                let message = "\(error)"
                for word in words { XCTAssertTrue(message.contains(word), "\(message) should mention \(word)") }
            }
        }
    }
}
