import Foundation
import PaywallCLI
import PaywallCore
import PaywallHost

/// `paywall customer-center`: shows the customer center for the fake store's user, runs
/// `--eval` scripts, and prints one JSON line when it closes (or writes `--snapshot`).
enum CustomerCenterCommand {
    static var spec: CommandSpec { Commands.customerCenter }

    /// A page that has not drawn its screen by then is reported as broken.
    static let snapshotTimeout = 30.0

    @MainActor
    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        let timeout = try Commands.timeout(arguments, spec)
        let scripts = try EvalScripts(arguments, spec)
        let size = try Commands.size(arguments, spec)
        let snapshot = try Commands.outputFile(arguments, "--snapshot")
        let matrix = try SnapshotMatrixRequest(arguments, command: spec, singleOutput: "--snapshot")
        var configuration = CustomerCenterConfiguration.default
        if let path = arguments.value("--config") {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw .failure("cannot read --config \(path): no such file or not readable")
            }
            do { configuration = try CustomerCenterConfiguration(data: data, origin: path) } catch {
                throw .failure(error.description)
            }
        }
        let presentation = try Commands.presentationStyle(arguments, spec)
        if snapshot != nil, arguments.has("--automation") {
            throw .usage("--automation drives a window on screen; --snapshot renders off screen and exits: use one of them", spec)
        }
        let (presenter, stores) = try PresentationHost.makePresenter(arguments, command: spec)
        if let catalog = stores.purchases?.catalog,
            let code = scripts.strict.endOnMissingProduct(configuration.missingProducts(in: catalog))
        {
            return code
        }
        presenter.events.observe { event in
            if event.name == .customerCenterConfigWarning {
                Diagnostics.fail("warning: \(event.params["reason"]?.stringValue ?? "")")
            }
        }
        presenter.customerCenter = configuration
        presenter.appVersion = arguments.value("--app-version") ?? ""
        presenter.updateCheck = UpdateCheck(cachePath: stores.dataDirectory.url.appendingPathComponent("update-check.json").path)
        if let matrix {
            return try runMatrix(matrix, presenter: presenter, presentation: presentation, scripts: scripts, timeout: timeout)
        }
        let ending = RunEnding(presenter, analytics: stores.runtime.analytics)
        let finish = ending.end
        let closed = { finish(["result": "closed"], 0) }
        guard let (view, _) = show(presenter, as: presentation, size: size, offscreen: snapshot != nil, onDismiss: closed) else {
            throw .failure("the customer center could not be shown")
        }
        presenter.automation?.page = { [weak view] in view?.webView }
        presenter.automation?.onClose = { [weak presenter] in presenter?.dismissCustomerCenter() }
        // With --snapshot, the screen the scripts lead to is captured.
        runScriptsOnFirstScreen(of: view, scripts, finish: finish) {
            guard let snapshot else { return }
            capture(view, to: snapshot, finish: finish)
        }
        if let timeout { MainLoop.after(seconds: timeout) { finish(["result": "timeout"], PresentationResult.timeoutExitCode) } }
        PresentationHost.endOnSignals { signal in finish(["result": "closed"], 128 + signal) }
        if snapshot != nil {
            MainLoop.after(seconds: snapshotTimeout) {
                Diagnostics.fail(
                    "the customer center did not draw and finish its --eval scripts within \(Int(snapshotTimeout)) s; nothing written"
                )
                ending.exitCode = 1
                Toolkit.quit()
            }
        }
        Toolkit.run()
        return ending.exitCode
    }

    /// Ends a run once: prints its one line, takes the customer center down (the log gets
    /// `customerCenter_close` however it ends) and quits the loop; the exit code is the line's.
    @MainActor
    final class RunEnding {
        var exitCode: Int32 = 0
        private var ended = false
        private let presenter: PaywallPresenter
        private let analytics: AnalyticsPipeline?

        init(_ presenter: PaywallPresenter, analytics: AnalyticsPipeline?) {
            self.presenter = presenter
            self.analytics = analytics
        }

        func end(_ line: JSONValue, _ code: Int32) {
            guard !ended else { return }
            ended = true
            FileHandle.standardOutput.write(Data((line.jsonText + "\n").utf8))
            exitCode = code
            presenter.dismissCustomerCenter()
            PresentationHost.quit(sendingFirst: analytics)
        }
    }

    /// Runs the `--eval` scripts once the first screen is drawn, then `then`; under `--strict`
    /// a failing script ends the run with `script_error` instead (a matrix: all of it).
    @MainActor
    static func runScriptsOnFirstScreen(
        of view: CustomerCenterPresentation, _ scripts: EvalScripts,
        finish: @escaping @MainActor (JSONValue, Int32) -> Void,
        then: @escaping @MainActor () -> Void
    ) {
        var started = false
        view.session.onRendered = {
            guard !started else { return }
            started = true
            scripts.run(
                in: view.webView,
                onFailure: { message in
                    let failure = PresentationResult.scriptError(message: message)
                    finish(["result": .string(failure.name), "message": .string(message)], failure.exitCode)
                }, done: then)
        }
    }

    /// Shows the customer center as `presentation` asks: its own window, or in a stand-in app
    /// window (returned too). Nil when one is already on screen.
    @MainActor
    static func show(
        _ presenter: PaywallPresenter, as presentation: PresentationStyle, size: ViewSize, offscreen: Bool,
        onDismiss: @escaping () -> Void
    ) -> (CustomerCenterPresentation, StandInAppWindow?)? {
        guard presentation != .sheet else {
            return presenter.presentCustomerCenter(size: size, offscreen: offscreen, onDismiss: onDismiss).map { ($0, nil) }
        }
        let app = StandInAppWindow(
            title: presenter.strings.text("cc.standin.title"), size: size, offscreen: offscreen,
            showsBack: presentation == .pushed, onClose: { presenter.dismissCustomerCenter() })
        guard let shown = presenter.customerCenterWidget(presentation, onDismiss: onDismiss) else { return nil }
        app.show(shown.view.widget)
        return (shown, app)
    }

    /// Writes the PNG once the page has drawn the latest screen model.
    @MainActor
    private static func capture(
        _ view: CustomerCenterPresentation, to path: String, finish: @escaping @MainActor (JSONValue, Int32) -> Void
    ) {
        whenDrawn(view) {
            PageCapture.writePNG(of: view.webView, to: path) { result in
                switch result {
                case .success: finish(["result": "snapshot", "path": .string(path)], 0)
                case .failure(let error):
                    Diagnostics.fail(error.description)
                    finish(["result": "error", "message": .string(error.description)], 1)
                }
            }
        }
    }

    /// Calls `body` once the page has drawn the latest screen model (a script's tap may still be in flight).
    @MainActor
    static func whenDrawn(_ view: CustomerCenterPresentation, _ body: @escaping @MainActor () -> Void) {
        let session = view.session
        guard session.renderedRevision == session.revision, !session.isBusy else {
            MainLoop.after(seconds: 0.02) { whenDrawn(view, body) }
            return
        }
        body()
    }
}
