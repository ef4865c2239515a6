import PaywallCore

/// How `--compare` judges a run's images against a baseline folder's images of the same name.
package struct SnapshotComparison: Sendable {
    /// The largest per-channel difference that counts as equal.
    package var tolerance: Int
    /// The share of differing pixels an image may have and still count as the same.
    package var maxDiffRatio: Double

    package static let defaultTolerance = 2
    package static let defaultMaxDiffRatio = 0.001

    package init(tolerance: Int = Self.defaultTolerance, maxDiffRatio: Double = Self.defaultMaxDiffRatio) {
        self.tolerance = tolerance
        self.maxDiffRatio = maxDiffRatio
    }

    /// The entry for one rendered image (`new` without a baseline), and for a changed one the
    /// image that shows where.
    package func compare(name: String, baseline: RGBAImage?, current: RGBAImage) -> (
        entry: SnapshotReport.Entry, highlight: RGBAImage?
    ) {
        guard let baseline else { return (.init(name: name, status: .new, difference: nil), nil) }
        let difference = PixelDifference(baseline: baseline, current: current, tolerance: tolerance)
        guard !difference.isWithin(maxRatio: maxDiffRatio) else {
            return (.init(name: name, status: .same, difference: difference), nil)
        }
        return (
            .init(name: name, status: .changed, difference: difference),
            PixelDifference.highlight(baseline: baseline, current: current, tolerance: tolerance)
        )
    }

    /// The baseline's images this run did not render, by name. A baseline's images are its
    /// `.png` files, except the `.diff.png` files of its own comparisons.
    package static func missing(rendered: [String], baselineFiles: [String]) -> [SnapshotReport.Entry] {
        let names = baselineFiles.filter { $0.hasSuffix(".png") && !$0.hasSuffix(SnapshotReport.diffSuffix) }.map {
            String($0.dropLast(4))
        }
        return Set(names).subtracting(rendered).sorted().map { .init(name: $0, status: .missing, difference: nil) }
    }
}
