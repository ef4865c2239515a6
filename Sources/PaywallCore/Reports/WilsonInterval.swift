import Foundation

/// The Wilson score interval of a binomial proportion: unlike `p ± z·se` it stays inside
/// [0, 1] and keeps close to its nominal coverage for small counts and rates near 0 or 1.
package struct WilsonInterval: Equatable, Sendable {
    package let low: Double
    package let high: Double

    /// The normal quantile of a two-sided 95% interval.
    package static let z95 = 1.959_963_984_540_054

    /// The interval of `successes` out of `trials` (nil when there are no trials: nothing is known).
    package init?(successes: Int, trials: Int, z: Double = WilsonInterval.z95) {
        guard trials > 0, successes >= 0, successes <= trials else { return nil }
        let n = Double(trials)
        let p = Double(successes) / n
        let z2 = z * z
        let center = (p + z2 / (2 * n)) / (1 + z2 / n)
        let half = z / (1 + z2 / n) * (p * (1 - p) / n + z2 / (4 * n * n)).squareRoot()
        // Exact bounds at 0 and n (the formula gives them up to rounding).
        low = successes == 0 ? 0 : max(0, center - half)
        high = successes == trials ? 1 : min(1, center + half)
    }

    package func contains(_ value: Double) -> Bool { low <= value && value <= high }
}
