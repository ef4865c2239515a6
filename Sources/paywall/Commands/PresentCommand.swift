import Foundation
import PaywallCore
import PaywallHost

/// `paywall present BUNDLE`: shows the paywall, runs `--eval` scripts once it is ready, and
/// prints the result as one JSON line when it closes.
@MainActor
enum PresentCommand {
    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        var timeout: Double?
        if let text = arguments.value("--timeout") {
            guard let seconds = Double(text), seconds > 0, seconds.isFinite else {
                throw .usage("--timeout must be a positive number of seconds; got '\(text)'", Commands.present)
            }
            timeout = seconds
        }
        let host = try PresentationHost(
            bundlePath: arguments.positionals[0], size: try Commands.size(arguments, Commands.present),
            eventsPath: arguments.value("--events"), offscreen: false)
        host.session.onFinish = { result in
            FileHandle.standardOutput.write(Data((result.jsonLine + "\n").utf8))
            host.finish(exitCode: result.exitCode)
        }
        let scripts = arguments.all("--eval")
        host.session.onReady = { runScripts(scripts[...], in: host.webView) }
        if let timeout {
            MainLoop.after(seconds: timeout) { host.session.finish(.timeout) }
        }
        return host.run()
    }

    /// Runs the scripts one after another, each once the previous one has finished.
    private static func runScripts(_ scripts: ArraySlice<String>, in webView: PaywallWebView) {
        guard let script = scripts.first else { return }
        webView.evaluate(script) { result in
            if case .failure(let error) = result {
                PresentationHost.fail("--eval #\(scripts.startIndex + 1) threw: \(error.message)")
            }
            runScripts(scripts.dropFirst(), in: webView)
        }
    }
}
