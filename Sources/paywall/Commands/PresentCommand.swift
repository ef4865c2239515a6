import Foundation
import PaywallCore
import PaywallHost

/// `paywall present BUNDLE`: shows the paywall, runs `--eval` scripts once it is ready, and
/// prints the result as one JSON line when it closes.
@MainActor
enum PresentCommand {
    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        let timeout = try Commands.timeout(arguments, Commands.present)
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

    /// Runs the scripts one after another, then `done`. Each is the body of an async function,
    /// so it may `await`; the next starts once its promise has settled.
    static func runScripts(_ scripts: ArraySlice<String>, in webView: PaywallWebView, done: @escaping @MainActor () -> Void = {}) {
        guard let script = scripts.first else { return done() }
        webView.callAsync(script) { result in
            if case .failure(let error) = result {
                PresentationHost.fail("--eval #\(scripts.startIndex + 1) threw: \(error.message)")
            }
            runScripts(scripts.dropFirst(), in: webView, done: done)
        }
    }
}
