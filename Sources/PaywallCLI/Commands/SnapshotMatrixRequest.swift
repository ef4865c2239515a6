import Foundation
import PaywallCore

/// What the matrix and compare options of `snapshot` and `customer-center` ask for: render
/// every locale × theme × size into `--out-dir`, and with `--compare` judge each image against
/// the baseline folder's image of the same name.
package struct SnapshotMatrixRequest {
    package static let options = [
        OptionSpec(
            name: "--out-dir", valueName: "DIR",
            help:
                "Render every --locales x --themes x --sizes combination into DIR (created if missing) as <locale>_<theme>_<W>x<H>.png, with an index.html contact sheet."
        ),
        OptionSpec(name: "--locales", valueName: "L,L", help: "The matrix's locales, e.g. en,de,ar (default: --locale's)."),
        OptionSpec(
            name: "--themes", valueName: "light,dark", help: "The matrix's themes (default: --theme's, else the desktop's)."),
        OptionSpec(name: "--sizes", valueName: "WxH,WxH", help: "The matrix's view sizes (default: --size's, else 400x720)."),
        OptionSpec(
            name: "--compare", valueName: "BASELINE_DIR",
            help:
                "Compare each image with BASELINE_DIR's image of the same name; write <name>.diff.png for each changed one and report.json. Exit 5 when one changed or is missing."
        ),
        OptionSpec(
            name: "--tolerance", valueName: "N",
            help:
                "With --compare: the largest per-channel difference that counts as equal, 0 to 255 (default \(SnapshotComparison.defaultTolerance))."
        ),
        OptionSpec(
            name: "--max-diff-ratio", valueName: "R",
            help:
                "With --compare: the share of differing pixels an image may have and still count as the same, 0 to 1 (default \(SnapshotComparison.defaultMaxDiffRatio))."
        ),
    ]

    /// The exit code when `--compare` found an image changed or missing.
    package static let differencesExitCode: Int32 = 5

    package let outDir: URL
    package let baseline: URL?
    package let comparison: SnapshotComparison
    private let locales: String
    private let themes: String?
    private let sizes: String

    /// Nil without `--out-dir` (then none of the matrix options may be given). Checks every
    /// option and creates the output folder before anything is rendered.
    @MainActor
    package init?(_ arguments: ParsedArguments, command: CommandSpec, singleOutput: String) throws(CLIError) {
        guard let outDir = arguments.value("--out-dir") else {
            if let stray = Self.options.dropFirst().first(where: { arguments.value($0.name) != nil }) {
                throw .usage("\(stray.name) needs --out-dir DIR (it belongs to a snapshot matrix)", command)
            }
            return nil
        }
        if arguments.value(singleOutput) != nil {
            throw .usage("give \(singleOutput) FILE.png for one image or --out-dir DIR for a matrix, not both", command)
        }
        for (single, list) in [("--locale", "--locales"), ("--theme", "--themes"), ("--size", "--sizes")]
        where arguments.value(single) != nil && arguments.value(list) != nil {
            throw .usage("give \(single) or \(list), not both", command)
        }
        if let list = arguments.value("--locales") {
            locales = list
        } else {
            // The environment's locale may not be an identifier; it then renders as English.
            let single = try Commands.locale(arguments, command: command)
            locales = LocaleResolution.isWellFormed(single) ? single : "en"
        }
        themes = arguments.value("--themes") ?? arguments.value("--theme")
        let size = try Commands.size(arguments, command)
        sizes = arguments.value("--sizes") ?? size.description
        var comparison = SnapshotComparison()
        if let text = arguments.value("--tolerance") {
            guard let value = Int(text), (0...255).contains(value) else {
                throw .usage("--tolerance must be a whole number from 0 to 255; got '\(text)'", command)
            }
            comparison.tolerance = value
        }
        if let text = arguments.value("--max-diff-ratio") {
            guard let value = Double(text), value >= 0, value <= 1 else {
                throw .usage("--max-diff-ratio must be a number from 0 to 1, e.g. 0.001; got '\(text)'", command)
            }
            comparison.maxDiffRatio = value
        }
        if arguments.value("--compare") == nil,
            let given = ["--tolerance", "--max-diff-ratio"].first(where: { arguments.value($0) != nil })
        {
            throw .usage("\(given) needs --compare BASELINE_DIR", command)
        }
        self.comparison = comparison
        // Every list is checked before the display opens.
        _ = try Self.matrix(locales, themes ?? "light", sizes, command: command)
        let outURL = URL(fileURLWithPath: outDir)
        self.outDir = outURL
        var baseline: URL?
        if let path = arguments.value("--compare") {
            let url = URL(fileURLWithPath: path)
            guard Self.realPath(url) != Self.realPath(outURL) else {
                throw .usage(
                    "--compare must name another folder than --out-dir: the run would overwrite its own baseline", command)
            }
            guard FileSystem.isFolder(url.path) else {
                throw .failure("--compare \(path): no such folder; record a baseline first by running without --compare")
            }
            baseline = url
        }
        self.baseline = baseline
        do {
            try FileManager.default.createDirectory(at: self.outDir, withIntermediateDirectories: true)
        } catch {
            throw .failure("cannot create --out-dir \(outDir): \(FileError.describe(error))")
        }
    }

    /// The matrix; without `--themes` or `--theme`, in `defaultTheme` (the desktop's).
    package func matrix(defaultTheme: String, command: CommandSpec) throws(CLIError) -> SnapshotMatrix {
        try Self.matrix(locales, themes ?? defaultTheme, sizes, command: command)
    }

    private static func matrix(_ locales: String, _ themes: String, _ sizes: String, command: CommandSpec) throws(CLIError)
        -> SnapshotMatrix
    {
        do { return try SnapshotMatrix(locales: locales, themes: themes, sizes: sizes) } catch {
            throw .usage(error.description, command)
        }
    }

    /// The folder `url` really is, symbolic links resolved by the system (`realpath`): an
    /// `--out-dir` that links to the baseline is the baseline. A folder that does not exist yet
    /// is its parent's real path plus its name.
    package static func realPath(_ url: URL) -> String {
        if let resolved = realpath(url.path, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        let parent = url.deletingLastPathComponent()
        guard parent.path != url.path else { return url.standardized.path }
        return realPath(parent) + "/" + url.lastPathComponent
    }
}
