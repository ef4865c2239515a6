import XCTest

@testable import PaywallCore

/// The Wilson score interval against Newcombe's published values (Statistics in Medicine 17,
/// 1998, table I, method 3) and its edges.
final class WilsonIntervalTests: XCTestCase {
    func testNewcombesExamples() throws {
        for (successes, trials, low, high) in [
            (81, 263, 0.2553, 0.3662), (15, 148, 0.0624, 0.1605), (0, 20, 0.0, 0.1611), (1, 29, 0.0061, 0.1718),
        ] {
            let interval = try XCTUnwrap(WilsonInterval(successes: successes, trials: trials))
            XCTAssertEqual(interval.low, low, accuracy: 0.000_05, "\(successes)/\(trials)")
            XCTAssertEqual(interval.high, high, accuracy: 0.000_05, "\(successes)/\(trials)")
        }
    }

    func testZeroOfTenAndTenOfTen() throws {
        let none = try XCTUnwrap(WilsonInterval(successes: 0, trials: 10))
        XCTAssertEqual(none.low, 0)
        XCTAssertEqual(none.high, 0.277_53, accuracy: 0.000_01)
        let all = try XCTUnwrap(WilsonInterval(successes: 10, trials: 10))
        XCTAssertEqual(all.low, 1 - 0.277_53, accuracy: 0.000_01)
        XCTAssertEqual(all.high, 1)
    }

    func testNoTrialsIsUnknown() {
        XCTAssertNil(WilsonInterval(successes: 0, trials: 0))
        XCTAssertNil(WilsonInterval(successes: 3, trials: 2))
    }
}
