import Foundation
import PaywallCLI
import PaywallCore
import PaywallHost

/// `paywall customer-center --out-dir`: the screen the `--eval` scripts lead to, for every
/// locale, theme and size of the matrix, in one process.
extension CustomerCenterCommand {
    @MainActor
    static func runMatrix(
        _ request: SnapshotMatrixRequest, presenter: PaywallPresenter, presentation: PresentationStyle,
        scripts: EvalScripts, timeout: Double?
    ) throws(CLIError) -> Int32 {
        let matrix = try request.matrix(defaultTheme: Toolkit.interfaceStyle, command: spec)
        let ending = RunEnding(presenter, analytics: nil)  // a snapshot matrix leaves its queue to the next run
        let finish = ending.end
        let runner = SnapshotMatrixRunner(request, matrix: matrix, presenter: presenter, title: "customer center")
        runner.run(
            render: { size, path, done in
                guard let (view, app) = show(presenter, as: presentation, size: size, offscreen: true, onDismiss: {}) else {
                    return done("the customer center could not be shown")
                }
                // The screen the scripts lead to is captured.
                runScriptsOnFirstScreen(of: view, scripts, finish: finish) {
                    whenDrawn(view) {
                        PageCapture.writePNG(of: view.webView, to: path) { result in
                            presenter.dismissCustomerCenter()
                            app?.destroy()
                            if case .failure(let error) = result { return done(error.description) }
                            done(nil)
                        }
                    }
                }
            },
            finished: { code, problem in
                let line: JSONValue =
                    problem.map { ["result": "error", "message": .string($0)] }
                    ?? ["result": "snapshot", "path": .string(request.outDir.path)]
                finish(line, code)
            })
        if let timeout { MainLoop.after(seconds: timeout) { finish(["result": "timeout"], 3) } }
        PresentationHost.endOnSignals { signal in finish(["result": "closed"], 128 + signal) }
        Toolkit.run()
        return withExtendedLifetime(runner) { ending.exitCode }
    }
}
