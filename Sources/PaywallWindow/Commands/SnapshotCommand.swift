import Foundation
import PaywallCLI
import PaywallCore
import PaywallHost

/// `paywall snapshot BUNDLE --out FILE.png`: renders the page off screen once it is ready.
/// With `--out-dir`, renders a whole matrix of locales, themes and sizes in this one process.
@MainActor
enum SnapshotCommand {
    /// A page that is not ready by then is reported as broken rather than waited on forever.
    static let readyTimeout = SnapshotMatrixRunner.shotTimeout

    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        let request = try SnapshotMatrixRequest(arguments, command: Commands.snapshot, singleOutput: "--out")
        let out = try Commands.outputFile(arguments, "--out")
        guard request != nil || out != nil else {
            throw .usage("--out FILE.png (one image) or --out-dir DIR (a matrix) is required", Commands.snapshot)
        }
        let host = try PresentationHost(arguments, command: Commands.snapshot, offscreen: true, countsAsView: false)
        if let code = StrictChecks(arguments).endOnMissingProduct(host.missingProducts) { return code }
        var exitCode: Int32 = 0
        let finished = { @MainActor (code: Int32) in
            exitCode = code
            Toolkit.quit()
        }
        PresentationHost.endOnSignals { finished(128 + $0) }
        let runner: SnapshotMatrixRunner?
        if let request {
            let matrix = try request.matrix(defaultTheme: Toolkit.interfaceStyle, command: Commands.snapshot)
            let matrixRunner = SnapshotMatrixRunner(
                request, matrix: matrix, presenter: host.presenter, title: sheetTitle(arguments.positionals[0]))
            runner = matrixRunner
            matrixRunner.run(render: { size, path, done in
                capture(host, size: size, store: { matrixRunner.writes.write($0, to: path) }, done: done)
            }) { code, _ in finished(code) }
        } else {
            runner = nil
            MainLoop.after(seconds: readyTimeout) {
                Diagnostics.fail("\(arguments.positionals[0]) was not ready after \(Int(readyTimeout)) s; nothing written")
                finished(1)
            }
            capture(
                host, size: host.options.size, store: { image throws(PageCapture.CaptureError) in try image.writePNG(to: out!) }
            ) { problem in
                if let problem { Diagnostics.fail(problem) }
                finished(problem == nil ? 0 : 1)
            }
        }
        Toolkit.run()
        return withExtendedLifetime(runner) { exitCode }
    }

    /// Presents the bundle off screen at `size`, hands what it shows once it is ready to `store`,
    /// and takes it down; `done` gets nil, or what went wrong.
    private static func capture(
        _ host: PresentationHost, size: ViewSize,
        store: @escaping @MainActor (PageCapture.CapturedImage) throws(PageCapture.CaptureError) -> Void,
        done: @escaping @MainActor (String?) -> Void
    ) {
        var options = host.options
        options.size = size
        var loadError: String?
        let token = host.events.observe { event in
            if event.name == .webviewLoadFail { loadError = event.params["reason"]?.stringValue ?? "load failed" }
        }
        var presentation: PaywallPresentation?
        let end = { (problem: String?) in
            host.events.removeObserver(token)
            presentation?.session.onReady = nil
            presentation?.dismiss()
            presentation = nil
            done(problem)
        }
        presentation = host.presenter.present(host.bundle, options: options) { result in
            // A user with access is not shown a paywall: there is nothing to capture.
            if case .skipped(let reason) = result { end("not shown (\(reason)); nothing written") }
        }
        presentation?.session.onReady = {
            guard let shown = presentation else { return }
            if let loadError { return end("\(host.bundle.root.path) did not load: \(loadError)") }
            PageCapture.capture(of: shown.webView) { result in
                do throws(PageCapture.CaptureError) { try store(result.get()) } catch { return end(error.description) }
                end(nil)
            }
        }
    }

    /// The contact sheet's title: a bundle's folder or file name (`.` is named by the folder
    /// it stands for), a URL as given.
    private static func sheetTitle(_ bundle: String) -> String {
        guard !bundle.contains("://") else { return bundle }
        return URL(fileURLWithPath: bundle).standardizedFileURL.lastPathComponent
    }
}
