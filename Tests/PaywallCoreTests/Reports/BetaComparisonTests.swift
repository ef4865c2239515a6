import Foundation
import XCTest

@testable import PaywallCore

/// P(b converts better than a) under Beta(1, 1) priors: values worked out by hand, symmetry,
/// and an independent numerical integration for large counts.
final class BetaComparisonTests: XCTestCase {
    func testHandWorkedValues() {
        // Beta(2,1) against Beta(1,1): ∫ 2x · x dx = 2/3.
        XCTAssertEqual(BetaComparison.probabilityBetter((1, 1), than: (0, 0)), 2.0 / 3, accuracy: 1e-12)
        // Beta(2,1) against Beta(1,2): ∫ 2x · (2x - x²) dx = 5/6.
        XCTAssertEqual(BetaComparison.probabilityBetter((1, 1), than: (0, 1)), 5.0 / 6, accuracy: 1e-12)
        XCTAssertEqual(BetaComparison.probabilityBetter((0, 1), than: (1, 1)), 1.0 / 6, accuracy: 1e-12)
    }

    func testEqualCountsAreEven() {
        XCTAssertEqual(BetaComparison.probabilityBetter((0, 0), than: (0, 0)), 0.5, accuracy: 1e-12)
        XCTAssertEqual(BetaComparison.probabilityBetter((130, 1000), than: (130, 1000)), 0.5, accuracy: 1e-9)
    }

    func testLargeCountsMatchNumericalIntegration() {
        for (b, a) in [((120, 1000), (100, 1000)), ((650, 5000), (500, 5000)), ((40, 900), (45, 1100))] {
            let exact = BetaComparison.probabilityBetter(b, than: a)
            XCTAssertEqual(exact, integrated(b, a), accuracy: 1e-5, "\(b) vs \(a)")
            XCTAssertEqual(exact + BetaComparison.probabilityBetter(a, than: b), 1, accuracy: 1e-9)
        }
        // A clear difference at 10,000 users: b is better beyond doubt.
        XCTAssertGreaterThan(BetaComparison.probabilityBetter((650, 5000), than: (500, 5000)), 0.9999)
    }

    /// ∫ f_b(x) F_a(x) dx on a fine grid, F_a by the trapezoid rule: independent of the closed form.
    private func integrated(_ b: (Int, Int), _ a: (Int, Int)) -> Double {
        func density(_ counts: (Int, Int)) -> (Double) -> Double {
            let alpha = Double(counts.0 + 1)
            let beta = Double(counts.1 - counts.0 + 1)
            let norm = lgamma(alpha + beta) - lgamma(alpha) - lgamma(beta)
            return { x in x <= 0 || x >= 1 ? 0 : exp(norm + (alpha - 1) * log(x) + (beta - 1) * log(1 - x)) }
        }
        let fa = density(a)
        let fb = density(b)
        let steps = 200_000
        let h = 1.0 / Double(steps)
        var cumulative = 0.0
        var total = 0.0
        var previousA = fa(0)
        var previousTerm = 0.0
        for i in 1...steps {
            let x = Double(i) * h
            let currentA = fa(x)
            cumulative += (previousA + currentA) / 2 * h
            let term = fb(x) * cumulative
            total += (previousTerm + term) / 2 * h
            previousA = currentA
            previousTerm = term
        }
        return total
    }
}
