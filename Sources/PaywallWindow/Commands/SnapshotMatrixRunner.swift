import Foundation
import PaywallCLI
import PaywallCore
import PaywallHost

/// Renders a snapshot matrix in one process and one web process: shot after shot, switching
/// the presenter's locale and the theme as the matrix moves on; then compares the images with
/// the baseline and writes the diff images, `report.json` and the `index.html` contact sheet.
@MainActor
final class SnapshotMatrixRunner {
    /// Renders one image of `size` to `path`; `done` gets nil, or what went wrong.
    typealias Render = @MainActor (_ size: ViewSize, _ path: String, _ done: @escaping @MainActor (String?) -> Void) -> Void

    /// A shot not written by then is reported as broken rather than waited on forever.
    static let shotTimeout = 30.0

    private let request: SnapshotMatrixRequest
    private let matrix: SnapshotMatrix
    private let presenter: PaywallPresenter
    /// The contact sheet's title: what was rendered.
    private let title: String
    /// The shot being rendered; a timer or callback of an earlier one finds it moved on.
    private var current = -1
    /// Where a render may hand its image to be written while the next shot starts.
    let writes = BackgroundPNGWrites()

    init(_ request: SnapshotMatrixRequest, matrix: SnapshotMatrix, presenter: PaywallPresenter, title: String) {
        self.request = request
        self.matrix = matrix
        self.presenter = presenter
        self.title = title
    }

    /// Renders every shot, then writes the results; `finished` gets the exit code: 0, 1 when a
    /// shot failed (what was written stays; the message, also on stderr, comes with it), or 5
    /// when `--compare` found differences.
    func run(render: @escaping Render, finished: @escaping @MainActor (Int32, String?) -> Void) {
        let fail = { @MainActor (message: String) in
            Diagnostics.fail(message)
            finished(1, message)
        }
        let shots = matrix.shots
        current += 1
        let index = current
        guard index < shots.count else {
            if let failure = writes.finish().first { return fail(failure) }
            do { finished(try writeResults(), nil) } catch { fail(error.message) }
            return
        }
        let shot = shots[index]
        if shot.locale != presenter.strings.resolution.requested {
            do { try presenter.switchLocale(to: shot.locale) } catch {
                return fail("\(shot.name): cannot switch to the locale \(shot.locale): \(error)")
            }
            Diagnostics.warnOfFallback(presenter.strings)
        }
        Toolkit.setInterfaceStyle(shot.theme)
        MainLoop.after(seconds: Self.shotTimeout) { [weak self] in
            guard let self, self.current == index else { return }
            self.current = shots.count  // late callbacks of this shot are ignored
            fail("\(shot.name) was not written within \(Int(Self.shotTimeout)) s")
        }
        render(shot.size, request.outDir.appendingPathComponent(shot.fileName).path) { [weak self] problem in
            guard let self, self.current == index else { return }
            if let problem {
                self.current = shots.count
                return fail("\(shot.name): \(problem)")
            }
            // On the next turn of the loop: the finished page's callbacks unwind first.
            MainLoop.after(seconds: 0) { self.run(render: render, finished: finished) }
        }
    }

    /// Record mode writes the contact sheet; `--compare` also judges every image. Returns the exit code.
    private func writeResults() throws(CLIError) -> Int32 {
        let fm = FileManager.default
        let rendered = matrix.shots.map(\.name)
        let reportURL = request.outDir.appendingPathComponent("report.json")
        var report: SnapshotReport?
        if let baseline = request.baseline {
            var entries: [SnapshotReport.Entry] = []
            for shot in matrix.shots {
                let baselineFile = baseline.appendingPathComponent(shot.fileName)
                do {
                    let current = try PNGFile.read(request.outDir.appendingPathComponent(shot.fileName).path)
                    let previous = fm.fileExists(atPath: baselineFile.path) ? try PNGFile.read(baselineFile.path) : nil
                    let (entry, highlight) = request.comparison.compare(name: shot.name, baseline: previous, current: current)
                    let diff = request.outDir.appendingPathComponent(entry.diffFileName)
                    try? fm.removeItem(at: diff)  // a diff image of an earlier run would tell of a change that is gone
                    if let highlight { try PNGFile.write(highlight, to: diff.path) }
                    entries.append(entry)
                } catch {
                    throw .failure(error.description)
                }
            }
            let files: [String]
            do { files = try fm.contentsOfDirectory(atPath: baseline.path) } catch {
                throw .failure("cannot list --compare \(baseline.path): \(FileError.describe(error))")
            }
            report = SnapshotReport(entries: entries + SnapshotComparison.missing(rendered: rendered, baselineFiles: files))
            do { try Data((report!.json(request.comparison).jsonText + "\n").utf8).write(to: reportURL) } catch {
                throw .failure("cannot write \(reportURL.path): \(FileError.describe(error))")
            }
        } else {
            // Left from an earlier --compare into this folder, they would describe other images.
            try? fm.removeItem(at: reportURL)
            for shot in matrix.shots {
                try? fm.removeItem(at: request.outDir.appendingPathComponent(shot.name + SnapshotReport.diffSuffix))
            }
        }
        let sheet = request.outDir.appendingPathComponent("index.html")
        do { try Data(ContactSheet.html(title: title, matrix: matrix, report: report).utf8).write(to: sheet) } catch {
            throw .failure("cannot write \(sheet.path): \(FileError.describe(error))")
        }
        guard let report else { return 0 }
        Diagnostics.fail(
            "compared \(rendered.count) image(s) with \(request.baseline!.path): \(report.summary); see \(reportURL.path)")
        return report.hasDifferences ? SnapshotMatrixRequest.differencesExitCode : 0
    }
}
