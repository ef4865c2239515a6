import Foundation
import PaywallCLI
import PaywallCore
import PaywallHost

/// A run's `--eval` scripts and what their failures do. Each runs as the body of an async
/// function once the previous one settled. One that throws, or whose promise does not settle
/// within `--script-timeout`, is reported on stderr and the next one runs; under `--strict` it
/// ends the run instead (`onFailure`), and the rest do not run.
@MainActor
struct EvalScripts {
    static let defaultTimeout = 30.0

    let scripts: [String]
    /// Whether a script is still running, and who waits for it to settle.
    private let progress = Progress()
    /// Seconds each script's promise may take to settle.
    let timeout: Double
    let strict: StrictChecks

    init(_ arguments: ParsedArguments, _ command: CommandSpec) throws(CLIError) {
        scripts = arguments.all("--eval")
        strict = StrictChecks(arguments)
        guard let text = arguments.value("--script-timeout") else {
            timeout = Self.defaultTimeout
            return
        }
        guard let seconds = Double(text), seconds > 0, seconds < 86_400 else {
            throw .usage("--script-timeout must be seconds (more than 0, under a day); got '\(text)'", command)
        }
        timeout = seconds
    }

    /// Runs the scripts in `webView`, then `done`. Under `--strict` a failing script calls
    /// `onFailure` with what went wrong instead, and nothing after it runs.
    func run(
        in webView: PaywallWebView, onFailure: @escaping @MainActor (String) -> Void,
        done: @escaping @MainActor () -> Void = {}
    ) {
        run(0, in: webView, onFailure: onFailure, done: done)
    }

    /// Calls `body` once no script is running any more, with the failure a strict run ended
    /// on (nil: they all settled, or none was running).
    func whenSettled(_ body: @escaping @MainActor (String?) -> Void) {
        guard progress.running else { return body(nil) }
        progress.waiters.append(body)
    }

    @MainActor
    private final class Progress {
        var running = false
        var waiters: [@MainActor (String?) -> Void] = []

        func settled(_ failure: String?) {
            running = false
            let waiting = waiters
            waiters = []
            for resume in waiting { resume(failure) }
        }
    }

    private func run(
        _ index: Int, in webView: PaywallWebView, onFailure: @escaping @MainActor (String) -> Void,
        done: @escaping @MainActor () -> Void
    ) {
        guard index < scripts.count else {
            progress.settled(nil)
            return done()
        }
        progress.running = true
        // Whichever comes first, the script settling or its time running out, decides.
        var decided = false
        let settle = { (failure: String?) in
            guard !decided else { return }
            decided = true
            if let failure {
                Diagnostics.fail(failure)
                if strict.enabled {
                    progress.settled(failure)
                    return onFailure(failure)
                }
            }
            run(index + 1, in: webView, onFailure: onFailure, done: done)
        }
        let timer = MainLoop.after(seconds: timeout) {
            settle("--eval #\(index + 1) did not settle within \(Seconds.text(timeout))")
        }
        webView.callAsync(scripts[index]) { result in
            guard !decided else { return }
            MainLoop.cancel(timer)
            if case .failure(let error) = result {
                settle("--eval #\(index + 1) threw: \(error.message)")
            } else {
                settle(nil)
            }
        }
    }
}
