import Foundation

/// The probability that one conversion rate is higher than another, under independent
/// Beta(1, 1) priors updated by the counts: P(X_b > X_a) with X ~ Beta(1 + successes,
/// 1 + failures). Computed exactly by the closed-form sum for Beta variables with an integer
/// first parameter (Evan Miller, "Formulas for Bayesian A/B Testing"), each term in log space,
/// so it is deterministic and holds for large counts without overflow.
package enum BetaComparison {
    /// P(rate of b > rate of a), for `b` and `a` as (successes, trials).
    package static func probabilityBetter(
        _ b: (successes: Int, trials: Int), than a: (successes: Int, trials: Int)
    ) -> Double {
        let alphaA = Double(a.successes + 1)
        let betaA = Double(a.trials - a.successes + 1)
        let alphaB = Double(b.successes + 1)
        let betaB = Double(b.trials - b.successes + 1)
        // The sum has alpha-of-b terms; run it over the smaller side (P(a > b) = 1 - P(b > a)).
        if alphaB <= alphaA {
            return sum(alphaA: alphaA, betaA: betaA, alphaB: alphaB, betaB: betaB)
        }
        return 1 - sum(alphaA: alphaB, betaA: betaB, alphaB: alphaA, betaB: betaA)
    }

    /// Σ_{i=0}^{αb-1} B(αa+i, βa+βb) / ((βb+i) · B(1+i, βb) · B(αa, βa)).
    private static func sum(alphaA: Double, betaA: Double, alphaB: Double, betaB: Double) -> Double {
        let base = logBeta(alphaA, betaA)
        var total = 0.0
        var i = 0.0
        while i < alphaB {
            total += exp(logBeta(alphaA + i, betaA + betaB) - log(betaB + i) - logBeta(1 + i, betaB) - base)
            i += 1
        }
        return min(1, max(0, total))
    }

    private static func logBeta(_ x: Double, _ y: Double) -> Double {
        lgamma(x) + lgamma(y) - lgamma(x + y)
    }
}
