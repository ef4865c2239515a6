import Foundation
import PaywallCLI
import PaywallCore

/// `paywall snapshot` of a 20-image matrix (5 locales x 2 themes x 2 sizes) in one process,
/// against the same 20 images from 20 separate processes: what one process saves.
extension Bench {
    static let matrixLocales = ["en", "de", "fr", "ar", "ja"], matrixThemes = ["light", "dark"],
        matrixSizes = ["400x720", "320x568"]
    /// Matrix runs are few: each costs as much as 20 presents.
    static let matrixRuns = 3

    /// Medians of the matrix's runs and of the separate runs, and the 20 separate runs' sum.
    func snapshotRuns(_ bundle: PaywallBundle, work: URL) throws -> (matrix: Double, single: Double, separate: Double) {
        let out = work.appendingPathComponent("snapshots")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        var singles: [Double] = []
        for locale in Self.matrixLocales {
            for theme in Self.matrixThemes {
                for size in Self.matrixSizes {
                    singles.append(
                        try Self.timedRun([
                            "snapshot", bundle.root.path, "--locale", locale, "--theme", theme, "--size", size,
                            "--out", out.appendingPathComponent("\(locale)_\(theme)_\(size).png").path,
                        ]))
                }
            }
        }
        var matrices: [Double] = []
        for _ in 0..<Self.matrixRuns {
            matrices.append(
                try Self.timedRun([
                    "snapshot", bundle.root.path, "--out-dir", out.appendingPathComponent("matrix").path,
                    "--locales", Self.matrixLocales.joined(separator: ","),
                    "--themes", Self.matrixThemes.joined(separator: ","),
                    "--sizes", Self.matrixSizes.joined(separator: ","),
                ]))
        }
        return (Self.median(matrices), Self.median(singles), singles.reduce(0, +))
    }
}
