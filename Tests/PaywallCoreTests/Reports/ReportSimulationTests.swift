import Foundation
import XCTest

@testable import PaywallCore

/// The report over simulated logs of 10,000 users with known true rates, through the same
/// `ConversionReport` the CLI feeds: its 95% intervals contain the truth in 90-99% of 200
/// seeds, and its verdicts are right when the true rates differ by 3 points.
/// The two other directions (a worse treatment, equal rates) run 50 seeds;
/// `PAYWALL_REPORT_SIMULATION_SEEDS=N` runs N seeds in each test instead (a longer run).
final class ReportSimulationTests: XCTestCase {
    private let users = 10_000
    private func seeds(default value: Int) -> Int {
        ProcessInfo.processInfo.environment["PAYWALL_REPORT_SIMULATION_SEEDS"].flatMap(Int.init) ?? value
    }

    /// Half the users see variant a, half b; each converts with the variant's true rate, and a
    /// converting user starts a free trial with probability `trialShare`.
    private func simulate(seed: UInt64, rates: [String: Double], trialShare: Double = 0.4) -> ExperimentStats? {
        var random = SplitMix64(seed: seed)
        var report = ConversionReport()
        let variants = rates.keys.sorted()
        for user in 0..<users {
            let variant = variants[Int.random(in: 0..<variants.count, using: &random)]
            let id = "user\(user)"
            let tags: [String: JSONValue] = [
                "experiment_id": "exp", "variant_id": .string(variant), "paywall_identifier": .string("pw_" + variant),
            ]
            report.add(ReportLine(name: .paywallOpen, params: tags, userId: id), source: "sim")
            guard Double.random(in: 0..<1, using: &random) < rates[variant]! else { continue }
            let purchase = tags.merging(["transaction_id": .string("t\(user)")]) { $1 }
            report.add(
                ReportLine(name: .transactionComplete, params: purchase, userId: id, price: 9.99, currency: "EUR"),
                source: "sim")
            if Double.random(in: 0..<1, using: &random) < trialShare {
                report.add(ReportLine(name: .freeTrialStart, params: purchase, userId: id), source: "sim")
            }
        }
        return report.result.experiments.first
    }

    func testIntervalsCoverTheTrueRatesAndVerdictsFindAThreePointDifference() throws {
        let truth = ["a": 0.10, "b": 0.13]
        var intervals = 0
        var covered = 0
        var right = 0
        let seeds = seeds(default: 200)
        for seed in 0..<seeds {
            let experiment = try XCTUnwrap(simulate(seed: UInt64(seed), rates: truth))
            XCTAssertEqual(experiment.variants.map(\.id), ["a", "b"])
            XCTAssertEqual(experiment.variants.map(\.users).reduce(0, +), users)
            for variant in experiment.variants {
                let rate = truth[variant.id]!
                for (interval, value) in [
                    (variant.conversionInterval, rate), (variant.trialStartInterval, rate * 0.4),
                ] {
                    intervals += 1
                    if try XCTUnwrap(interval).contains(value) { covered += 1 }
                }
            }
            let b = experiment.variants[1]
            if b.verdict?.hasPrefix("b converts better than a with ") == true { right += 1 }
        }
        let coverage = Double(covered) / Double(intervals)
        print("report simulation: \(covered) of \(intervals) intervals held the true rate; \(right) of \(seeds) verdicts right")
        XCTAssertGreaterThanOrEqual(coverage, 0.90, "coverage \(coverage) over \(intervals) intervals")
        XCTAssertLessThanOrEqual(coverage, 0.99, "coverage \(coverage) over \(intervals) intervals")
        // At 5,000 users a side a 3-point difference is about 4.7 standard errors: a miss is rare.
        XCTAssertGreaterThanOrEqual(Double(right), 0.99 * Double(seeds), "\(right) of \(seeds) verdicts right")
    }

    func testAWorseTreatmentIsCalledWorse() throws {
        var right = 0
        let seeds = seeds(default: 50)
        for seed in 0..<seeds {
            let b = try XCTUnwrap(simulate(seed: UInt64(1_000 + seed), rates: ["a": 0.13, "b": 0.10])?.variants.last)
            XCTAssertLessThan(try XCTUnwrap(b.probabilityBetter), 0.5, "seed \(seed)")
            if b.verdict?.hasPrefix("a converts better than b with ") == true { right += 1 }
        }
        XCTAssertGreaterThanOrEqual(Double(right), 0.99 * Double(seeds), "\(right) of \(seeds) verdicts right")
    }

    func testEqualRatesRarelyGetAVerdict() throws {
        // Each direction's verdict needs P >= 0.95, so about 10% of seeds get one by chance.
        var verdicts = 0
        let seeds = seeds(default: 50)
        for seed in 0..<seeds {
            let b = try XCTUnwrap(simulate(seed: UInt64(2_000 + seed), rates: ["a": 0.12, "b": 0.12])?.variants.last)
            if b.verdict != "not enough data yet" { verdicts += 1 }
        }
        XCTAssertLessThanOrEqual(Double(verdicts), 0.2 * Double(seeds), "\(verdicts) of \(seeds) seeds got a verdict")
    }
}
