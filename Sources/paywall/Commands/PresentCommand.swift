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
            guard let seconds = Double(text), seconds > 0, seconds < 31_536_000 else {
                throw .usage("--timeout must be a positive number of seconds; got '\(text)'", Commands.present)
            }
            timeout = seconds
        }
        let host = try PresentationHost(arguments, command: Commands.present, countsAsView: true)
        let scripts = arguments.all("--eval")
        return host.run(onPresented: { presentation in
            presentation.session.onReady = { runScripts(scripts[...], in: presentation.webView) }
            if let timeout {
                MainLoop.after(seconds: timeout) { presentation.session.finish(.timeout) }
            }
        }, completion: { result in
            FileHandle.standardOutput.write(Data((result.jsonLine + "\n").utf8))
            host.finish(exitCode: result.exitCode)
        })
    }

    /// Runs the scripts one after another. Each is the body of an async function, so it may
    /// `await`; the next starts once its promise has settled.
    private static func runScripts(_ scripts: ArraySlice<String>, in webView: PaywallWebView) {
        guard let script = scripts.first else { return }
        webView.callAsync(script) { result in
            if case .failure(let error) = result {
                PresentationHost.fail("--eval #\(scripts.startIndex + 1) threw: \(error.message)")
            }
            runScripts(scripts.dropFirst(), in: webView)
        }
    }
}
